#ifndef MINUTAFS_CFUSE3_SHIM_H
#define MINUTAFS_CFUSE3_SHIM_H

// The libfuse API level minutafs is written against: 3.12 (Debian bookworm ships 3.14).
// It must be set before the first libfuse header.
#define FUSE_USE_VERSION 312

#include <fuse3/fuse_lowlevel.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#endif
