#include "cli/shell_quote.h"

#include <string.h>

static void quote_whole(mp_buf *b, const char *w) {
  int open = 0;
  for (; *w; w++) {
    if (*w == '\'') {
      if (open) mp_buf_putc(b, '\'');
      open = 0;
      mp_buf_puts(b, "\\'");
      continue;
    }
    if (!open) mp_buf_putc(b, '\'');
    open = 1;
    mp_buf_putc(b, *w);
  }
  if (open) mp_buf_putc(b, '\'');
}

void mp_shell_quote(mp_buf *b, const char *word) {
  if (!*word) {
    mp_buf_puts(b, "''");
    return;
  }
  /* a blank reads better in quotes than escaped; a newline must be */
  if (strpbrk(word, " \t\n")) {
    quote_whole(b, word);
    return;
  }
  if (word[0] == '~') mp_buf_putc(b, '\\');
  for (const char *c = word; *c; c++) {
    if (strchr("\\'\"`${[|&;<>()*?!", *c)) mp_buf_putc(b, '\\');
    mp_buf_putc(b, *c);
  }
}
