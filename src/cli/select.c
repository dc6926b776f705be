/* A choice among a few options on a terminal, drawn as Pulumi's prompts
 * draw it (the survey library's Select, with Pulumi's icons: no question
 * mark, '>' on the focused option): the arrow keys move, typing filters
 * the options (so a typed "yes" and Enter still answers), Enter chooses,
 * and the question is left with its answer once chosen. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli/messages.h"

/* Whether |opt| contains |filter|, ignoring case (survey's filter). */
static int matches(const char *opt, const char *filter) {
  size_t n = strlen(filter);
  for (const char *p = opt; n && *p; p++)
    if (strncasecmp(p, filter, n) == 0) return 1;
  return n == 0;
}

typedef struct menu {
  FILE *out;
  const char *const *options;
  size_t n, cursor, drawn;
  size_t *shown, nshown; /* indexes into options that pass the filter */
  char filter[64];
} menu;

static void refilter(menu *m) {
  m->nshown = 0;
  for (size_t i = 0; i < m->n; i++)
    if (matches(m->options[i], m->filter)) m->shown[m->nshown++] = i;
  if (m->cursor >= m->nshown) m->cursor = m->nshown ? m->nshown - 1 : 0;
}

static void erase(menu *m) {
  if (m->drawn) fprintf(m->out, "\x1b[%zuA", m->drawn);
  fputs("\r\x1b[J", m->out);
  m->drawn = 0;
}

static void draw(menu *m) {
  erase(m);
  for (size_t i = 0; i < m->nshown; i++)
    fprintf(m->out, "%s%s\n", i == m->cursor ? "> " : "  ",
            m->options[m->shown[i]]);
  m->drawn = m->nshown;
  fflush(m->out);
}

enum { KEY_UP = -1, KEY_DOWN = -2, KEY_QUIT = -3 };

/* One key: KEY_UP, KEY_DOWN, '\r' for Enter, '\b', KEY_QUIT (Ctrl-C,
 * Ctrl-D, end of input), a printable character, or 0 (ignored). */
static int read_key(void) {
  unsigned char c;
  if (read(STDIN_FILENO, &c, 1) != 1) return KEY_QUIT;
  if (c == 3 || c == 4) return KEY_QUIT; /* Ctrl-C, Ctrl-D */
  if (c == '\r' || c == '\n') return '\r';
  if (c == 127 || c == 8) return '\b';
  if (c != 27) return isprint(c) ? c : 0;
  unsigned char seq[2];
  if (read(STDIN_FILENO, &seq[0], 1) != 1 || (seq[0] != '[' && seq[0] != 'O'))
    return 0;
  if (read(STDIN_FILENO, &seq[1], 1) != 1) return KEY_QUIT;
  return seq[1] == 'A' ? KEY_UP : seq[1] == 'B' ? KEY_DOWN : 0;
}

int mp_cli_select(mp_ctx *ctx, const char *message, const char *const *options,
                  size_t n, size_t def, size_t *choice) {
  struct termios old, raw;
  if (tcgetattr(STDIN_FILENO, &old) != 0) return -1;
  raw = old;
  raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  tcsetattr(STDIN_FILENO, TCSANOW, &raw);
  menu m = {ctx->out, options, n, def < n ? def : 0, 0, NULL, 0, ""};
  m.shown = mp_xcalloc(n ? n : 1, sizeof(*m.shown));
  refilter(&m);
  fprintf(m.out, "\x1b[?25l%s  [Use arrows to move, type to filter]\n",
          message);
  draw(&m);
  int rc = -1;
  for (;;) {
    int k = read_key();
    size_t len = strlen(m.filter);
    if (k == KEY_QUIT || ctx->interrupt) break;
    if (k == '\r' && m.nshown) {
      *choice = m.shown[m.cursor];
      rc = 0;
      break;
    }
    /* the arrows wrap around, as survey's */
    if (k == KEY_UP) m.cursor = m.cursor ? m.cursor - 1 : (m.nshown ? m.nshown - 1 : 0);
    else if (k == KEY_DOWN) m.cursor = m.cursor + 1 < m.nshown ? m.cursor + 1 : 0;
    else if (k == '\b' && len) m.filter[len - 1] = '\0';
    else if (k > ' ' && k < 127 && len + 1 < sizeof(m.filter)) {
      m.filter[len] = (char)k;
      m.filter[len + 1] = '\0';
      m.cursor = 0;
    } else continue;
    refilter(&m);
    draw(&m);
  }
  /* leave the question with its answer, as survey does */
  erase(&m);
  fprintf(m.out, "\x1b[1A\r\x1b[J%s %s\n\x1b[?25h", message,
          rc == 0 ? options[*choice] : "");
  fflush(m.out);
  tcsetattr(STDIN_FILENO, TCSANOW, &old);
  free(m.shown);
  return rc;
}
