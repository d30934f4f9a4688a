/* How long the durable replacement of a document takes on this disk, written the plain way and the way
 * minutafs writes it (SPEC 5 and 5a), in one tight loop with nothing else running: what the disk alone
 * makes a save cost, for BENCHMARKS.md.
 *
 *   replace-protocols FOLDER SAVES BYTES
 *
 * Each of SAVES saves writes BYTES bytes (one changed a save) and is durable when it ends:
 *   plain     a temporary file of a fixed name (O_TRUNC), fsync, rename over FOLDER/document, the
 *             folder's fsync: bench/save-latency.c's plain save, and fuse-save-floor's;
 *   minutafs  a temporary file of a new random name (O_EXCL, then fchmod), fsync, renameat2 with
 *             RENAME_EXCHANGE, the folder's fsync, then the displaced version unlinked
 *             (`DocumentFiles.replaceDocumentFile`).
 * The two alternate in rounds of 100; prints the p50 and p90 of each. Every call is checked: a failure
 * prints what failed and exits 1. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#define BENCH_PROGRAM "replace-protocols"
#include "bench-io.h"

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void sync_folder(const char *folder) {
    int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) fail("open", folder);
    if (fsync(fd) != 0) fail("fsync", folder);
    if (close(fd) != 0) fail("close", folder);
}

/* One durable save of `bytes` as `document` in `folder`; `minutafs` picks the protocol. */
static void save(int minutafs, const char *folder, const char *document, const char *bytes, size_t length) {
    char temporary[4096];
    int fd;
    if (!minutafs) {
        if (snprintf(temporary, sizeof temporary, "%s/.document.tmp", folder) >= (int)sizeof temporary) fail("name", folder);
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) fail("open", temporary);
    } else {
        if (snprintf(temporary, sizeof temporary, "%s/.document.minutafs-%08lx-%016llx.tmp", folder, random(),
                     (unsigned long long)random() << 32 | (unsigned long long)random()) >= (int)sizeof temporary) fail("name", folder);
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) fail("open", temporary);
        if (fchmod(fd, 0644) != 0) fail("fchmod", temporary);
    }
    write_all(fd, bytes, length, temporary);
    if (fsync(fd) != 0) fail("fsync", temporary);
    struct stat written;
    if (fstat(fd, &written) != 0) fail("fstat", temporary);
    if (close(fd) != 0) fail("close", temporary);
    if (!minutafs) {
        if (rename(temporary, document) != 0) fail("rename", temporary);
        sync_folder(folder);
    } else {
        if (syscall(SYS_renameat2, AT_FDCWD, temporary, AT_FDCWD, document, RENAME_EXCHANGE) != 0) fail("exchange", temporary);
        sync_folder(folder);
        if (unlink(temporary) != 0) fail("unlink", temporary);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: replace-protocols FOLDER SAVES BYTES\n");
        return 2;
    }
    const char *folder = argv[1];
    int saves = atoi(argv[2]);
    long length = atol(argv[3]);
    if (saves < 100 || length < 1 || length > (64L << 20)) {
        fprintf(stderr, "replace-protocols: SAVES must be at least 100, BYTES from 1 to 64 MiB\n");
        return 2;
    }
    char document[4096];
    if (snprintf(document, sizeof document, "%s/document", folder) >= (int)sizeof document) fail("name", folder);
    char *bytes = malloc((size_t)length);
    double *times[2] = { malloc(sizeof(double) * (size_t)saves), malloc(sizeof(double) * (size_t)saves) };
    if (!bytes || !times[0] || !times[1]) fail("malloc", folder);
    memset(bytes, 'x', (size_t)length);
    int fd = open(document, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail("open", document);
    write_all(fd, bytes, (size_t)length, document);
    if (fsync(fd) != 0) fail("fsync", document);
    if (close(fd) != 0) fail("close", document);
    int done[2] = { 0, 0 };
    while (done[0] < saves || done[1] < saves) {
        for (int minutafs = 0; minutafs < 2; minutafs++) {
            for (int round = 0; round < 100 && done[minutafs] < saves; round++) {
                bytes[done[minutafs] % length]++;
                double start = now_us();
                save(minutafs, folder, document, bytes, (size_t)length);
                times[minutafs][done[minutafs]++] = now_us() - start;
            }
        }
    }
    const char *names[2] = { "plain (rename over)", "minutafs (exchange, unlink)" };
    for (int minutafs = 0; minutafs < 2; minutafs++) {
        qsort(times[minutafs], (size_t)saves, sizeof(double), by_value);
        printf("%-28s p50 %.0f us, p90 %.0f us (%d saves of %ld bytes)\n", names[minutafs],
               times[minutafs][saves / 2], times[minutafs][saves * 9 / 10], saves, length);
    }
    return 0;
}
