/* The workspace: the project (Pulumi.yaml), the state store, the stack. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/backend.h"
#include "engine/prog_name.h"
#include "cli/messages.h"
#include "cli/operation.h"
#include "cli/stack_create.h"
#include "cli/workspace.h"
#include "engine/names.h"

/* ==== project ==== */

static char *find_project_dir(const char *start) {
  char *dir = realpath(start, NULL);
  while (dir) {
    char *f = mp_xasprintf("%s/Pulumi.yaml", dir);
    int found = access(f, F_OK) == 0;
    if (!found) {
      free(f);
      f = mp_xasprintf("%s/Pulumi.yml", dir);
      found = access(f, F_OK) == 0;
    }
    free(f);
    if (found) return dir;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) {
      free(dir);
      return NULL;
    }
    *slash = 0;
  }
  return NULL;
}

/* Loads the project in |dir| (Pulumi.yaml is read once, here; the
 * language host takes its program from the same load). */
static int load_project(mp_ctx *ctx, const char *dir, mp_cli_project **out) {
  mp_project *lp = NULL;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_project_load(dir, &lp, &err);
  if (rc < 0)
    return mp_cli_fail(ctx, rc == MP_EINVAL ? MP_EXIT_CONFIG : MP_EXIT_ERROR,
                       &err);
  mp_cli_project *p = mp_xcalloc(1, sizeof(*p));
  p->lang = lp;
  p->name = mp_project_name(lp);
  p->dir = mp_project_dir(lp);
  p->program_dir = mp_project_program_dir(lp);
  p->runtime = mp_project_runtime(lp);
  p->defaults = mp_project_defaults(lp);
  *out = p;
  return 0;
}

char *mp_cli_project_dir_find(const mp_ctx *ctx) {
  return find_project_dir(ctx->cwd ? ctx->cwd : ".");
}

int mp_cli_load_project(mp_ctx *ctx) {
  if (ctx->project) return 0;
  const char *start = ctx->cwd ? ctx->cwd : ".";
  struct stat st;
  if (stat(start, &st) != 0 || !S_ISDIR(st.st_mode))
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "cannot change to folder '%s': %s", start,
                        strerror(errno ? errno : ENOTDIR));
  char *dir = find_project_dir(start);
  if (!dir)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "no Pulumi.yaml project file found (searching upwards "
                        "from '%s'); create one or pass --cwd to a project "
                        "folder",
                        start);
  int status = load_project(ctx, dir, &ctx->project);
  free(dir);
  return status;
}

/* ==== store ==== */

int mp_cli_store(mp_ctx *ctx) {
  if (ctx->store) return 0;
  mp_store_opts o;
  int status = mp_cli_store_opts(ctx, &o);
  if (!status && !ctx->backend_url)
    status = mp_cli_backend_url(ctx, &ctx->backend_url, NULL);
  if (status) return status;
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_open_with(ctx->backend_url, &o, &ctx->store, &err) != 0)
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  return 0;
}

int mp_cli_store_quiet(mp_ctx *ctx) {
  if (ctx->store) return 0;
  const char *url = ctx->backend && *ctx->backend ? ctx->backend : NULL;
  if (url == NULL && !mp_cli_env_backend(NULL, &url)) return -1;
  const char *lease = getenv("MINIPULUMI_LOCK_LEASE_SECONDS");
  struct stat st;
  /* no store file made here, and no lease to check (both may print) */
  if ((lease && *lease) || (!strstr(url, "://") && stat(url, &st) != 0))
    return -1;
  mp_store_opts o;
  mp_err err;
  mp_err_clear(&err);
  if (mp_cli_store_opts(ctx, &o) ||
      mp_store_open_with(url, &o, &ctx->store, &err) != 0) {
    ctx->store = NULL;
    return -1;
  }
  ctx->backend_url = mp_xstrdup(url);
  return 0;
}

/* ==== stacks ==== */

int mp_cli_stack_name_valid(const char *name) {
  return mp_stack_name_check(name, NULL) == 0;
}

/* Pulumi's diy backends accept `<stack>`, `<org>/<stack>` and
 * `<org>/<project>/<stack>` (engine/names.h); the commands work on the
 * current project's stacks only. */
int mp_cli_stack_parse(mp_ctx *ctx, const char *ref, char **out) {
  int status;
  *out = NULL;
  if ((status = mp_cli_load_project(ctx))) return status;
  mp_err err;
  mp_err_clear(&err);
  char *project = NULL, *stack = NULL;
  switch (mp_stack_ref_parse(ref, ctx->project->name, &project, &stack, &err)) {
  case MP_STACK_REF_OK:
    break;
  case MP_STACK_REF_ORGANIZATION:
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  case MP_STACK_REF_FORM:
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  case MP_STACK_REF_PROJECT:
  case MP_STACK_REF_STACK:
    mp_err_prefix(&err, "invalid stack name '%s'", ref);
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  }
  if (strcmp(project, ctx->project->name) != 0) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "provided project name \"%s\" doesn't match "
                          "Pulumi.yaml",
                          project);
    free(project);
    free(stack);
    return status;
  }
  free(project);
  *out = stack;
  return 0;
}

mp_stack_ref mp_cli_ref(const mp_ctx *ctx, const char *stack) {
  mp_stack_ref r = {ctx->project ? ctx->project->name : NULL, stack};
  return r;
}

char *mp_cli_stack_config_path(const mp_ctx *ctx, const char *stack) {
  if (ctx->config_file) return mp_xstrdup(ctx->config_file);
  if (!ctx->project->dir) return NULL; /* no project folder */
  return mp_xasprintf("%s/Pulumi.%s.yaml", ctx->project->dir, stack);
}

/* Outside a project folder, a fully qualified `<org>/<project>/<stack>`
 * names its project, as Pulumi's diy backend parses it without one (the
 * Automation API's inline programs run commands so). */
static int bare_project(mp_ctx *ctx, const char *name) {
  const char *a = name ? strchr(name, '/') : NULL;
  const char *b = a ? strchr(a + 1, '/') : NULL;
  char *dir = mp_cli_project_dir_find(ctx);
  int qualified = b && b > a + 1 && !strchr(b + 1, '/');
  if (dir || !qualified) {
    free(dir);
    return mp_cli_load_project(ctx);
  }
  mp_cli_project *p = mp_xcalloc(1, sizeof(*p));
  p->bare_name = mp_xstrndup(a + 1, (size_t)(b - a - 1));
  p->name = p->bare_name;
  ctx->project = p;
  return 0;
}

int mp_cli_stack(mp_ctx *ctx, const char *name, int must_exist, char **out) {
  int status;
  *out = NULL;
  if (!name) name = ctx->stack;
  if (!ctx->project && ctx->project_optional &&
      (status = bare_project(ctx, name)))
    return status;
  if ((status = mp_cli_load_project(ctx)) || (status = mp_cli_store(ctx)))
    return status;
  mp_err err;
  mp_err_clear(&err);
  char *stack = NULL;
  if (name) {
    if ((status = mp_cli_stack_parse(ctx, name, &stack))) return status;
  } else {
    if (mp_store_selected_get(ctx->store, ctx->project->name, &stack, &err))
      return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    if (!stack && mp_cli_interactive(ctx))
      return mp_cli_stack_choose(ctx, !must_exist || ctx->offer_new_stack,
                                 out);
    if (!stack)
      return mp_cli_error(ctx, MP_EXIT_ERROR,
                          "no stack selected; please use `%s stack "
                          "select` or `%s stack init`, or pass "
                          "--stack",
                          mp_prog_name(), mp_prog_name());
  }
  if (must_exist) {
    int e = mp_store_stack_exists(ctx->store, mp_cli_ref(ctx, stack), &err);
    if (e < 0) {
      free(stack);
      return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    }
    if (e == 0) {
      mp_cli_error(ctx, MP_EXIT_NO_STACK, "no stack named '%s' found", stack);
      free(stack);
      return MP_EXIT_NO_STACK;
    }
  }
  *out = stack;
  return 0;
}
