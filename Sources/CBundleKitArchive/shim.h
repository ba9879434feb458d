#ifndef BUNDLEKIT_CARCHIVE_SHIM_H
#define BUNDLEKIT_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

#endif
