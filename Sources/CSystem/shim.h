// libc calls that Glibc's Swift module does not import (they need _GNU_SOURCE), as static inline wrappers
// prefixed `csystem_`.
#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

// Atomically swaps the names `from` and `to` (both must exist): renameat2(2) with RENAME_EXCHANGE. -1 and errno
// EINVAL or ENOSYS where the file system or kernel cannot.
static inline int csystem_rename_exchange(const char *from, const char *to) {
#ifdef RENAME_EXCHANGE
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// Renames `from` to `to` only if nothing (not even a dangling symlink) is at `to`: renameat2(2) with
// RENAME_NOREPLACE. -1 and errno EEXIST when something is; EINVAL or ENOSYS where the file system or kernel cannot.
static inline int csystem_rename_noreplace(const char *from, const char *to) {
#ifdef RENAME_NOREPLACE
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

// setxattr(2), declared here: <sys/xattr.h> under _GNU_SOURCE clashes with Glibc's Swift module.
extern int setxattr(const char *path, const char *name, const void *value, size_t size, int flags);

// Sets the extended attribute `name` of `path` (following a symlink) to the `length` bytes at `value`.
static inline int csystem_set_attribute(const char *path, const char *name, const char *value, size_t length) {
    return setxattr(path, name, value, length, 0);
}

#endif
