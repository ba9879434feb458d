#ifndef BUNDLEKIT_CSYSTEM_H
#define BUNDLEKIT_CSYSTEM_H

/// Flushes the file system holding `descriptor` to disk: `syncfs` on Linux (one call for a
/// batch of files instead of an fsync each), `fsync` elsewhere. Returns 0 on success.
int bundlekit_syncfs(int descriptor);

#endif
