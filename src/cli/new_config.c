/* The template's config values on `minipulumi new`, after Pulumi's
 * pkg/cmd/pulumi/newcmd/config.go (promptForConfig, ParseConfig): each
 * key of template.config in key order (a key without a namespace is the
 * project's), -c's value if given, else asked on a terminal with the
 * template's default (with --yes: the default); an empty value is not
 * saved; a secret one is saved encrypted. Then the other -c values. */
#include "cli/new_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/messages.h"

int mp_new_ask(mp_ctx *ctx, const char *what, int secret, char **value) {
  char answer[1024];
  char *q = !**value
                ? mp_xasprintf("%s:", what)
                : mp_xasprintf("%s: (%s)", what, secret ? "[secret]" : *value);
  /* a secret is typed without echo, as Pulumi's ReadConsoleNoEcho */
  struct termios old, quiet;
  int hide = secret && tcgetattr(STDIN_FILENO, &old) == 0;
  if (hide) {
    quiet = old;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    quiet.c_lflag |= ECHONL; /* the newline of Enter still shows */
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  int rc = mp_cli_prompt(ctx, q, answer, sizeof(answer));
  if (hide)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
  free(q);
  if (rc == 0 && *answer) {
    free(*value);
    *value = mp_xstrdup(answer);
  }
  return rc;
}

/* |key| with the project's namespace when it has none. Owned. */
static char *qualify(const char *key, const char *project) {
  return strchr(key, ':') ? mp_xstrdup(key)
                          : mp_xasprintf("%s:%s", project, key);
}

typedef struct entry {
  char *key; /* qualified */
  const mp_tpl_config *c;
} entry;

static int by_key(const void *a, const void *b) {
  return strcmp(((const entry *)a)->key, ((const entry *)b)->key);
}

/* The value of |key| among the -c values (borrowed), or NULL. */
static const char *given_value(const mp_strv *given, const char *key,
                               const char *project) {
  const char *found = NULL;
  for (size_t i = 0; i < given->len; i++) {
    const char *eq = strchr(given->items[i], '=');
    char *k = mp_xstrndup(given->items[i], eq ? (size_t)(eq - given->items[i])
                                              : strlen(given->items[i]));
    char *q = qualify(k, project);
    if (strcmp(q, key) == 0)
      found = eq ? eq + 1 : "";
    free(q);
    free(k);
  }
  return found;
}

static int save(mp_ctx *ctx, const char *key, const char *value, int secret,
                int path) {
  const char *args[7];
  int n = 0;
  args[n++] = "config";
  args[n++] = "set";
  if (secret)
    args[n++] = "--secret";
  if (path)
    args[n++] = "--path";
  args[n++] = key;
  args[n++] = value;
  args[n] = NULL;
  return mp_cmd_config(n, args, ctx);
}

int mp_new_config(mp_ctx *ctx, const mp_tpl *t, const char *project,
                  const mp_strv *given, int yes, int path) {
  entry *e = mp_xcalloc(t->nconfig ? t->nconfig : 1, sizeof(*e));
  for (size_t i = 0; i < t->nconfig; i++) {
    e[i].key = qualify(t->config[i].key, project);
    e[i].c = &t->config[i];
  }
  qsort(e, t->nconfig, sizeof(*e), by_key);
  int may_ask = !yes && mp_cli_interactive(ctx);
  int status = 0, saved = 0;
  mp_strv done;
  mp_strv_init(&done);
  for (size_t i = 0; !status && i < t->nconfig; i++) {
    const char *cli = given_value(given, e[i].key, project);
    char *value = mp_xstrdup(cli ? cli : e[i].c->def ? e[i].c->def : "");
    int secret = cli ? 0 : e[i].c->secret; /* -c values are saved as given */
    if (!cli && may_ask) {
      size_t plen = strlen(project);
      const char *pretty =
          !strncmp(e[i].key, project, plen) && e[i].key[plen] == ':'
              ? e[i].key + plen + 1
              : e[i].key;
      char *what = e[i].c->description
                       ? mp_xasprintf("%s (%s)", e[i].c->description, pretty)
                       : mp_xstrdup(pretty);
      if (mp_new_ask(ctx, what, secret, &value) != 0)
        status =
            mp_cli_error(ctx, MP_EXIT_ERROR, "no value given for %s", e[i].key);
      free(what);
    }
    if (!status && *value) {
      status = save(ctx, e[i].key, value, secret, path);
      saved = 1;
    }
    mp_strv_push(&done, e[i].key);
    free(value);
  }
  /* the -c values the template does not ask for */
  for (size_t i = 0; !status && i < given->len; i++) {
    const char *item = given->items[i], *eq = strchr(item, '=');
    char *k = mp_xstrndup(item, eq ? (size_t)(eq - item) : strlen(item));
    char *q = qualify(k, project);
    if (!mp_strv_contains(&done, q)) {
      /* the last -c of a key wins, as in Pulumi's config map */
      status = save(ctx, k, given_value(given, q, project), 0, path);
      saved = 1;
      mp_strv_push(&done, q);
    }
    free(q);
    free(k);
  }
  mp_strv_destroy(&done);
  for (size_t i = 0; i < t->nconfig; i++)
    free(e[i].key);
  free(e);
  if (!status && saved)
    fprintf(ctx->out, "Saved config\n\n");
  return status;
}
