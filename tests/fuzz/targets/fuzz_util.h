/* What the libFuzzer targets share: the input as a C string, a scratch
 * folder, a CLI context that prints nowhere, the fuzz passphrase, and a
 * check that stops the run with a message when an invariant fails. */
#ifndef MP_FUZZ_UTIL_H
#define MP_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cli/ctx.h"
#include "engine/crypto.h"

/* The entry point every target defines (libFuzzer's main calls it). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A copy of data[0..size) with a NUL after it (owned). */
char *fuzz_cstring(const uint8_t *data, size_t size);

/* A private folder for this process, made once and removed at exit. */
const char *fuzz_dir(void);
/* Writes data[0..size) to |name| in fuzz_dir(); returns its path (owned). */
char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);

/* A CLI context of project "proj" in fuzz_dir(), both streams discarded. */
mp_ctx *fuzz_cli_ctx(void);

/* The manager of the fuzz salt and passphrase (FUZZ_SALT, "fuzz"), its key
 * derived once. The corpus's secrets are encrypted with it. */
#define FUZZ_SALT \
  "v1:ozjXe2eLaVI=:v1:KnIRtsazik0FlBSh:jVspY5c6HVSPAU35qtOLL0hB3fgbdQ=="
mp_passphrase *fuzz_passphrase(void);

/* Aborts with |what| when |ok| is 0: a broken invariant is a crash. */
#define FUZZ_CHECK(ok, what) fuzz_check((ok), (what), __FILE__, __LINE__)
void fuzz_check(int ok, const char *what, const char *file, int line);

#endif
