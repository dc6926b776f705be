/* The workspace: the project (Pulumi.yaml), the state store, the stack. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/operation.h"

/* ==== context and messages ==== */

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MP_SANITIZED 1
#endif
#endif
#ifndef MP_SANITIZED
#define MP_SANITIZED 0
#endif

void mp_ctx_init(mp_ctx *ctx) {
  memset(ctx, 0, sizeof(*ctx));
  ctx->out = stdout;
  ctx->err = stderr;
  ctx->stdin_tty = isatty(0);
  ctx->stdout_tty = isatty(1);
  ctx->previewing = 1; /* no update runs yet */
  ctx->leave_memory = !MP_SANITIZED;
}

static void project_free(mp_cli_project *p) {
  if (!p) return;
  mp_project_free(p->lang);
  free(p);
}

void mp_ctx_destroy(mp_ctx *ctx) {
  mp_cli_secrets_release(ctx);
  mp_store_close(ctx->store);
  ctx->store = NULL;
  free(ctx->backend_url);
  ctx->backend_url = NULL;
  if (!ctx->leave_memory) project_free(ctx->project); /* else: the exit's */
  ctx->project = NULL;
}

int mp_cli_error(mp_ctx *ctx, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("error: ", ctx->err);
  vfprintf(ctx->err, fmt, ap);
  fputc('\n', ctx->err);
  va_end(ap);
  return status;
}

int mp_cli_fail(mp_ctx *ctx, int status, const mp_err *err) {
  return mp_cli_error(ctx, status, "%s", err->msg[0] ? err->msg : "failed");
}

void mp_cli_warn(mp_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("warning: ", ctx->err);
  vfprintf(ctx->err, fmt, ap);
  fputc('\n', ctx->err);
  va_end(ap);
}

int mp_cli_interactive(const mp_ctx *ctx) {
  const char *ci = getenv("CI");
  if (ctx->non_interactive) return 0;
  if (ci && *ci && strcmp(ci, "false") && strcmp(ci, "0")) return 0;
  return ctx->stdin_tty && ctx->stdout_tty;
}

int mp_cli_prompt(mp_ctx *ctx, const char *question, char *answer,
                  size_t size) {
  fprintf(ctx->out, "%s ", question);
  fflush(ctx->out);
  if (!fgets(answer, (int)size, stdin) || ctx->interrupt) return -1;
  answer[strcspn(answer, "\r\n")] = 0;
  return 0;
}

int mp_cli_need_yes(mp_ctx *ctx) {
  return mp_cli_error(ctx, MP_EXIT_CONFIG,
                      "--yes must be passed in to proceed when running in "
                      "non-interactive mode");
}

int mp_cli_confirm_by_name(mp_ctx *ctx, const char *stack, int yes,
                           const char *fmt, ...) {
  if (yes) return 0;
  if (!mp_cli_interactive(ctx)) return mp_cli_need_yes(ctx);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(ctx->out, fmt, ap);
  va_end(ap);
  fputc('\n', ctx->out);
  char q[300], answer[256];
  snprintf(q, sizeof(q),
           "Please confirm that this is what you'd like to do by typing `%s`:",
           stack);
  if (mp_cli_prompt(ctx, q, answer, sizeof(answer)) != 0 || strcmp(answer, stack))
    return mp_cli_error(ctx, MP_EXIT_ERROR, "confirmation declined");
  return 0;
}

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

char *mp_cli_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) mp_buf_append(&b, chunk, n);
  fclose(f);
  return mp_buf_detach(&b, len);
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

/* Pulumi's diy backends accept `<stack>`, `<org>/<stack>` and
 * `<org>/<project>/<stack>`; the organization is always "organization"
 * and a missing project is the current one. */
int mp_cli_stack_parse(mp_ctx *ctx, const char *ref, char **out) {
  int status;
  *out = NULL;
  if ((status = mp_cli_load_project(ctx))) return status;
  const char *parts[3] = {NULL, NULL, NULL}; /* org, project, name */
  size_t lens[3] = {0, 0, 0};
  const char *s1 = strchr(ref, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
  if (s2 && strchr(s2 + 1, '/'))
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "invalid stack name '%s': write <stack>, "
                        "organization/<stack> or "
                        "organization/<project>/<stack>",
                        ref);
  if (s1) parts[0] = ref, lens[0] = (size_t)(s1 - ref);
  if (s2) parts[1] = s1 + 1, lens[1] = (size_t)(s2 - s1 - 1);
  parts[2] = s2 ? s2 + 1 : s1 ? s1 + 1 : ref;
  lens[2] = strlen(parts[2]);
  if (lens[0] && (lens[0] != 12 || strncmp(parts[0], "organization", 12)))
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "organization name must be 'organization'");
  if (lens[1] && (lens[1] != strlen(ctx->project->name) ||
                  strncmp(parts[1], ctx->project->name, lens[1])))
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "provided project name \"%.*s\" doesn't match "
                        "Pulumi.yaml",
                        (int)lens[1], parts[1]);
  if (!mp_cli_stack_name_valid(parts[2]))
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "invalid stack name '%s': stack names may only "
                        "contain alphanumerics, hyphens, underscores or "
                        "periods",
                        parts[2]);
  *out = mp_xstrdup(parts[2]);
  return 0;
}

mp_stack_ref mp_cli_ref(const mp_ctx *ctx, const char *stack) {
  mp_stack_ref r = {ctx->project ? ctx->project->name : NULL, stack};
  return r;
}

char *mp_cli_stack_config_path(const mp_ctx *ctx, const char *stack) {
  return mp_xasprintf("%s/Pulumi.%s.yaml", ctx->project->dir, stack);
}

int mp_cli_stack(mp_ctx *ctx, const char *name, int must_exist, char **out) {
  int status;
  *out = NULL;
  if ((status = mp_cli_load_project(ctx)) || (status = mp_cli_store(ctx)))
    return status;
  mp_err err;
  mp_err_clear(&err);
  char *stack = NULL;
  if (!name) name = ctx->stack;
  if (name) {
    if ((status = mp_cli_stack_parse(ctx, name, &stack))) return status;
  } else {
    if (mp_store_selected_get(ctx->store, ctx->project->name, &stack, &err))
      return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    if (!stack)
      return mp_cli_error(ctx, MP_EXIT_ERROR,
                          "no stack selected; please use `minipulumi stack "
                          "select` or `minipulumi stack init`, or pass "
                          "--stack");
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
