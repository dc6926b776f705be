/* What the console answers for a path (routes.c): a page, its JSON under
 * /api/, or a built-in asset. Knows nothing of HTTP's wire: the server
 * (server.c) hands it the decoded path and a way to read query
 * arguments. */
#ifndef MP_CONSOLE_ROUTES_H
#define MP_CONSOLE_ROUTES_H

#include <stddef.h>

#include "console/console.h"

typedef struct mp_reply {
  int status;
  const char *type; /* the Content-Type */
  char *body;       /* owned (malloc) */
  size_t len;
} mp_reply;

/* |arg| returns the decoded query argument |name|, or NULL. */
typedef const char *(*mp_query_fn)(void *ctx, const char *name);

void mp_console_route(const mp_console_src *src, const char *path,
                      mp_query_fn arg, void *arg_ctx, mp_reply *out);

#endif
