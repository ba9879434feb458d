#ifndef BUNDLEKIT_LAZY_LIBRARY_H
#define BUNDLEKIT_LAZY_LIBRARY_H

// A C library loaded when first used rather than linked: the one mechanism behind
// CBundleKitArchive (libarchive) and CBundleKitLibXML2 (libxml2). A shim defines each function
// BundleKit calls, under the library's own name, as a call through a pointer looked up once
// (`dlsym`) in the library, opened once (`dlopen`). A function that starts the library's work
// (an archive, a parser) first checks that the library and every function the shim lists are
// there, and fails as the library itself fails to start one when not.

#include <dlfcn.h>
#include <stddef.h>

/// Opens the first of `names` that loads, once (kept in `*slot`); NULL when none does.
static inline void *bundlekit_open_library(
    void **slot, const char *const *names, size_t count) {
  void *opened = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  for (size_t index = 0; index < count && !opened; index++) {
    opened = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    if (opened) __atomic_store_n(slot, opened, __ATOMIC_RELEASE);
  }
  return opened;
}

/// NULL when `library` is open and has every one of `functions` (remembered in `*complete`);
/// else `name` (the library's) or the first function missing.
static inline const char *bundlekit_missing_function(
    void *library, const char *name, int *complete, const char *const *functions, size_t count) {
  if (__atomic_load_n(complete, __ATOMIC_ACQUIRE)) return NULL;
  if (!library) return name;
  for (size_t index = 0; index < count; index++) {
    if (!dlsym(library, functions[index])) return functions[index];
  }
  __atomic_store_n(complete, 1, __ATOMIC_RELEASE);
  return NULL;
}

/// Declares `resolved`, the function `name` of the library `open()` opens, looked up once.
#define BUNDLEKIT_LAZY_RESOLVED(open, result, name, parameters) \
  typedef result(*Function) parameters; \
  static Function function; \
  Function resolved = __atomic_load_n(&function, __ATOMIC_ACQUIRE); \
  if (!resolved) { \
    resolved = (Function)dlsym(open(), #name); \
    __atomic_store_n(&function, resolved, __ATOMIC_RELEASE); \
  }

/// A function called on what a start function made: the library is there.
#define BUNDLEKIT_LAZY_CALL(open, result, name, parameters, arguments) \
  static inline result name parameters { \
    BUNDLEKIT_LAZY_RESOLVED(open, result, name, parameters) \
    return resolved arguments; \
  }

/// The same, returning nothing.
#define BUNDLEKIT_LAZY_VOID(open, name, parameters, arguments) \
  static inline void name parameters { \
    BUNDLEKIT_LAZY_RESOLVED(open, void, name, parameters) \
    resolved arguments; \
  }

/// A function that starts the library's work: `failure` when `missing()` names something.
#define BUNDLEKIT_LAZY_START(open, missing, failure, result, name, parameters, arguments) \
  static inline result name parameters { \
    if (missing()) return failure; \
    BUNDLEKIT_LAZY_RESOLVED(open, result, name, parameters) \
    return resolved arguments; \
  }

#endif
