#ifndef BUNDLEKIT_CSYSTEM_H
#define BUNDLEKIT_CSYSTEM_H

/// Flushes the file system holding `descriptor` to disk: `syncfs` on Linux (one call for a
/// batch of files instead of an fsync each), `fsync` elsewhere. Returns 0 on success.
int bundlekit_syncfs(int descriptor);

/// Swaps the names `first` and `second` in one atomic step (`renameat2` with RENAME_EXCHANGE
/// on Linux, `renamex_np` with RENAME_SWAP on macOS). Returns 0, or -1 with errno set (EINVAL
/// or ENOSYS where the file system or system cannot).
int bundlekit_exchange(const char *first, const char *second);

#endif
