#include "cli/secret_guess.h"

#include <string.h>
#include <strings.h>
#include <zxcvbn.h>

/* Pulumi's key pattern, case-insensitive: passwd|pass|password|pwd|secret|
 * token ("pass" covers "passwd" and "password"). */
static int names_a_secret(const char *name) {
  static const char *const words[] = {"pass", "pwd", "secret", "token"};
  size_t n = strlen(name);
  for (size_t i = 0; i < n; i++)
    for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
      if (!strncasecmp(name + i, words[w], strlen(words[w]))) return 1;
  return 0;
}

int mp_cli_looks_like_secret(const char *key, const char *value) {
  const char *colon = strchr(key, ':');
  if (!names_a_secret(colon ? colon + 1 : key) || !*value) return 0;
  /* only the first 16 bytes are weighed, as Pulumi does */
  char head[17];
  size_t n = strlen(value);
  if (n > 16) n = 16;
  memcpy(head, value, n);
  head[n] = 0;
  double bits = ZxcvbnMatch(head, NULL, NULL);
  return bits >= 80.0 || (bits >= 40.0 && bits / (double)n >= 3.0);
}
