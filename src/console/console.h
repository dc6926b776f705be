/* `minipulumi console`: a read-only web console of every stack of a state
 * store, served on this machine (docs/console.md). The CLI opens the store
 * and hands it here; the server answers on the calling thread
 * (libmicrohttpd's external polling), so the store is used by that thread
 * only, and it never takes a stack's lock. */
#ifndef MP_CONSOLE_H
#define MP_CONSOLE_H

#include <signal.h>
#include <stdio.h>

#include "engine/err.h"
#include "engine/value.h"
#include "state/store.h"

/* Where the pages' data comes from: the store, and the secrets policy. */
typedef struct mp_console_src {
  mp_store *store;
  /* --show-secrets: secrets are decrypted and shown. Otherwise the
   * snapshot is read with its ciphertext kept (no key is ever needed) and
   * every secret is shown as "[secret]". */
  int show_secrets;
  /* With show_secrets: the crypter of the stack's secrets manager (the
   * CLI's passphrase), or an error. */
  int (*crypter_for)(void *arg, mp_stack_ref st, mp_crypter *out, mp_err *err);
  void *crypter_arg;
} mp_console_src;

typedef struct mp_console_opts {
  mp_console_src src;
  const char *host; /* the address to listen on; NULL: 127.0.0.1 */
  unsigned port;    /* 0: a free port the system picks */
  /* Set (by a signal handler) to stop serving. */
  volatile sig_atomic_t *interrupt;
} mp_console_opts;

typedef struct mp_console mp_console;

/* Listens as |o| says (the options are borrowed until mp_console_free) and
 * makes the token. Sets *out. */
int mp_console_start(const mp_console_opts *o, mp_console **out, mp_err *err);
/* The URL of |path| ("/" or a page's) with the token, as printed: owned. */
char *mp_console_url(const mp_console *c, const char *path);
/* The path of the stack's page (owned), for mp_console_url. */
char *mp_console_stack_path(const char *project, const char *stack);
/* Serves until *interrupt is set. */
void mp_console_run(mp_console *c);
void mp_console_free(mp_console *c);

#endif
