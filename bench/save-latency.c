/* Save timings for bench/save-floor.sh.
 *   save-latency mount FILE A B N     N saves of FILE through a mount: open(O_WRONLY|O_TRUNC), write,
 *                                     close (which returns once the save is durable), the contents
 *                                     alternating between the files A and B; prints each save's
 *                                     milliseconds, one a line.
 *   save-latency plain FILE A B N     the durable plain-file save of the same bytes beside FILE: a
 *                                     temporary file written and fsynced, renamed over FILE, the folder
 *                                     fsynced; prints each save's milliseconds.
 *   save-latency loop FILE A B SECS   saves of FILE through a mount for SECS seconds; prints the count.
 *   save-latency phases FILE A B N    N saves of FILE as `mount` makes them; prints each save's open,
 *                                     write and close apart, in microseconds, four to a line (the
 *                                     fourth their sum).
 * Every call is checked: a failure prints what failed and exits 1. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#define BENCH_PROGRAM "save-latency"
#include "bench-io.h"

static char *slurp(const char *path, size_t *length) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) fail("open", path);
    size_t capacity = 1 << 20;
    char *buffer = malloc(capacity);
    if (!buffer) fail("malloc", path);
    ssize_t got = read(fd, buffer, capacity);
    if (got < 0) fail("read", path);
    if (close(fd) != 0) fail("close", path);
    *length = (size_t)got;
    return buffer;
}

static void mount_save(const char *file, const char *bytes, size_t length) {
    int fd = open(file, O_WRONLY | O_TRUNC);
    if (fd < 0) fail("open", file);
    write_all(fd, bytes, length, file);
    if (close(fd) != 0) fail("close", file);
}

static void plain_save(const char *file, const char *folder, const char *bytes, size_t length) {
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", file);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) fail("open", temporary);
    write_all(fd, bytes, length, temporary);
    if (fsync(fd) != 0) fail("fsync", temporary);
    if (close(fd) != 0) fail("close", temporary);
    if (rename(temporary, file) != 0) fail("rename", temporary);
    int dir = open(folder, O_RDONLY | O_DIRECTORY);
    if (dir < 0) fail("open", folder);
    if (fsync(dir) != 0) fail("fsync", folder);
    if (close(dir) != 0) fail("close", folder);
}

/* `mount_save` with its three calls timed apart: prints "OPEN WRITE CLOSE TOTAL" microseconds. */
static void phased_save(const char *file, const char *bytes, size_t length) {
    double start = now_us();
    int fd = open(file, O_WRONLY | O_TRUNC);
    if (fd < 0) fail("open", file);
    double opened = now_us();
    write_all(fd, bytes, length, file);
    double written = now_us();
    if (close(fd) != 0) fail("close", file);
    double closed = now_us();
    printf("%.0f %.0f %.0f %.0f\n", opened - start, written - opened, closed - written, closed - start);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: save-latency mount|plain|loop|phases FILE A B N|SECONDS\n");
        return 2;
    }
    const char *mode = argv[1], *file = argv[2];
    size_t lengths[2];
    char *contents[2] = { slurp(argv[3], &lengths[0]), slurp(argv[4], &lengths[1]) };
    char *copy = strdup(file);
    if (!copy) fail("strdup", file);
    const char *folder = dirname(copy);
    long count = atol(argv[5]);
    if (strcmp(mode, "loop") == 0) {
        double end = (now_us() / 1e3) + count * 1e3;
        long saves = 0;
        while ((now_us() / 1e3) < end) {
            mount_save(file, contents[saves % 2], lengths[saves % 2]);
            saves++;
        }
        printf("%ld\n", saves);
        return 0;
    }
    if (strcmp(mode, "phases") == 0) {
        for (long i = 0; i < count; i++) phased_save(file, contents[i % 2], lengths[i % 2]);
        if (fflush(stdout) != 0) fail("fflush", "stdout");
        return 0;
    }
    for (long i = 0; i < count; i++) {
        double start = (now_us() / 1e3);
        if (strcmp(mode, "mount") == 0) mount_save(file, contents[i % 2], lengths[i % 2]);
        else if (strcmp(mode, "plain") == 0) plain_save(file, folder, contents[i % 2], lengths[i % 2]);
        else { fprintf(stderr, "save-latency: unknown mode %s\n", mode); return 2; }
        printf("%.4f\n", (now_us() / 1e3) - start);
    }
    if (fflush(stdout) != 0) fail("fflush", "stdout");
    return 0;
}
