#ifndef BUNDLEKIT_CARCHIVE_SHIM_H
#define BUNDLEKIT_CARCHIVE_SHIM_H

// libarchive is loaded when BundleKit first reads or writes an archive, not when a process
// starts: linked, it and the libraries it links (libxml2 with ICU, nettle, lzma, zstd, lz4,
// bz2, acl) took every BundleKit process about 0.7 ms to load, `bump` and `--version` alike.
// The functions BundleKit calls are defined below as calls through pointers looked up in the
// library on first use (`dlopen`, `dlsym`). The functions that start an archive
// (`archive_read_new` ...) return NULL when the library or any function listed here is
// missing, as they do when libarchive cannot start one; `bundlekit_libarchive_missing` says
// which. Made from the prototypes in archive.h and archive_entry.h (libarchive 3.6): a
// function BundleKit starts calling needs its line in each list below.

#include "lazy_library.h"
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

// What BundleKit uses of archive.h and archive_entry.h (libarchive 3), declared here: the
// library's ABI, which its headers promise to keep. Building needs no libarchive headers.
struct archive;
struct archive_entry;
typedef int64_t la_int64_t;
typedef ssize_t la_ssize_t;
typedef la_ssize_t archive_write_callback(
    struct archive *archive, void *client_data, const void *buffer, size_t length);
typedef int archive_open_callback(struct archive *archive, void *client_data);
typedef int archive_close_callback(struct archive *archive, void *client_data);

#define ARCHIVE_EOF 1
#define ARCHIVE_OK 0
#define ARCHIVE_RETRY (-10)
#define ARCHIVE_WARN (-20)
#define ARCHIVE_FAILED (-25)
#define ARCHIVE_FATAL (-30)

#define ARCHIVE_EXTRACT_PERM (0x0002)
#define ARCHIVE_EXTRACT_TIME (0x0004)
#define ARCHIVE_EXTRACT_SECURE_SYMLINKS (0x0100)

#define ARCHIVE_READDISK_NO_XATTR (0x0010)
#define ARCHIVE_READDISK_NO_ACL (0x0020)
#define ARCHIVE_READDISK_NO_FFLAGS (0x0040)
#define ARCHIVE_READDISK_NO_SPARSE (0x0080)

#define AE_IFMT ((mode_t)0170000)
#define AE_IFREG ((mode_t)0100000)
#define AE_IFLNK ((mode_t)0120000)
#define AE_IFDIR ((mode_t)0040000)

// zlib, for gzip compressed on every core (ParallelGzip): deflate, crc32 and crc32_combine.
// Linked: it is small, and loads no other library.
#include <zlib.h>

/// The libarchive library, opened on first use; NULL when it cannot be.
static inline void *bundlekit_libarchive(void) {
  static void *library;
  static const char *const names[] = {
#if defined(__APPLE__)
    "libarchive.13.dylib", "/opt/homebrew/opt/libarchive/lib/libarchive.13.dylib",
    "/usr/local/opt/libarchive/lib/libarchive.13.dylib", "libarchive.2.dylib",
#else
    "libarchive.so.13", "libarchive.so",
#endif
  };
  return bundlekit_open_library(&library, names, sizeof names / sizeof *names);
}

/// NULL when libarchive and every function BundleKit calls in it are there; else the
/// library's name or the first function missing.
static inline const char *bundlekit_libarchive_missing(void) {
  static int complete;
  static const char *const functions[] = {
    "archive_entry_copy_sourcepath",
    "archive_entry_filetype",
    "archive_entry_free",
    "archive_entry_hardlink",
    "archive_entry_hardlink_utf8",
    "archive_entry_mtime",
    "archive_entry_new",
    "archive_entry_pathname",
    "archive_entry_pathname_utf8",
    "archive_entry_perm",
    "archive_entry_set_dev",
    "archive_entry_set_gid",
    "archive_entry_set_gname",
    "archive_entry_set_hardlink_utf8",
    "archive_entry_set_ino64",
    "archive_entry_set_mtime",
    "archive_entry_set_nlink",
    "archive_entry_set_pathname_utf8",
    "archive_entry_set_perm",
    "archive_entry_set_symlink_utf8",
    "archive_entry_set_uid",
    "archive_entry_set_uname",
    "archive_entry_size",
    "archive_entry_size_is_set",
    "archive_entry_symlink",
    "archive_entry_symlink_utf8",
    "archive_entry_unset_atime",
    "archive_entry_unset_birthtime",
    "archive_entry_unset_ctime",
    "archive_errno",
    "archive_error_string",
    "archive_read_data",
    "archive_read_data_block",
    "archive_read_disk_entry_from_file",
    "archive_read_disk_new",
    "archive_read_disk_set_behavior",
    "archive_read_free",
    "archive_read_new",
    "archive_read_next_header",
    "archive_read_open_filename",
    "archive_read_open_memory",
    "archive_read_support_filter_all",
    "archive_read_support_format_all",
    "archive_write_add_filter_bzip2",
    "archive_write_add_filter_gzip",
    "archive_write_add_filter_xz",
    "archive_write_add_filter_zstd",
    "archive_write_close",
    "archive_write_data",
    "archive_write_data_block",
    "archive_write_disk_new",
    "archive_write_disk_set_options",
    "archive_write_finish_entry",
    "archive_write_free",
    "archive_write_header",
    "archive_write_new",
    "archive_write_open",
    "archive_write_open_fd",
    "archive_write_set_bytes_in_last_block",
    "archive_write_set_format_7zip",
    "archive_write_set_format_cpio_newc",
    "archive_write_set_format_pax_restricted",
    "archive_write_set_format_zip",
    "archive_write_set_options"
  };
  return bundlekit_missing_function(
      bundlekit_libarchive(),
#if defined(__APPLE__)
      "libarchive.13.dylib",
#else
      "libarchive.so.13",
#endif
      &complete, functions, sizeof functions / sizeof *functions);
}

#define BUNDLEKIT_LIBARCHIVE_CALL(result, name, parameters, arguments) \
  BUNDLEKIT_LAZY_CALL(bundlekit_libarchive, result, name, parameters, arguments)
#define BUNDLEKIT_LIBARCHIVE_VOID(name, parameters, arguments) \
  BUNDLEKIT_LAZY_VOID(bundlekit_libarchive, name, parameters, arguments)
#define BUNDLEKIT_LIBARCHIVE_START(result, name, parameters, arguments) \
  BUNDLEKIT_LAZY_START( \
      bundlekit_libarchive, bundlekit_libarchive_missing, NULL, result, name, parameters, \
      arguments)

BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_copy_sourcepath, (struct archive_entry *p0, const char *p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_CALL(mode_t, archive_entry_filetype, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_free, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(const char *, archive_entry_hardlink, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(const char *, archive_entry_hardlink_utf8, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(time_t, archive_entry_mtime, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_START(struct archive_entry *, archive_entry_new, (void), ())
BUNDLEKIT_LIBARCHIVE_CALL(const char *, archive_entry_pathname, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(const char *, archive_entry_pathname_utf8, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(mode_t, archive_entry_perm, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_dev, (struct archive_entry *p0, dev_t p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_gid, (struct archive_entry *p0, la_int64_t p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_gname, (struct archive_entry *p0, const char *p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_hardlink_utf8, (struct archive_entry *p0, const char *p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_ino64, (struct archive_entry *p0, la_int64_t p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_mtime, (struct archive_entry *p0, time_t p1, long p2), (p0, p1, p2))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_nlink, (struct archive_entry *p0, unsigned int p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_pathname_utf8, (struct archive_entry *p0, const char *p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_perm, (struct archive_entry *p0, mode_t p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_symlink_utf8, (struct archive_entry *p0, const char *p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_uid, (struct archive_entry *p0, la_int64_t p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_set_uname, (struct archive_entry *p0, const char *p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_CALL(la_int64_t, archive_entry_size, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_entry_size_is_set, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(const char *, archive_entry_symlink, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(const char *, archive_entry_symlink_utf8, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_unset_atime, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_unset_birthtime, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_VOID(archive_entry_unset_ctime, (struct archive_entry *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_errno, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(const char *, archive_error_string, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(la_ssize_t, archive_read_data, (struct archive *p0, void *p1, size_t p2), (p0, p1, p2))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_data_block, (struct archive *p0, const void **p1, size_t *p2, la_int64_t *p3), (p0, p1, p2, p3))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_disk_entry_from_file, (struct archive *p0, struct archive_entry *p1, int p2, const struct stat *p3), (p0, p1, p2, p3))
BUNDLEKIT_LIBARCHIVE_START(struct archive *, archive_read_disk_new, (void), ())
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_disk_set_behavior, (struct archive *p0, int p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_free, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_START(struct archive *, archive_read_new, (void), ())
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_next_header, (struct archive *p0, struct archive_entry **p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_open_filename, (struct archive *p0, const char *p1, size_t p2), (p0, p1, p2))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_open_memory, (struct archive *p0, const void *p1, size_t p2), (p0, p1, p2))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_support_filter_all, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_read_support_format_all, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_add_filter_bzip2, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_add_filter_gzip, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_add_filter_xz, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_add_filter_zstd, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_close, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(la_ssize_t, archive_write_data, (struct archive *p0, const void *p1, size_t p2), (p0, p1, p2))
BUNDLEKIT_LIBARCHIVE_CALL(la_ssize_t, archive_write_data_block, (struct archive *p0, const void *p1, size_t p2, la_int64_t p3), (p0, p1, p2, p3))
BUNDLEKIT_LIBARCHIVE_START(struct archive *, archive_write_disk_new, (void), ())
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_disk_set_options, (struct archive *p0, int p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_finish_entry, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_free, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_header, (struct archive *p0, struct archive_entry *p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_START(struct archive *, archive_write_new, (void), ())
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_open, (struct archive *p0, void *p1, archive_open_callback *p2, archive_write_callback *p3, archive_close_callback *p4), (p0, p1, p2, p3, p4))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_open_fd, (struct archive *p0, int p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_set_bytes_in_last_block, (struct archive *p0, int p1), (p0, p1))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_set_format_7zip, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_set_format_cpio_newc, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_set_format_pax_restricted, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_set_format_zip, (struct archive *p0), (p0))
BUNDLEKIT_LIBARCHIVE_CALL(int, archive_write_set_options, (struct archive *p0, const char *p1), (p0, p1))

#endif
