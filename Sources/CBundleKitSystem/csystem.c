#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <unistd.h>
#include "csystem.h"

int bundlekit_syncfs(int descriptor) {
#if defined(__linux__)
  return syncfs(descriptor);
#else
  return fsync(descriptor);
#endif
}

void bundlekit_start_writeback(int descriptor) {
#if defined(__linux__)
  (void)sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
  (void)descriptor;
#endif
}
