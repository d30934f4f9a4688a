#ifndef MINUTAFS_LINUX_CALLS_H
#define MINUTAFS_LINUX_CALLS_H

/// Linux system calls that Swift's Glibc module does not declare.

/// `renameat2(2)` flags.
static const unsigned int minutafs_rename_noreplace = 1u << 0;
static const unsigned int minutafs_rename_exchange = 1u << 1;

/// `renameat2(2)`: -1 with errno set on failure (ENOSYS or EINVAL where the kernel or file system
/// does not support the flags).
int minutafs_renameat2(int old_directory, const char *old_path, int new_directory, const char *new_path, unsigned int flags);

/// glibc's `malloc_trim(3)` (declared in <malloc.h>, which Swift's Glibc module leaves out): returns
/// free heap pages to the system; 1 if memory was released. 0 where the C library has no such call.
int minutafs_malloc_trim(unsigned long pad);

/// `eventfd(2)` with `EFD_CLOEXEC | EFD_NONBLOCK`, starting at 0 (<sys/eventfd.h> is not in Swift's
/// Glibc module): -1 with errno set on failure.
int minutafs_eventfd(void);

/// Sets the calling thread's nice value (Linux keeps one per thread): only upwards, a lower priority,
/// for an unprivileged process. -1 with errno set on failure.
int minutafs_lower_thread_priority(int niceness);

/// Whether thread `thread_id` leads its thread group (its id is the process id `ps` shows), asked with
/// `pidfd_open(2)`, which opens only a thread that does (any other fails: with EINVAL, or with ENOENT
/// on Linux 6.18): 1 if it leads it; 0 if it does not, or when it cannot be told (no such thread, a
/// kernel without `pidfd_open`, no descriptor left).
int minutafs_is_thread_group_leader(int thread_id);

#endif
