#ifndef BUNDLEKIT_CLIBXML2_SHIM_H
#define BUNDLEKIT_CLIBXML2_SHIM_H

// libxml2 is loaded when a document first needs it (one the plain property list reader leaves
// to it: a DTD with entities, an encoding other than UTF-8), not when a process starts:
// linked, it and ICU, which it links, took every BundleKit process a part of a millisecond to
// load. The functions BundleKit calls are defined below as calls through pointers looked up in
// the library on first use (lazy_library.h, beside CBundleKitArchive's shim), as for
// libarchive. Parsing starts
// with `xmlCreatePushParserCtxt`, which returns NULL when the library or a function listed
// here is missing; `bundlekit_libxml2_missing` says which.

#include "../CBundleKitArchive/lazy_library.h"
#include <stddef.h>

// What BundleKit uses of libxml2's headers (parser.h, SAX2.h, xmlerror.h), declared here: the
// library's ABI, which 2.x keeps (the SAX2 handler and the error record). Building needs no
// libxml2 headers.
typedef unsigned char xmlChar;
typedef struct _xmlParserCtxt *xmlParserCtxtPtr;
typedef struct _xmlEntity *xmlEntityPtr;

typedef enum {
  XML_ERR_NONE = 0,
  XML_ERR_WARNING = 1,
  XML_ERR_ERROR = 2,
  XML_ERR_FATAL = 3
} xmlErrorLevel;

typedef struct _xmlError {
  int domain;
  int code;
  char *message;
  xmlErrorLevel level;
  char *file;
  int line;
  char *str1;
  char *str2;
  char *str3;
  int int1;
  /// The column, or 0.
  int int2;
  void *ctxt;
  void *node;
} xmlError;
typedef xmlError *xmlErrorPtr;

typedef enum {
  XML_PARSE_NONET = 1 << 11,
  XML_PARSE_HUGE = 1 << 19
} xmlParserOption;

#define XML_SAX2_MAGIC 0xDEEDBEAF

typedef xmlEntityPtr (*getEntitySAXFunc)(void *ctx, const xmlChar *name);
typedef void (*referenceSAXFunc)(void *ctx, const xmlChar *name);
typedef void (*charactersSAXFunc)(void *ctx, const xmlChar *ch, int len);
typedef void (*startElementNsSAX2Func)(
    void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI,
    int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
    const xmlChar **attributes);
typedef void (*endElementNsSAX2Func)(
    void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI);
typedef void (*xmlStructuredErrorFunc)(void *userData, xmlErrorPtr error);

/// libxml2's `struct _xmlSAXHandler`, field for field; the callbacks BundleKit never sets are
/// plain pointers.
typedef struct _xmlSAXHandler {
  void *internalSubset;
  void *isStandalone;
  void *hasInternalSubset;
  void *hasExternalSubset;
  void *resolveEntity;
  getEntitySAXFunc getEntity;
  void *entityDecl;
  void *notationDecl;
  void *attributeDecl;
  void *elementDecl;
  void *unparsedEntityDecl;
  void *setDocumentLocator;
  void *startDocument;
  void *endDocument;
  void *startElement;
  void *endElement;
  referenceSAXFunc reference;
  charactersSAXFunc characters;
  void *ignorableWhitespace;
  void *processingInstruction;
  void *comment;
  void *warning;
  void *error;
  void *fatalError;
  void *getParameterEntity;
  charactersSAXFunc cdataBlock;
  void *externalSubset;
  unsigned int initialized;
  void *_private;
  startElementNsSAX2Func startElementNs;
  endElementNsSAX2Func endElementNs;
  xmlStructuredErrorFunc serror;
} xmlSAXHandler;
typedef xmlSAXHandler *xmlSAXHandlerPtr;

/// The libxml2 library, opened on first use; NULL when it cannot be.
static inline void *bundlekit_libxml2(void) {
  static void *library;
  static const char *const names[] = {
#if defined(__APPLE__)
    "libxml2.2.dylib", "libxml2.dylib",
#else
    "libxml2.so.2", "libxml2.so",
#endif
  };
  return bundlekit_open_library(&library, names, sizeof names / sizeof *names);
}

/// NULL when libxml2 and every function BundleKit calls in it are there; else the library's
/// name or the first function missing.
static inline const char *bundlekit_libxml2_missing(void) {
  static int complete;
  static const char *const functions[] = {
    "xmlCreatePushParserCtxt", "xmlCtxtUseOptions", "xmlFreeParserCtxt", "xmlInitParser",
    "xmlParseChunk", "xmlSAX2GetColumnNumber", "xmlSAX2GetLineNumber", "xmlStopParser",
  };
  return bundlekit_missing_function(
      bundlekit_libxml2(),
#if defined(__APPLE__)
      "libxml2.2.dylib",
#else
      "libxml2.so.2",
#endif
      &complete, functions, sizeof functions / sizeof *functions);
}

/// Sets the library up, when it is there (nothing otherwise: the parser then cannot start).
static inline void xmlInitParser(void) {
  if (bundlekit_libxml2_missing()) return;
  BUNDLEKIT_LAZY_RESOLVED(bundlekit_libxml2, void, xmlInitParser, (void))
  resolved();
}

// Starts a parser: NULL when libxml2 is not all there, as when it cannot start one.
BUNDLEKIT_LAZY_START(
    bundlekit_libxml2, bundlekit_libxml2_missing, NULL, xmlParserCtxtPtr,
    xmlCreatePushParserCtxt,
    (xmlSAXHandlerPtr p0, void *p1, const char *p2, int p3, const char *p4),
    (p0, p1, p2, p3, p4))
BUNDLEKIT_LAZY_CALL(bundlekit_libxml2, int, xmlCtxtUseOptions, (xmlParserCtxtPtr p0, int p1), (p0, p1))
BUNDLEKIT_LAZY_VOID(bundlekit_libxml2, xmlFreeParserCtxt, (xmlParserCtxtPtr p0), (p0))
BUNDLEKIT_LAZY_CALL(
    bundlekit_libxml2, int, xmlParseChunk, (xmlParserCtxtPtr p0, const char *p1, int p2, int p3),
    (p0, p1, p2, p3))
// Declared by libxml2 on `void *`: on the parser, which is what it is passed.
BUNDLEKIT_LAZY_CALL(bundlekit_libxml2, int, xmlSAX2GetColumnNumber, (xmlParserCtxtPtr p0), (p0))
BUNDLEKIT_LAZY_CALL(bundlekit_libxml2, int, xmlSAX2GetLineNumber, (xmlParserCtxtPtr p0), (p0))
BUNDLEKIT_LAZY_VOID(bundlekit_libxml2, xmlStopParser, (xmlParserCtxtPtr p0), (p0))

#endif
