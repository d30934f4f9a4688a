#ifndef MINUTAFS_CZLIB_SHIM_H
#define MINUTAFS_CZLIB_SHIM_H
#include <zlib.h>
#endif
