/* The two sides of bench/saves-block-readers.sh, built by the script with cc.
 *
 *   read-under-saves read SECONDS LIST   reads (open, read to the end, close) the files named in
 *       LIST (one path a line) round-robin for SECONDS; prints "reads N rate R/s p50 P p99 P max M"
 *       (latencies in milliseconds).
 *   read-under-saves save SECONDS FILE INTERVAL_MS   writes FILE (a record file) again and again for
 *       SECONDS, its "comment" set to a new text each time, sleeping INTERVAL_MS between saves
 *       (0: as fast as they go); prints "saves N rate R/s". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *slurp(const char *path, size_t *size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    size_t capacity = 1 << 16, used = 0;
    char *bytes = malloc(capacity);
    ssize_t n;
    while ((n = read(fd, bytes + used, capacity - used)) > 0) {
        used += n;
        if (used == capacity) bytes = realloc(bytes, capacity *= 2);
    }
    close(fd);
    *size = used;
    return bytes;
}

static int readLoop(double seconds, const char *listPath) {
    size_t listSize;
    char *list = slurp(listPath, &listSize);
    if (!list) { perror(listPath); return 1; }
    char *paths[4096];
    int count = 0;
    for (char *line = strtok(list, "\n"); line && count < 4096; line = strtok(NULL, "\n")) paths[count++] = line;
    if (count == 0) { fprintf(stderr, "no files in %s\n", listPath); return 1; }
    size_t capacity = 1 << 20, reads = 0;
    double *latency = malloc(capacity * sizeof(double));
    char buffer[1 << 16];
    double start = now(), end = start + seconds;
    for (double t = start; t < end; reads++) {
        int fd = open(paths[reads % count], O_RDONLY);
        if (fd >= 0) {
            while (read(fd, buffer, sizeof buffer) > 0) {}
            close(fd);
        }
        double after = now();
        if (reads == capacity) latency = realloc(latency, (capacity *= 2) * sizeof(double));
        latency[reads] = (after - t) * 1000;
        t = after;
    }
    qsort(latency, reads, sizeof(double), compare);
    printf("reads %zu rate %.0f/s p50 %.3f p99 %.3f max %.1f\n", reads, reads / seconds,
           latency[reads / 2], latency[(size_t)(reads * 0.99)], latency[reads - 1]);
    return 0;
}

static int saveLoop(double seconds, const char *file, long intervalMilliseconds) {
    size_t size;
    char *original = slurp(file, &size);
    if (!original) { perror(file); return 1; }
    char *key = strstr(original, "\"comment\"");
    char *open_ = key ? strchr(key + 9, '"') : NULL;
    char *close_ = open_ ? open_ + 1 : NULL;
    while (close_ && *close_ && *close_ != '"') close_ += (*close_ == '\\' && close_[1]) ? 2 : 1;
    if (!close_ || *close_ != '"') { fprintf(stderr, "%s: no \"comment\" string\n", file); return 1; }
    size_t saves = 0;
    double start = now(), end = start + seconds;
    char *bytes = malloc(size + 64);
    while (now() < end) {
        int prefix = (int)(open_ + 1 - original);
        int length = sprintf(bytes, "%.*ssave %zu%s", prefix, original, saves, close_);
        int fd = open(file, O_WRONLY | O_TRUNC);
        if (fd < 0 || write(fd, bytes, length) != length || close(fd) != 0) { perror(file); return 1; }
        saves++;
        if (intervalMilliseconds > 0) usleep(intervalMilliseconds * 1000);
    }
    printf("saves %zu rate %.1f/s\n", saves, saves / (now() - start));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "read") == 0) return readLoop(atof(argv[2]), argv[3]);
    if (argc == 5 && strcmp(argv[1], "save") == 0) return saveLoop(atof(argv[2]), argv[3], atol(argv[4]));
    fprintf(stderr, "usage: %s read SECONDS LIST | save SECONDS FILE INTERVAL_MS\n", argv[0]);
    return 2;
}
