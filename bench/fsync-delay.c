/* LD_PRELOAD shim for bench/saves-block-readers.sh: fsync and fdatasync sleep FSYNC_DELAY_MS
 * milliseconds (default 0) before doing their work, as on a busy, USB or network disk.
 * Built by the script: cc -shared -fPIC -o fsync-delay.so fsync-delay.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void delay(void) {
    static long milliseconds = -1;
    if (milliseconds < 0) {
        const char *text = getenv("FSYNC_DELAY_MS");
        milliseconds = text ? atol(text) : 0;
    }
    if (milliseconds <= 0) return;
    struct timespec pause = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&pause, &pause) != 0) {}
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    delay();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    delay();
    return real(fd);
}
