#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#include "csystem.h"

int bundlekit_syncfs(int descriptor) {
#if defined(__linux__)
  return syncfs(descriptor);
#else
  return fsync(descriptor);
#endif
}

int bundlekit_exchange(const char *first, const char *second) {
#if defined(__linux__) && defined(SYS_renameat2)
  // RENAME_EXCHANGE is 2; glibc before 2.28 has no wrapper, the system call always works.
  return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2);
#elif defined(__APPLE__)
  return renamex_np(first, second, RENAME_SWAP);
#else
  (void)first;
  (void)second;
  errno = ENOSYS;
  return -1;
#endif
}
