#include "cli/command_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command_table.h"
#include "cli/messages.h"

/* The --help page of the command |words| (|n| of them), or NULL. */
static char *page_of(mp_ctx *ctx, const mp_command *c, const char **words,
                     size_t n) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem) return NULL;
  const char **argv = mp_xcalloc(n + 2, sizeof(*argv));
  for (size_t i = 0; i < n; i++) argv[i] = words[i];
  argv[n] = "--help";
  FILE *out = ctx->out;
  ctx->out = mem;
  c->fn((int)n + 1, argv, ctx);
  ctx->out = out;
  fclose(mem);
  free(argv);
  return text;
}

/* Reads the subcommands and the flags of a help page. */
static void parse_page(const char *text, mp_cmd_node *node) {
  enum { NONE, SUBS, FLAGS } in = NONE;
  char *copy = mp_xstrdup(text), *save = NULL;
  for (char *line = strtok_r(copy, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    if (strncmp(line, "  ", 2)) {
      in = !strcmp(line, "Subcommands:") ? SUBS
           : (!strcmp(line, "Flags:") || !strcmp(line, "Global Flags:"))
               ? FLAGS
               : NONE;
      continue;
    }
    const char *w = line + 2;
    while (*w == ' ') w++;
    size_t wl = strcspn(w, " ,");
    if (in == SUBS) {
      char *name = mp_xstrndup(w, wl);
      mp_strv_push(&node->subs, name);
      free(name);
    } else if (in == FLAGS && w[0] == '-') {
      /* "-j, --json" or "--json file" */
      for (const char *f = w; f && *f == '-';) {
        size_t fl = strcspn(f, " ,");
        char *flag = mp_xstrndup(f, fl);
        if (!mp_strv_contains(&node->flags, flag))
          mp_strv_push(&node->flags, flag);
        free(flag);
        f = f[fl] == ',' ? f + fl + 2 : NULL;
      }
    }
  }
  free(copy);
}

static void add(mp_ctx *ctx, const mp_command *c, const char **words,
                size_t n, mp_cmd_tree *t) {
  char *text = page_of(ctx, c, words, n);
  t->nodes = mp_xrealloc(t->nodes, (t->len + 1) * sizeof(*t->nodes));
  mp_cmd_node *node = &t->nodes[t->len++];
  memset(node, 0, sizeof(*node));
  mp_strv_init(&node->subs);
  mp_strv_init(&node->flags);
  mp_buf path;
  mp_buf_init(&path);
  for (size_t i = 0; i < n; i++)
    mp_buf_printf(&path, "%s%s", i ? " " : "", words[i]);
  node->path = mp_buf_detach(&path, NULL);
  if (text) parse_page(text, node);
  free(text);
  size_t at = t->len - 1, nsubs = node->subs.len;
  for (size_t i = 0; i < nsubs && n < 4; i++) {
    const char *more[5];
    memcpy(more, words, n * sizeof(*words));
    more[n] = t->nodes[at].subs.items[i];
    add(ctx, c, more, n + 1, t);
  }
}

void mp_cli_command_tree(mp_ctx *ctx, mp_cmd_tree *out) {
  memset(out, 0, sizeof(*out));
  for (size_t i = 0; i < ctx->ncommands; i++) {
    const char *words[] = {ctx->commands[i].name};
    add(ctx, &ctx->commands[i], words, 1, out);
  }
}

void mp_cli_command_tree_destroy(mp_cmd_tree *t) {
  for (size_t i = 0; i < t->len; i++) {
    free(t->nodes[i].path);
    mp_strv_destroy(&t->nodes[i].subs);
    mp_strv_destroy(&t->nodes[i].flags);
  }
  free(t->nodes);
  memset(t, 0, sizeof(*t));
}
