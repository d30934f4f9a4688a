/* The fastest a save through FUSE can be here, under minutafs's rule for writing a document (SPEC 5:
 * a temporary file in the same folder, fsync, rename, fsync the folder), for bench/save-floor.sh.
 *
 *   fuse-save-floor BACKING DOCUMENT_BYTES MOUNTPOINT
 *
 * Serves one file, MOUNTPOINT/record.json, through libfuse3's low-level API with a single thread, and
 * does nothing per request but reply, except at FLUSH after a write: then it writes a document of
 * DOCUMENT_BYTES bytes (the bytes written, then filler) durably as BACKING/document, as minutafs writes
 * a month's whole document at every save of one of its records. Everything the kernel may cache is
 * cacheable (60 s for names and attributes, minutafs's default), and GETXATTR is answered with
 * ENODATA, as minutafs answers it for a name it does not hold. No parsing, no CRDT, no rendering: what
 * a save through the mount costs beyond this is minutafs's own work.
 *
 * Every system call is checked: a failed save answers the FLUSH with its errno (so the benchmark's
 * close fails and says so); a failure to start exits 1. SIGINT or SIGTERM unmounts. */
#define FUSE_USE_VERSION 312
#define _GNU_SOURCE
#include <fuse_lowlevel.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TIMEOUT 60.0
#define FILE_INODE 2
#define FILE_NAME "record.json"

static char *contents;            /* the file's bytes as written */
static size_t length, capacity;   /* its size, and room */
static int dirty;                 /* written since the last save */
static const char *backing;       /* the folder documents are written to */
static size_t document_bytes;     /* the size of the document a save writes */
static char *document;            /* a buffer of document_bytes */
static unsigned long saves;

static void attributes_of(fuse_ino_t inode, struct stat *st) {
    memset(st, 0, sizeof *st);
    st->st_ino = inode;
    st->st_uid = getuid();
    st->st_gid = getgid();
    if (inode == FUSE_ROOT_ID) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
    } else {
        st->st_mode = S_IFREG | 0644;
        st->st_nlink = 1;
        st->st_size = (off_t)length;
    }
}

static void do_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
    if (parent != FUSE_ROOT_ID || strcmp(name, FILE_NAME) != 0) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    struct fuse_entry_param entry;
    memset(&entry, 0, sizeof entry);
    entry.ino = FILE_INODE;
    entry.attr_timeout = TIMEOUT;
    entry.entry_timeout = TIMEOUT;
    attributes_of(FILE_INODE, &entry.attr);
    fuse_reply_entry(req, &entry);
}

static void do_getattr(fuse_req_t req, fuse_ino_t inode, struct fuse_file_info *fi) {
    struct stat st;
    attributes_of(inode, &st);
    fuse_reply_attr(req, &st, TIMEOUT);
}

static int resize(size_t size) {
    if (size > capacity) {
        size_t wanted = size * 2;
        char *grown = realloc(contents, wanted);
        if (!grown) return ENOMEM;
        contents = grown;
        capacity = wanted;
    }
    if (size > length) memset(contents + length, 0, size - length);
    length = size;
    return 0;
}

static void do_setattr(fuse_req_t req, fuse_ino_t inode, struct stat *attr, int to_set, struct fuse_file_info *fi) {
    if (to_set & FUSE_SET_ATTR_SIZE) {
        int error = resize((size_t)attr->st_size);
        if (error) { fuse_reply_err(req, error); return; }
        dirty = 1;
    }
    struct stat st;
    attributes_of(inode, &st);
    fuse_reply_attr(req, &st, TIMEOUT);
}

static void do_open(fuse_req_t req, fuse_ino_t inode, struct fuse_file_info *fi) {
    if (inode != FILE_INODE) { fuse_reply_err(req, EISDIR); return; }
    if (fi->flags & O_TRUNC) { length = 0; dirty = 1; }
    fuse_reply_open(req, fi);
}

static void do_write(fuse_req_t req, fuse_ino_t inode, const char *bytes, size_t size, off_t offset, struct fuse_file_info *fi) {
    size_t end = (size_t)offset + size;
    if (end > length) {
        int error = resize(end);
        if (error) { fuse_reply_err(req, error); return; }
    }
    memcpy(contents + offset, bytes, size);
    dirty = 1;
    fuse_reply_write(req, size);
}

/* The durable write of a document: temporary file, fsync, rename over BACKING/document, folder fsync.
 * Returns 0 or the errno of the call that failed. */
static int save_document(void) {
    char temporary[4096], final[4096];
    if (snprintf(temporary, sizeof temporary, "%s/.document.tmp", backing) >= (int)sizeof temporary) return ENAMETOOLONG;
    if (snprintf(final, sizeof final, "%s/document", backing) >= (int)sizeof final) return ENAMETOOLONG;
    size_t head = length < document_bytes ? length : document_bytes;
    memcpy(document, contents, head);
    memset(document + head, (int)(saves & 0xff), document_bytes - head);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return errno;
    size_t written = 0;
    while (written < document_bytes) {
        ssize_t wrote = write(fd, document + written, document_bytes - written);
        if (wrote < 0) { int error = errno; close(fd); return error; }
        written += (size_t)wrote;
    }
    if (fsync(fd) != 0) { int error = errno; close(fd); return error; }
    if (close(fd) != 0) return errno;
    if (rename(temporary, final) != 0) return errno;
    int folder = open(backing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) return errno;
    if (fsync(folder) != 0) { int error = errno; close(folder); return error; }
    if (close(folder) != 0) return errno;
    saves++;
    return 0;
}

static void do_flush(fuse_req_t req, fuse_ino_t inode, struct fuse_file_info *fi) {
    int error = 0;
    if (dirty) {
        error = save_document();
        if (!error) dirty = 0;
    }
    fuse_reply_err(req, error);
}

static void do_release(fuse_req_t req, fuse_ino_t inode, struct fuse_file_info *fi) {
    fuse_reply_err(req, 0);
}

static void do_getxattr(fuse_req_t req, fuse_ino_t inode, const char *name, size_t size) {
    fuse_reply_err(req, ENODATA);
}

static const struct fuse_lowlevel_ops operations = {
    .lookup = do_lookup,
    .getattr = do_getattr,
    .setattr = do_setattr,
    .open = do_open,
    .write = do_write,
    .flush = do_flush,
    .release = do_release,
    .getxattr = do_getxattr,
};

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: fuse-save-floor BACKING DOCUMENT_BYTES MOUNTPOINT\n");
        return 2;
    }
    backing = argv[1];
    char *end = NULL;
    document_bytes = strtoul(argv[2], &end, 10);
    if (!end || *end || document_bytes == 0 || document_bytes > (64u << 20)) {
        fprintf(stderr, "fuse-save-floor: DOCUMENT_BYTES must be a size from 1 to 64 MiB: %s\n", argv[2]);
        return 2;
    }
    document = malloc(document_bytes);
    if (!document) { perror("fuse-save-floor: malloc"); return 1; }
    char *args_list[] = { argv[0], "-o", "default_permissions,fsname=fuse-save-floor", NULL };
    struct fuse_args args = FUSE_ARGS_INIT(3, args_list);
    struct fuse_session *session = fuse_session_new(&args, &operations, sizeof operations, NULL);
    if (!session) { fprintf(stderr, "fuse-save-floor: fuse_session_new failed\n"); return 1; }
    if (fuse_set_signal_handlers(session) != 0) { fprintf(stderr, "fuse-save-floor: signal handlers\n"); return 1; }
    if (fuse_session_mount(session, argv[3]) != 0) { fprintf(stderr, "fuse-save-floor: cannot mount %s\n", argv[3]); return 1; }
    int result = fuse_session_loop(session);
    fuse_session_unmount(session);
    fuse_remove_signal_handlers(session);
    fuse_session_destroy(session);
    return result < 0 ? 1 : 0;
}
