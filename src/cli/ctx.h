/* The CLI's process state: one mp_ctx, created by main() and passed to every
 * command (no mutable globals: docs/style.md, "Globals and macros").
 * Owner: the main thread. */
#ifndef MP_CLI_CTX_H
#define MP_CLI_CTX_H

#include <signal.h>
#include <stdio.h>

#include "engine/crypto.h"
#include "engine/err.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/value.h"
#include "lang/yaml_host.h"
#include "plugin/http_get.h"
#include "state/store.h"

typedef enum mp_color_mode {
  MP_COLOR_AUTO = 0, /* color when stdout is a terminal and NO_COLOR unset */
  MP_COLOR_ALWAYS,
  MP_COLOR_NEVER,
  MP_COLOR_RAW /* Pulumi's raw color directives `<{%fg 2%}>` */
} mp_color_mode;

/* The loaded project (Pulumi.yaml, read once by lang/yaml_host.h's loader) as
 * the CLI needs it; the strings are borrowed from |lang|. */
typedef struct mp_cli_project {
  const char *name;        /* project name */
  const char *dir;         /* absolute folder holding Pulumi.yaml */
  const char *program_dir; /* the program's folder: |dir|, or dir/<main> */
  const char *runtime;     /* "yaml", "nodejs", ... (may be NULL) */
  const mp_value *defaults; /* OBJECT "<ns>:<key>" → default value */
  mp_project *lang;        /* the loaded project (owned) */
  /* A project named only by a fully qualified stack name given outside a
   * project folder (dir, program_dir, runtime, lang are NULL): the name,
   * owned. */
  char *bare_name;
} mp_cli_project;

typedef struct mp_ctx mp_ctx;
struct mp_command; /* cli/command_table.h */

/* The HTTP settings Pulumi's Go runtime takes from the environment
 * (cli/plugin_download.c, mp_cli_http_read). */
typedef struct mp_cli_http {
  mp_http_opts opts;
  /* MINIPULUMI_DOWNLOAD_STALL_SECONDS as given, when it is no positive
   * whole number (downloads then refuse to start); else NULL. */
  const char *bad_stall;
} mp_cli_http;

struct mp_ctx {
  /* Global flags; the strings point into argv or the environment. */
  const char *cwd;     /* --cwd/-C, NULL: the process's folder */
  const char *stack;   /* --stack/-s, NULL: the selected stack */
  /* Set by the commands that need no program (stack rm, export, output,
   * history): a fully qualified stack name works outside a project. */
  int project_optional;
  /* Set by up and preview: with no stack selected, the terminal's menu
   * offers "<create a new stack>" too (mp_cli_stack_choose). */
  int offer_new_stack;
  const char *backend; /* --backend, else NULL (see mp_cli_backend_url) */
  const char *color;   /* --color as given */
  int non_interactive; /* --non-interactive */
  /* An operation's --config-file: the stack's config file, instead of
   * Pulumi.<stack>.yaml in the project's folder. */
  const char *config_file;
  int fully_qualify;   /* -Q/--fully-qualify-stack-names */
  /* -v/--verbose, --logtostderr, --logflow, --tracing (cli/logging.h
   * makes |log| of them), -e/--emoji, --disable-integrity-checking */
  int verbose, logtostderr, logflow, emoji, no_integrity;
  const char *tracing;
  /* Pulumi's Go-runtime profiling flags, accepted without effect (their
   * help says why), and --otel-traces, refused (logging.c). */
  const char *profiling, *otel_traces;
  int memprofilerate;
  mp_color_mode color_mode;

  FILE *out; /* stdout */
  FILE *err; /* stderr */
  int stdin_tty, stdout_tty;

  /* Set only by the SIGINT handler in main.c (reached through the single
   * static pointer there): 1 = cancel gracefully, 2 = stop now. The
   * deployment polls it (mp_deploy_opts.interrupt). */
  volatile sig_atomic_t interrupt;
  /* 1 while a terminal display redraws in place: it prints the first ^C's
   * line itself, above its table, so the handler does not. */
  volatile sig_atomic_t display_live;
  /* 1 once the first ^C's line is printed (by the handler or a display):
   * it is printed once per command. */
  volatile sig_atomic_t cancel_told;
  /* The signal that asked to cancel (SIGINT or SIGTERM), for its words. */
  volatile sig_atomic_t interrupt_signal;
  /* 1 while no update runs (a preview, a prompt): the cancelling line
   * then has no warning about orphaned resources. */
  volatile sig_atomic_t previewing;

  /* Opened on first use (workspace.c); released by mp_ctx_destroy. */
  mp_store *store;
  char *backend_url;
  mp_cli_project *project;
  /* Passphrase managers by salt (secrets.c): deriving a key is slow. */
  mp_passphrase *pp[4];
  char *pp_salt[4];

  /* 1 when the process's last deployment and mp_ctx_destroy may leave
   * memory-only structures to the exit (mp_deploy_opts.leave_memory); 0 in
   * sanitizer builds, whose leak check wants every free. */
  int leave_memory;

  /* The certificates, proxies and stall limit of HTTP downloads (plugins,
   * the assets a program sends), read from the environment once, when the
   * context is made (mp_cli_http_read). */
  mp_cli_http http;

  /* The engine's logs and trace (cli/logging.h); handed to the
   * deployment and the plugin host. */
  mp_log log;
  char *log_path; /* the log file when not --logtostderr */

  /* main.c's command table, for the commands that walk it
   * (gen-completion, help). */
  const struct mp_command *commands;
  size_t ncommands;
};

/* Fills |ctx| with defaults (stdout/stderr, TTY detection). */
void mp_ctx_init(mp_ctx *ctx);
/* Closes the store, frees the project; |ctx| is reusable afterwards. */
void mp_ctx_destroy(mp_ctx *ctx);

#endif
