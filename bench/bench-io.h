/* What the benchmark programs in bench/ share: a clock, a failure that says what failed and exits 1,
 * and a write of a whole buffer. Define BENCH_PROGRAM (the program's name, for messages) before
 * including it. */
#ifndef MINUTAFS_BENCH_IO_H
#define MINUTAFS_BENCH_IO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_PROGRAM
#error "define BENCH_PROGRAM before including bench-io.h"
#endif

/* Microseconds on the monotonic clock. */
static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Prints "PROGRAM: WHAT PATH: the errno's text" and exits 1. */
static void fail(const char *what, const char *path) {
    fprintf(stderr, BENCH_PROGRAM ": %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

/* Writes all of `bytes` to `fd`, through short writes; fails naming `path`. */
static void write_all(int fd, const char *bytes, size_t length, const char *path) {
    while (length > 0) {
        ssize_t wrote = write(fd, bytes, length);
        if (wrote < 0) fail("write", path);
        bytes += wrote;
        length -= (size_t)wrote;
    }
}

#endif
