#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <unistd.h>
#include "csystem.h"

int bundlekit_syncfs(int descriptor) {
#if defined(__linux__)
  return syncfs(descriptor);
#else
  return fsync(descriptor);
#endif
}
