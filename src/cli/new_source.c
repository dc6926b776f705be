/* The templates of `minipulumi new` (new_source.h), after Pulumi's
 * sdk/go/common/workspace/templates.go RetrieveTemplates: a URL is
 * cloned, a path read in place, a name looked up among the installed
 * templates (~/.pulumi/templates), then the built-in ones. minipulumi
 * does not clone Pulumi's own template repository into that folder, so
 * a name never needs the network: --offline changes only URLs. */
#include "cli/new_source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/template_git.h"
#include "cli/templates.h"

static int push_builtin(const mp_template *b, mp_tpl **out, size_t *n) {
  *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
  mp_tpl_from_builtin(b, &(*out)[(*n)++]);
  return 0;
}

/* Every template: those installed, then the built-in ones whose name no
 * installed template takes. */
static int all_templates(mp_ctx *ctx, mp_tpl **out, size_t *n) {
  char *home = mp_tpl_home_dir();
  struct stat st;
  int status = 0;
  if (stat(home, &st) == 0 && S_ISDIR(st.st_mode)) {
    mp_err err;
    mp_err_clear(&err);
    if (mp_tpl_scan(home, out, n, &err) != 0)
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  free(home);
  size_t installed = *n;
  for (size_t i = 0; !status && mp_template_at(i); i++) {
    int taken = 0;
    for (size_t j = 0; j < installed; j++)
      taken |= strcmp((*out)[j].name, mp_template_at(i)->name) == 0;
    if (!taken)
      push_builtin(mp_template_at(i), out, n);
  }
  return status;
}

static int from_url(mp_ctx *ctx, const char *url, mp_tpl **out, size_t *n,
                    char **clone) {
  const char *tmp = getenv("TMPDIR");
  char *dir =
      mp_xasprintf("%s/pulumi-template-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) {
    int status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot create %s: %m", dir);
    free(dir);
    return status;
  }
  *clone = dir;
  char *folder = NULL;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_tpl_git_retrieve(url, dir, &folder, &err);
  if (rc == 0)
    rc = mp_tpl_scan(folder, out, n, &err);
  free(folder);
  return rc ? mp_cli_fail(ctx, MP_EXIT_ERROR, &err) : 0;
}

/* Pulumi's message for a name that is nowhere, with the near names. */
static int not_found(mp_ctx *ctx, const char *name) {
  mp_tpl *all = NULL;
  size_t n = 0;
  all_templates(ctx, &all, &n);
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < n; i++)
    mp_buf_printf(&b, "\n\t%s", all[i].name);
  char *names = mp_buf_detach(&b, NULL);
  char *home = mp_tpl_home_dir();
  int status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "template '%s' not found\n\nAvailable "
                            "templates (built in, and in %s):%s",
                            name, home, names);
  free(home);
  free(names);
  for (size_t i = 0; i < n; i++)
    mp_tpl_destroy(&all[i]);
  free(all);
  return status;
}

int mp_new_templates(mp_ctx *ctx, const char *arg, const char *base,
                     int offline, mp_tpl **out, size_t *n, char **clone) {
  *clone = NULL;
  if (arg == NULL)
    return all_templates(ctx, out, n);
  if (mp_tpl_git_is_url(arg)) {
    if (offline)
      return mp_cli_error(ctx, MP_EXIT_CONFIG, "cannot use %s offline", arg);
    return from_url(ctx, arg, out, n, clone);
  }
  mp_err err;
  mp_err_clear(&err);
  struct stat st;
  char *path = arg[0] == '/' || !base ? mp_xstrdup(arg)
                                      : mp_xasprintf("%s/%s", base, arg);
  int is_path = stat(path, &st) == 0;
  int rc = is_path ? mp_tpl_scan(path, out, n, &err) : 0;
  free(path);
  if (is_path)
    return rc ? mp_cli_fail(ctx, MP_EXIT_CONFIG, &err) : 0;
  /* a name, lower-cased as Pulumi does */
  char *name = mp_xstrdup(arg);
  for (char *p = name; *p; p++)
    *p = (char)tolower((unsigned char)*p);
  int status = 0;
  char *home = mp_tpl_home_dir();
  char *sub = strchr(name, '/') ? NULL : mp_xasprintf("%s/%s", home, name);
  if (sub && stat(sub, &st) == 0) {
    if (mp_tpl_scan(sub, out, n, &err) != 0)
      status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  } else if (mp_template_find(name)) {
    push_builtin(mp_template_find(name), out, n);
  } else {
    status = not_found(ctx, arg);
  }
  free(sub);
  free(home);
  free(name);
  return status;
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void mp_new_template_lines(const mp_tpl *t, size_t n, mp_strv *lines) {
  int width = 0;
  for (size_t i = 0; i < n; i++)
    if ((int)strlen(t[i].name) > width)
      width = (int)strlen(t[i].name);
  for (size_t i = 0; i < n; i++)
    mp_strv_push_take(
        lines, mp_xasprintf("%-*s    %s", width, t[i].name, t[i].description));
  qsort(lines->items, lines->len, sizeof(char *), by_text);
}
