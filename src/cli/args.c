#include "cli/args.h"
#include "cli/cloud_only.h"
#include "cli/logging.h"
#include "cli/messages.h"
#include "engine/prog_name.h"
#include "state/store.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The flags every command accepts; their destinations live in the ctx, so
 * the table is built per call. */
#define MP_GLOBAL_OPTS 16
/* the width of a help page's flag column; the help texts start after it */
#define HELP_COLUMN 34
static void global_opts(mp_ctx *ctx, mp_opt out[MP_GLOBAL_OPTS]) {
  const mp_opt g[MP_GLOBAL_OPTS] = {
      MP_OPT_STR_('C', "cwd", &ctx->cwd, "path",
                  "run as if the command was started in this folder"),
      MP_OPT_STR_('s', "stack", &ctx->stack, "name",
                  "the stack to operate on (default: the selected stack)"),
      MP_OPT_STR_(0, "backend", &ctx->backend, "url",
                  "the state store: " MP_BACKEND_SCHEMES " (also "
                  "MINIPULUMI_BACKEND_URL; default ~/.minipulumi/state.db)"),
      MP_OPT_BOOL_(0, "non-interactive", &ctx->non_interactive,
                   "never prompt; fail where an answer would be needed"),
      MP_OPT_STR_(0, "color", &ctx->color, "mode",
                  "colorize output: always, never, raw or auto"),
      MP_OPT_BOOL_('Q', "fully-qualify-stack-names", &ctx->fully_qualify,
                   "show fully-qualified stack names"),
      /* logs, traces and the display's emoji */
      MP_OPT_INT_('v', "verbose", &ctx->verbose, "level",
                  "enable verbose logging of the engine at this level "
                  "(e.g. 9); see --logtostderr"),
      MP_OPT_BOOL_(0, "logtostderr", &ctx->logtostderr,
                   "log to stderr instead of to a file in the temp folder"),
      MP_OPT_BOOL_(0, "logflow", &ctx->logflow,
                   "flow the log settings to the plugins"),
      MP_OPT_STR_(0, "tracing", &ctx->tracing, "file:path",
                  "write a trace of the operation's spans to a local file "
                  "(Zipkin v2 JSON)"),
      MP_OPT_BOOL_('e', "emoji", &ctx->emoji,
                   "enable emojis in the output"),
      MP_OPT_BOOL_(0, "disable-integrity-checking", &ctx->no_integrity,
                   "skip the snapshot integrity check on load and save"),
      MP_OPT_STR_(0, "profiling", &ctx->profiling, "file",
                  "no effect: Pulumi writes its Go runtime's CPU and memory "
                  "profiles; minipulumi is a C program (profile it with "
                  "perf)"),
      MP_OPT_INT_(0, "memprofilerate", &ctx->memprofilerate, "rate",
                  "no effect: sets Pulumi's Go runtime.MemProfileRate; "
                  "minipulumi is a C program"),
      MP_OPT_STR_(0, "otel-traces", &ctx->otel_traces, "endpoint",
                  "refused: minipulumi writes no OpenTelemetry traces; use "
                  "--tracing file:PATH"),
      MP_OPT_END_};
  memcpy(out, g, sizeof(g));
}

/* The first row of |t| (shared groups read in place) named |name| (|n|
 * bytes), or with the short name |c| when |name| is NULL. */
static const mp_opt *find(const mp_opt *t, const char *name, size_t n,
                          char c) {
  for (; t->type != MP_OPT_END; t++) {
    if (t->type == MP_OPT_GROUP) {
      const mp_opt *o = find(t->dest, name, n, c);
      if (o) return o;
      continue;
    }
    if (name ? (t->long_name && strlen(t->long_name) == n &&
                strncmp(t->long_name, name, n) == 0)
             : (t->short_name && t->short_name == c))
      return t;
  }
  return NULL;
}

static const mp_opt *find_long(const mp_opt *t, const char *name, size_t n) {
  return find(t, name, n, 0);
}

static const mp_opt *find_short(const mp_opt *t, char c) {
  return find(t, NULL, 0, c);
}

static int parse_bool_text(const char *s, int *out) {
  if (!strcmp(s, "true") || !strcmp(s, "1") || !strcmp(s, "t") ||
      !strcmp(s, "TRUE") || !strcmp(s, "True")) {
    *out = 1;
    return 0;
  }
  if (!strcmp(s, "false") || !strcmp(s, "0") || !strcmp(s, "f") ||
      !strcmp(s, "FALSE") || !strcmp(s, "False")) {
    *out = 0;
    return 0;
  }
  return -1;
}

int mp_args_bad(mp_ctx *ctx, const char *cmd, const char *fmt,
                const char *a) {
  fprintf(ctx->err, "error: ");
  fprintf(ctx->err, fmt, a);
  /* a global flag before any command has no command to name */
  fprintf(ctx->err, "\nRun '%s %s%s--help' for usage.\n", mp_prog_name(),
          cmd ? cmd : "", cmd && *cmd ? " " : "");
  return MP_ARGS_ERROR;
}

/* Stores |val| (NULL for a bare bool) into |o|'s destination. */
static int store_value(mp_ctx *ctx, const char *cmd, const mp_opt *o,
                       const char *val, const char *shown) {
  switch (o->type) {
  case MP_OPT_BOOL:
    if (!val) {
      *(int *)o->dest = 1;
      return MP_ARGS_OK;
    }
    if (parse_bool_text(val, (int *)o->dest) != 0)
      return mp_args_bad(ctx, cmd, "invalid boolean value for flag %s", shown);
    return MP_ARGS_OK;
  case MP_OPT_STRING:
    *(const char **)o->dest = val;
    return MP_ARGS_OK;
  case MP_OPT_INT: {
    char *end = NULL;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (errno || !*val || *end || v < INT_MIN || v > INT_MAX)
      return mp_args_bad(ctx, cmd, "invalid integer value for flag %s", shown);
    *(int *)o->dest = (int)v;
    return MP_ARGS_OK;
  }
  case MP_OPT_LIST:
    mp_strv_push((mp_strv *)o->dest, val);
    return MP_ARGS_OK;
  case MP_OPT_GROUP:
  case MP_OPT_END:
    break;
  }
  return MP_ARGS_ERROR;
}

typedef struct parser {
  mp_ctx *ctx;
  const char *cmd;
  const mp_opt *tables[2];
  int argc;
  const char **argv;
  int i; /* index of the argument being parsed */
} parser;

static const mp_opt *lookup_long(const parser *p, const char *n, size_t len) {
  for (int t = 0; t < 2; t++) {
    const mp_opt *o = p->tables[t] ? find_long(p->tables[t], n, len) : NULL;
    if (o) return o;
  }
  return NULL;
}

static const mp_opt *lookup_short(const parser *p, char c) {
  for (int t = 0; t < 2; t++) {
    const mp_opt *o = p->tables[t] ? find_short(p->tables[t], c) : NULL;
    if (o) return o;
  }
  return NULL;
}

static int parse_long(parser *p, const char *arg) {
  const char *name = arg + 2;
  const char *eq = strchr(name, '=');
  size_t n = eq ? (size_t)(eq - name) : strlen(name);
  const mp_opt *o = lookup_long(p, name, n);
  if (!o && mp_cli_cloud_flag(name, n)) {
    char *what = mp_xasprintf("the flag --%.*s", (int)n, name);
    mp_cli_cloud_error(p->ctx, what);
    free(what);
    return MP_ARGS_ERROR;
  }
  if (!o) return mp_args_bad(p->ctx, p->cmd, "unknown flag: %s", arg);
  char shown[128];
  snprintf(shown, sizeof(shown), "--%s", o->long_name);
  if (eq) return store_value(p->ctx, p->cmd, o, eq + 1, shown);
  if (o->type == MP_OPT_BOOL) return store_value(p->ctx, p->cmd, o, NULL, shown);
  if (p->i + 1 >= p->argc)
    return mp_args_bad(p->ctx, p->cmd, "flag needs an argument: %s", shown);
  return store_value(p->ctx, p->cmd, o, p->argv[++p->i], shown);
}

static int parse_short(parser *p, const char *arg) {
  for (const char *c = arg + 1; *c; c++) {
    const mp_opt *o = lookup_short(p, *c);
    char shown[8] = {'-', *c, 0};
    if (!o) {
      char msg[64];
      snprintf(msg, sizeof(msg), "'%c' in %.40s", *c, arg);
      return mp_args_bad(p->ctx, p->cmd, "unknown shorthand flag: %s", msg);
    }
    if (o->type == MP_OPT_BOOL) {
      if (c[1] == '=') return store_value(p->ctx, p->cmd, o, c + 2, shown);
      int rc = store_value(p->ctx, p->cmd, o, NULL, shown);
      if (rc) return rc;
      continue;
    }
    if (c[1]) return store_value(p->ctx, p->cmd, o, c[1] == '=' ? c + 2 : c + 1, shown);
    if (p->i + 1 >= p->argc)
      return mp_args_bad(p->ctx, p->cmd, "flag needs an argument: %s", shown);
    return store_value(p->ctx, p->cmd, o, p->argv[++p->i], shown);
  }
  return MP_ARGS_OK;
}

static int is_help(const char *a) {
  return !strcmp(a, "--help") || !strcmp(a, "-h");
}

static int check_color(mp_ctx *ctx, const char *cmd) {
  if (!ctx->color) return mp_cli_log_setup(ctx, cmd);
  static const char *const names[] = {"auto", "always", "never", "raw"};
  for (size_t i = 0; i < MP_ARRAY_LEN(names); i++)
    if (!strcmp(ctx->color, names[i])) {
      ctx->color_mode = (mp_color_mode)i;
      return mp_cli_log_setup(ctx, cmd);
    }
  return mp_args_bad(ctx, cmd,
             "unsupported color option '%s'; expected always, never, raw or "
             "auto",
             ctx->color);
}

/* Prints the rows of |o| and then of its shared groups, leaving out a
 * shared row that |top| (the command's whole table) names earlier. */
static void print_table(mp_ctx *ctx, const mp_opt *top, const mp_opt *o) {
  for (const mp_opt *g = o; g->type != MP_OPT_END; g++) {
    if (g->type == MP_OPT_GROUP) continue;
    if (find_long(top, g->long_name, strlen(g->long_name)) != g) continue;
    char left[96];
    char sh[8] = "    ";
    if (g->short_name) snprintf(sh, sizeof(sh), "-%c, ", g->short_name);
    snprintf(left, sizeof(left), "  %s--%s%s%s", sh, g->long_name,
             g->arg_name ? " " : "", g->arg_name ? g->arg_name : "");
    /* a list flag says it is repeatable once, whether or not its own
     * help text already does */
    const char *text = g->help ? g->help : "";
    int said = strstr(text, "(repeatable)") != NULL;
    fprintf(ctx->out, "%-*s %s%s\n", HELP_COLUMN, left, text,
            g->type == MP_OPT_LIST && !said ? " (repeatable)" : "");
  }
  for (const mp_opt *g = o; g->type != MP_OPT_END; g++)
    if (g->type == MP_OPT_GROUP) print_table(ctx, top, g->dest);
}

/* Prints |text| with each command it quotes (`minipulumi ...`, or an
 * example line's "$ minipulumi ...") named as the user typed it. */
static void print_naming_prog(FILE *out, const char *text) {
  static const char word[] = "minipulumi ";
  const size_t n = sizeof(word) - 1;
  const char *p = text;
  for (const char *hit; (hit = strstr(p, word)) != NULL; p = hit + n) {
    int quoted = hit > text && (hit[-1] == '`' ||
                                (hit - text >= 2 && !strncmp(hit - 2, "$ ", 2)));
    fwrite(p, 1, (size_t)(hit - p), out);
    fputs(quoted ? mp_prog_name() : "minipulumi", out);
    fputc(' ', out);
  }
  fputs(p, out);
}

void mp_args_print_usage(mp_ctx *ctx, const mp_cmd_help *help,
                         const mp_opt *opts) {
  mp_opt g[MP_GLOBAL_OPTS];
  global_opts(ctx, g);
  if (help->summary) {
    print_naming_prog(ctx->out, help->summary);
    fputs("\n\n", ctx->out);
  }
  /* the usage line names the command as the user typed it */
  const char *usage = help->usage;
  if (!strncmp(usage, "minipulumi ", 11))
    fprintf(ctx->out, "Usage:\n  %s %s\n", mp_prog_name(), usage + 11);
  else
    fprintf(ctx->out, "Usage:\n  %s\n", usage);
  if (opts && opts->type != MP_OPT_END) {
    fprintf(ctx->out, "\nFlags:\n");
    print_table(ctx, opts, opts);
  }
  fprintf(ctx->out, "%-*s %s\n\nGlobal Flags:\n", HELP_COLUMN, "  -h, --help",
          "help for this command");
  print_table(ctx, g, g);
}

int mp_args_parse(mp_ctx *ctx, const mp_cmd_help *help, const mp_opt *opts,
                  int argc, const char **argv, mp_strv *pos) {
  mp_opt g[MP_GLOBAL_OPTS];
  global_opts(ctx, g);
  parser p = {ctx, argv[0], {opts, g}, argc, argv, 1};
  int only_pos = 0;
  for (; p.i < argc; p.i++) {
    const char *a = argv[p.i];
    int rc = MP_ARGS_OK;
    if (only_pos || a[0] != '-' || a[1] == 0) {
      mp_strv_push(pos, a);
    } else if (!strcmp(a, "--")) {
      only_pos = 1;
    } else if (is_help(a)) {
      mp_args_print_usage(ctx, help, opts);
      return MP_ARGS_HELP;
    } else if (a[1] == '-') {
      rc = parse_long(&p, a);
    } else {
      rc = parse_short(&p, a);
    }
    if (rc) return rc;
  }
  return check_color(ctx, argv[0]);
}

int mp_args_parse_global(mp_ctx *ctx, int argc, const char **argv,
                         int *cmd_index) {
  mp_opt g[MP_GLOBAL_OPTS];
  global_opts(ctx, g);
  parser p = {ctx, "", {g, NULL}, argc, argv, 1};
  for (; p.i < argc; p.i++) {
    const char *a = argv[p.i];
    int rc;
    if (a[0] != '-' || a[1] == 0) break;
    if (!strcmp(a, "--")) {
      p.i++;
      break;
    }
    if (is_help(a)) return MP_ARGS_HELP;
    rc = a[1] == '-' ? parse_long(&p, a) : parse_short(&p, a);
    if (rc) return rc;
  }
  *cmd_index = p.i;
  return check_color(ctx, "");
}

int mp_args_first_positional(mp_ctx *ctx, int argc, const char **argv) {
  mp_opt g[MP_GLOBAL_OPTS];
  global_opts(ctx, g);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) return i + 1;
    if (a[0] != '-' || a[1] == 0) return i;
    /* a global flag's value is its next argument unless attached */
    const mp_opt *o = NULL;
    if (a[1] == '-' && !strchr(a, '='))
      o = find_long(g, a + 2, strlen(a + 2));
    else if (a[1] != '-' && a[2] == 0)
      o = find_short(g, a[1]);
    if (o && o->type != MP_OPT_BOOL) i++;
  }
  return argc;
}

int mp_args_exit_status(int rc) {
  return rc == MP_ARGS_HELP ? MP_EXIT_HELP_SHOWN : MP_EXIT_CONFIG;
}

int mp_args_check_count(mp_ctx *ctx, const char *cmd, const mp_strv *pos,
                        int min, int max) {
  int n = (int)pos->len;
  if (n >= min && (max < 0 || n <= max)) return MP_ARGS_OK;
  if (max == 0)
    fprintf(ctx->err, "error: unknown command \"%s\" for \"%s %s\"\n",
            pos->items[0], mp_prog_name(), cmd);
  else if (min == max)
    fprintf(ctx->err, "error: accepts %d arg(s), received %d\n", min, n);
  else if (n < min)
    fprintf(ctx->err, "error: requires at least %d arg(s), only received %d\n",
            min, n);
  else
    fprintf(ctx->err, "error: accepts at most %d arg(s), received %d\n", max,
            n);
  fprintf(ctx->err, "Run '%s %s --help' for usage.\n", mp_prog_name(), cmd);
  return MP_ARGS_ERROR;
}

int mp_args_parse_n(mp_ctx *ctx, const mp_cmd_help *help, const mp_opt *opts,
                    int argc, const char **argv, int min, int max,
                    mp_strv *pos) {
  int rc = mp_args_parse(ctx, help, opts, argc, argv, pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, argv[0], pos, min, max);
  if (rc != MP_ARGS_OK) mp_strv_destroy(pos);
  return rc;
}
