/* Who may read the console (docs/console.md, "Security"): a request must
 * name this machine in its Host header (DNS rebinding: a page of another
 * site whose name was made to point at 127.0.0.1 sends its own name) and
 * carry the console's random token, in the URL once and then in a cookie,
 * as Jupyter does. */
#ifndef MP_CONSOLE_GUARD_H
#define MP_CONSOLE_GUARD_H

#include <stddef.h>

#include "engine/err.h"

/* 64 hex digits from the kernel's random source, into |out| (65 bytes). */
int mp_console_token_new(char out[65], mp_err *err);
/* 1 if |given| is |token|, compared in constant time. NULL: 0. */
int mp_console_token_equal(const char *token, const char *given);
/* 1 if the Host header |host| (NULL: 0) is one the console answers:
 * `localhost`, an IP address (a name rebinding cannot forge), or the
 * |listen| address given by --host; with a port, that port must be |port|. */
int mp_console_host_ok(const char *host, const char *listen, unsigned port);
/* 1 if the numeric address |addr| is a loopback one (127.0.0.0/8, ::1). */
int mp_console_is_loopback(const char *addr);

#endif
