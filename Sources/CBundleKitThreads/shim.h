#ifndef BUNDLEKIT_CTHREADS_SHIM_H
#define BUNDLEKIT_CTHREADS_SHIM_H

// Where a worker thread starts (WorkerThreads.Placement): glibc's GNU calls, which Swift's
// Glibc module leaves out (it is built without _GNU_SOURCE). Declared here as glibc declares
// them; Linux only.
#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/types.h>

extern int sched_getcpu(void);
extern int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set);
extern int pthread_attr_setaffinity_np(pthread_attr_t *attributes, size_t size,
                                       const cpu_set_t *set);
extern int pthread_setaffinity_np(pthread_t thread, size_t size, const cpu_set_t *set);
#endif

#endif
