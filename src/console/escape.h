/* Escaping for what the console sends: every name, value and message it
 * shows comes from a stack and is hostile input (a resource named
 * `<script>`, a tag holding `"`). */
#ifndef MP_CONSOLE_ESCAPE_H
#define MP_CONSOLE_ESCAPE_H

#include <cjson/cJSON.h>

#include "engine/mem.h"

/* Appends |s| as HTML text or a quoted attribute value: & < > " ' become
 * character references. NULL appends nothing. */
void mp_html_put(mp_buf *b, const char *s);
/* Appends |s| percent-encoded for one URL path segment or query value:
 * every byte but A-Z a-z 0-9 - . _ ~ becomes %XX. */
void mp_url_put(mp_buf *b, const char *s);
/* |j| as JSON text (owned) in which <, > and & are written as \u003c,
 * \u003e and \u0026, so that no value can close a tag of a page that
 * embeds it. Outside strings JSON has none of the three, so the
 * substitution changes only strings, and keeps their meaning. */
char *mp_json_text(const cJSON *j, size_t *len);

#endif
