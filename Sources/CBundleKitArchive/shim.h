#ifndef BUNDLEKIT_CARCHIVE_SHIM_H
#define BUNDLEKIT_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>
// zlib, for gzip compressed on every core (ParallelGzip): deflate, crc32 and crc32_combine.
#include <zlib.h>

#endif
