#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>
#include "linux_calls.h"

int minutafs_renameat2(int old_directory, const char *old_path, int new_directory, const char *new_path, unsigned int flags) {
    return (int)syscall(SYS_renameat2, old_directory, old_path, new_directory, new_path, flags);
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int minutafs_malloc_trim(unsigned long pad) {
#if defined(__GLIBC__)
    return malloc_trim(pad);
#else
    (void)pad;
    return 0;
#endif
}

#include <sys/eventfd.h>

int minutafs_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}


#include <sys/resource.h>

int minutafs_lower_thread_priority(int niceness) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), niceness);
}

int minutafs_is_thread_group_leader(int thread_id) {
    if (thread_id <= 0) return 0;
#ifdef SYS_pidfd_open
    long descriptor = syscall(SYS_pidfd_open, thread_id, 0);
    if (descriptor < 0) return 0;
    close((int)descriptor);
    return 1;
#else
    return 0;
#endif
}
