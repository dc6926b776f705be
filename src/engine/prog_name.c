#include "engine/prog_name.h"

#include <string.h>

/* Written once by main before any other thread starts, then only read. */
static char name[64] = "minipulumi";

void mp_prog_name_set(const char *argv0) {
  if (argv0 == NULL) return;
  const char *base = strrchr(argv0, '/');
  base = base ? base + 1 : argv0;
  size_t n = strlen(base);
  /* an empty or absurdly long name is no command to show: keep the default */
  if (n == 0 || n >= sizeof(name)) return;
  memcpy(name, base, n + 1);
}

const char *mp_prog_name(void) { return name; }
