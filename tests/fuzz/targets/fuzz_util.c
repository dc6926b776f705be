/* Helpers of the libFuzzer targets (fuzz_util.h). State made once per
 * process lives in statics: libFuzzer calls the target many times in one
 * process, and deriving the passphrase's key takes ~0.1 s. */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fuzz_cstring(const uint8_t *data, size_t size) {
  char *s = mp_xmalloc(size + 1);
  if (size) memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

static char dir[64];

static void remove_dir(void) {
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "fuzz: cannot remove %s\n", dir);
}

/* In memory when the machine has /dev/shm: the config target saves a
 * file (with an fsync) on every input. */
const char *fuzz_dir(void) {
  if (dir[0] == '\0') {
    strcpy(dir, "/dev/shm/mp_fuzz_XXXXXX");
    if (mkdtemp(dir) == NULL) {
      strcpy(dir, "/tmp/mp_fuzz_XXXXXX");
      FUZZ_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    }
    atexit(remove_dir);
  }
  return dir;
}

char *fuzz_write_file(const char *name, const uint8_t *data, size_t size) {
  char *path = mp_xasprintf("%s/%s", fuzz_dir(), name);
  FILE *f = fopen(path, "wb");
  FUZZ_CHECK(f != NULL, "cannot create the input file");
  FUZZ_CHECK(fwrite(data, 1, size, f) == size, "cannot write the input file");
  fclose(f);
  return path;
}

mp_ctx *fuzz_cli_ctx(void) {
  static mp_ctx ctx;
  static mp_cli_project project;
  if (ctx.project == NULL) {
    FILE *null = fopen("/dev/null", "w");
    FUZZ_CHECK(null != NULL, "cannot open /dev/null");
    project.name = "proj";
    project.dir = fuzz_dir();
    project.program_dir = project.dir;
    project.runtime = "yaml";
    ctx.out = ctx.err = null;
    ctx.non_interactive = 1;
    ctx.project = &project;
  }
  return &ctx;
}

static mp_passphrase *pp;

static void free_passphrase(void) { mp_passphrase_free(pp); }

mp_passphrase *fuzz_passphrase(void) {
  if (pp == NULL) {
    mp_err err;
    FUZZ_CHECK(mp_passphrase_open(FUZZ_SALT, "fuzz", &pp, &err) == 0 &&
                   mp_passphrase_verify(pp, &err) == 0,
               "the fuzz passphrase does not open its salt");
    atexit(free_passphrase);
  }
  return pp;
}

void fuzz_check(int ok, const char *what, const char *file, int line) {
  if (ok) return;
  fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
  abort();
}
