#ifndef BUNDLEKIT_CLIBXML2_SHIM_H
#define BUNDLEKIT_CLIBXML2_SHIM_H

// Debian builds libxml2 with ICU, whose headers clash with Foundation's bundled ICU module.
// We use no ICU-specific API (only pointers to encoding handlers), so hide it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

#endif
