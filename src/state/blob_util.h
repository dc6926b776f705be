/* What the bucket backends of a DIY store share (s3_*.c, az_*.c): a URL's
 * query values, Go's booleans as gocloud parses them, percent-encoding,
 * libcurl's and libxml2's set-up and callbacks, and reading an XML
 * answer. */
#ifndef MP_BLOB_UTIL_H
#define MP_BLOB_UTIL_H

#include <stddef.h>

#include <libxml/tree.h>

#include "engine/err.h"
#include "engine/mem.h"

/* The first |n| bytes of a URL query value decoded (%XX and '+'). Owned. */
char *mp__url_unescape(const char *s, size_t n);
/* Go's strconv.ParseBool: 0 with *out set, or -1. */
int mp__go_parse_bool(const char *v, int *out);
/* |s| percent-encoded (RFC 3986 unreserved kept; '/' kept if
 * |keep_slash|). Owned. */
char *mp__url_encode(const char *s, int keep_slash);

/* libcurl's and libxml2's global set-up, once, before any thread uses
 * them. */
void mp__http_init(void);
/* A CURLOPT_WRITEFUNCTION appending to the mp_buf |ud|. */
/* The largest answer body kept (INT_MAX: libxml2 takes an int length); a
 * larger one ends the request (CURLE_FILESIZE_EXCEEDED when announced,
 * CURLE_WRITE_ERROR when it arrives), so a hostile server cannot fill
 * the memory. */
#define MP_BLOB_MAX_BODY ((size_t)2147483647)
size_t mp__http_on_body(char *p, size_t size, size_t n, void *ud);
/* If the header line |line| (|n| bytes) is |name| (any case), its value
 * trimmed into |out|. */
void mp__http_header(const char *line, size_t n, const char *name, char *out,
                     size_t cap);

/* 0, or an MP_EINVAL error naming |url| when the key prefix |prefix| has
 * a `.` or `..` segment: libcurl takes those out of a request's path
 * (RFC 3986), so `s3://state/../other` would reach the bucket `other`. */
int mp__prefix_check(const char *url, const char *prefix, mp_err *err);
/* |b| parsed as XML (no network, no messages), or NULL. */
xmlDoc *mp__xml_parse(const mp_buf *b);
/* The first element named |name| directly under |node|, or NULL. */
xmlNode *mp__xml_child(xmlNode *node, const char *name);
/* The text of |n| (owned), or NULL if |n| is NULL. */
char *mp__xml_text(xmlNode *n);

#endif
