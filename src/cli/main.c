/* minipulumi's main: the one command table, the global flags, SIGINT, and
 * the only call to exit in the program (docs/style.md,
 * "Errors"). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state/store.h"
#include "cli/args.h"
#include "cli/children.h"
#include "cli/cloud_only.h"
#include "cli/cli.h"
#include "cli/command_table.h"
#include "cli/display.h"
#include "cli/logging.h"
#include "cli/malloc_setup.h"
#include "cli/messages.h"
#include "engine/prog_name.h"

/* Adding a command: write src/cli/cmd_<name>.c with
 * `int mp_cmd_<name>(int argc, const char **argv, mp_ctx *ctx)` (argv[0] is
 * the command's name; return the exit status), declare it in cli.h, add a
 * row here and its file to meson.build, and a tests/cli script. A
 * subcommand is a row of its group's table (cli/command_table.h). */
static const mp_command commands[] = {
    {"up", mp_cmd_up, "Create or update the resources in a stack", {NULL}},
    {"update", mp_cmd_up, "Alias of up", {NULL}},
    {"preview", mp_cmd_preview, "Show a preview of updates to a stack's resources", {NULL}},
    {"refresh", mp_cmd_refresh, "Refresh the resources in a stack", {NULL}},
    {"destroy", mp_cmd_destroy, "Destroy all existing resources in the stack", {NULL}},
    {"down", mp_cmd_destroy, "Alias of destroy", {NULL}},
    {"stack", mp_cmd_stack, "Manage stacks and view stack state", {NULL}},
    {"config", mp_cmd_config, "Manage configuration", {NULL}},
    {"state", mp_cmd_state, "Edit the current stack's state", {NULL}},
    {"plugin", mp_cmd_plugin, "Manage language and resource plugins", {NULL}},
    {"import", mp_cmd_import, "Import resources into an existing stack", {NULL}},
    {"cancel", mp_cmd_cancel, "Cancel a stack's currently running update, if any", {NULL}},
    {"login", mp_cmd_login, "Log in to a minipulumi state backend", {NULL}},
    {"logout", mp_cmd_logout, "Log out of a minipulumi state backend", {NULL}},
    {"whoami", mp_cmd_whoami, "Display the current logged-in user", {NULL}},
    {"version", mp_cmd_version, "Print minipulumi's version number", {NULL}},
    {"new", mp_cmd_new, "Create a new Pulumi project", {NULL}},
    {"watch", mp_cmd_watch, "Continuously update the resources in a stack", {NULL}},
    {"install", mp_cmd_install, "Install the project's dependencies", {NULL}},
    {"about", mp_cmd_about, "Print information about the CLI, project and stack", {NULL}},
    {"gen-completion", mp_cmd_gen_completion,
     "Generate a completion script for bash, zsh or fish", {NULL}},
    {"package", mp_cmd_package, "Work with Pulumi packages", {NULL}},
    {"schema", mp_cmd_schema, "Analyze package schemas", {NULL}},
    {"org", mp_cmd_cloud_only, "Pulumi Cloud only: not available", {NULL}},
    {"console", mp_cmd_console, "Serve a web console of the stacks on this machine", {NULL}},
    {"deployment", mp_cmd_cloud_only, "Pulumi Cloud only: not available", {NULL}},
    {"env", mp_cmd_cloud_only, "Pulumi Cloud only: not available", {NULL}},
    {"logs", mp_cmd_cloud_only, "Pulumi Cloud only: not available", {NULL}},
};

/* The SIGINT handler's only way to reach the process state. This is the
 * program's one mutable static: a signal handler receives no argument, so
 * main sets this pointer once, before installing the handler, and never
 * changes it. The handler only sets ctx->interrupt (a volatile
 * sig_atomic_t), writes a fixed message with write(2) (unless a live
 * terminal display will print it, ctx->display_live), and on the second
 * ^C ends the commands' process groups (mp_cli_end_child_groups) and
 * calls _exit; all are async-signal-safe. */
static mp_ctx *signal_ctx;

/* Between SIGTERM and SIGKILL for the commands left running on a second
 * ^C (the command provider gives a timed-out command as long). */
#define MP_CHILD_GRACE_MS 3000

/* SIGINT and SIGTERM, as Pulumi's CLI takes them: the first cancels
 * gracefully, the second terminates. SIGHUP (the terminal closed, the ssh
 * session dropped) is taken as SIGTERM; and since the commands' groups are
 * not the terminal's, the hangup is passed on to them, as the terminal
 * would have done: they end, and the deployment records how. */
static void on_sigint(int sig) {
  if (signal_ctx->interrupt) {
    signal_ctx->interrupt = 2;
    const char *t = mp_display_terminate_text(sig);
    ssize_t w = write(STDERR_FILENO, t, strlen(t));
    (void)w;
    mp_cli_end_child_groups(MP_CHILD_GRACE_MS);
    _exit(MP_EXIT_CANCELLED);
  }
  signal_ctx->interrupt_signal = sig;
  signal_ctx->interrupt = 1;
  if (sig == SIGHUP) mp_cli_signal_child_groups(SIGHUP);
  if (signal_ctx->display_live || signal_ctx->cancel_told) return;
  signal_ctx->cancel_told = 1;
  const char *t = mp_display_cancel_text(sig, signal_ctx->previewing);
  ssize_t w = write(STDERR_FILENO, t, strlen(t));
  (void)w;
}

static void install_signals(mp_ctx *ctx) {
  struct sigaction sa;
  signal_ctx = ctx;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaddset(&sa.sa_mask, SIGHUP);
  sa.sa_flags = 0; /* no SA_RESTART: a prompt's read returns on ^C */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
}

static void usage(mp_ctx *ctx, const char *prog) {
  fprintf(ctx->out,
          "%s - a deployment engine with the semantics of Pulumi%s\n\n"
          "Usage:\n  %s [global flags] <command> [flags]\n\n"
          "Commands:\n",
          prog, strcmp(prog, "minipulumi") ? " (minipulumi)" : "", prog);
  for (size_t i = 0; i < MP_ARRAY_LEN(commands); i++)
    fprintf(ctx->out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(ctx->out,
          "\nGlobal flags: -C/--cwd, -s/--stack, --backend, --non-interactive, "
          "--color, -v/--verbose,\n--logtostderr, --logflow, --tracing, "
          "-e/--emoji, --disable-integrity-checking\nUse \"%s <command> --help\" for more about a "
          "command.\n",
          prog);
}

static const mp_command *find_command(const char *name) {
  return mp_command_find(commands, MP_ARRAY_LEN(commands), name);
}

/* `minipulumi help <cmd>` is `minipulumi <cmd> --help`. */
static int run_help(mp_ctx *ctx, const char *prog, int argc,
                    const char **argv) {
  if (argc < 2) {
    usage(ctx, prog);
    return 0;
  }
  const mp_command *c = find_command(argv[1]);
  if (!c)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "unknown help topic \"%s\"; run '%s --help'",
                        argv[1], prog);
  const char *args[] = {argv[1], "--help", NULL};
  return c->fn(2, args, ctx);
}

static int run(mp_ctx *ctx, int argc, const char **argv) {
  int first = argc;
  if (argc == 2 && !strcmp(argv[1], "--version")) {
    mp_cli_print_version(ctx);
    return 0;
  }
  int rc = mp_args_parse_global(ctx, argc, argv, &first);
  const char *prog = mp_prog_name();
  if (rc == MP_ARGS_HELP || (rc == MP_ARGS_OK && first >= argc)) {
    usage(ctx, prog);
    return 0;
  }
  if (rc) return mp_args_exit_status(rc);
  const char *name = argv[first];
  if (!strcmp(name, "help")) return run_help(ctx, prog, argc - first, argv + first);
  const mp_command *c = find_command(name);
  if (!c) {
    mp_cli_error(ctx, MP_EXIT_CONFIG, "unknown command \"%s\" for \"%s\"",
                 name, prog);
    fprintf(ctx->err, "Run '%s --help' for usage.\n", prog);
    return MP_EXIT_CONFIG;
  }
  return c->fn(argc - first, argv + first, ctx);
}

/* The stores' view of the environment (AWS_* of s3:// stores). */
static const char *env_of(const char *name) { return getenv(name); }

int main(int argc, char **argv) {
  mp_cli_malloc_setup();
  mp_prog_name_set(argv[0]);
  mp_store_set_env(env_of);
  mp_ctx ctx;
  mp_ctx_init(&ctx);
  mp_store_set_cancel(&ctx.interrupt);
  install_signals(&ctx);
  ctx.commands = commands;
  ctx.ncommands = MP_ARRAY_LEN(commands);
  int status = run(&ctx, argc, (const char **)argv);
  if (status == MP_EXIT_HELP_SHOWN) status = 0;
  int trace_status = mp_cli_log_finish(&ctx);
  if (status == 0) status = trace_status;
  fflush(ctx.out);
  mp_ctx_destroy(&ctx);
  exit(status);
}
