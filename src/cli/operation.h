/* What up, preview, refresh and destroy share (Redis's setGenericCommand):
 * the flags, and one function that runs preview-then-operation through
 * mp_deploy_run with the display, JSON output and the confirmation
 * prompt. */
#ifndef MP_CLI_OPERATION_H
#define MP_CLI_OPERATION_H

#include "cli/args.h"
#include "cli/ctx.h"
#include "cli/op_output.h"
#include "cli/op_policy.h"
#include "deploy/deploy.h"
#include "plugin/plugin.h"
#include "providers/builtin.h"
#include "engine/mem.h"

typedef struct mp_op_flags {
  int yes, skip_preview, refresh, diff, json, parallel;
  int target_dependents, exclude_dependents, continue_on_error;
  int ignore_protect; /* destroy/up --ignore-protect */
  /* up/preview --config-path: the --config keys are property paths */
  int config_path;
  /* up --strict: the preview records a plan and the update keeps to it */
  int strict;
  /* up/preview --attach-debugger: refused (operation.c) */
  mp_strv attach_debugger;
  int exclude_protected; /* destroy --exclude-protected */
  int run_program; /* refresh/destroy --run-program (deploy/run_program.c) */
  int expect_no_changes, show_secrets, preview_only, remove;
  int clear_pending_creates, skip_pending_creates;
  int show_sames, show_replacement_steps, suppress_outputs, suppress_progress;
  int show_reads; /* --show-reads */
  int show_policy_remediations; /* up, preview */
  int serial_stepgen; /* --serial-stepgen or MINIPULUMI_SERIAL_STEPGEN */
  const char *event_log, *message;
  /* Update plans (deploy/plan_file.h): preview --save-plan, up --plan. */
  const char *save_plan, *plan;
  const char *strict_plan; /* up --strict: the preview's plan file */
  /* What the Automation API passes (cli/op_automation.c): --client (the
   * caller's LanguageRuntime serving an inline program), --exec-kind,
   * --exec-agent, --config-file (the stack's config file instead of
   * Pulumi.<stack>.yaml). */
  const char *client, *exec_kind, *exec_agent, *config_file;
  /* `import`: the resources to import (their program runs instead of the
   * project's; deploy/import_source.h), or NULL. They are the targets. */
  const struct mp_import_list *import;
  mp_strv targets, excludes, replaces, target_replaces, config;
  mp_op_output output; /* the output flags (op_output.h) */
  mp_op_policy policy; /* --policy-pack, --policy-pack-config (op_policy.h) */
} mp_op_flags;

void mp_op_flags_init(mp_op_flags *f);
void mp_op_flags_destroy(mp_op_flags *f);

/* The option rows up, preview, refresh and destroy share (--diff, --json,
 * --event-log, --parallel, --target, --target-dependents, --exclude,
 * --exclude-dependents, --message, --show-secrets, --show-sames,
 * --show-replacement-steps, --suppress-outputs, --suppress-progress,
 * --serial-stepgen, --policy-pack, --policy-pack-config),
 * writing into |f|.
 * Each command lists its own rows and then MP_OPT_GROUP_(t.rows); an own
 * row with the same name replaces the shared one. Caller storage. */
typedef struct mp_op_shared_opts {
  mp_opt rows[19];
  mp_opt automation_rows[5]; /* a group of rows (op_automation.c) */
  mp_opt policy_rows[3];     /* a group of rows (op_policy.c) */
  char target_help[64], dependents_help[64]; /* name the command's verb */
} mp_op_shared_opts;

/* Fills |t| for the command whose operation is |verb| ("update",
 * "preview", "refresh", "destroy"). */
void mp_op_shared_opts_init(mp_op_shared_opts *t, mp_op_flags *f,
                            const char *verb);

/* What up, preview, refresh and destroy parse their flags into: the
 * flags, and the rows they share. A command lists its own rows, then
 * MP_OPT_GROUP_(c.shared.rows) and MP_OPT_GROUP_(c.output.rows). */
typedef struct mp_op_cmd {
  mp_op_flags f;
  mp_op_shared_opts shared;
  mp_op_output_opts output;
} mp_op_cmd;

/* Fills |c| for the command whose operation is |verb|
 * (mp_op_shared_opts_init). |c| must not move afterwards. */
void mp_op_cmd_init(mp_op_cmd *c, const char *verb);
void mp_op_cmd_destroy(mp_op_cmd *c);

/* Parses argv against |opts|; the command |name| ("up") takes no
 * arguments. Returns 0 to go on, or the exit status to end with. */
int mp_op_cmd_parse(mp_ctx *ctx, const char *name, const mp_cmd_help *help,
                    const mp_opt *opts, int argc, const char **argv);

/* Runs |kind| on the current stack: a preview (unless -f), the prompt
 * (unless --yes), then the operation; or only the preview when
 * |preview_cmd| (the `preview` command) or --preview-only. Returns the
 * exit status (0, 1, 2, 4, 6, 7, 8). */
/* The rows of the flags only the Automation API passes (op_automation.c),
 * writing into |f|; |rows| has room for 5. */
void mp_op_automation_opts_init(mp_opt *rows, mp_op_flags *f);

/* destroy --exclude-protected (exclude_protected.c): adds to f->excludes
 * every protected resource of |stack| and what it depends on,
 * transitively (provider, parent, dependencies, property dependencies,
 * deletedWith, a component dependency's earlier descendants), and sets
 * |*protected_n| to how many entries that is. Sets |*nothing_left| (and
 * says so) when they are all the stack has. Returns an exit status. */
int mp_cli_exclude_protected(mp_ctx *ctx, const char *stack, mp_op_flags *f,
                             size_t *protected_n, int *nothing_left);

int mp_cli_operation(mp_ctx *ctx, mp_deploy_kind kind, int preview_cmd,
                     mp_op_flags *f);

/* The program for an update: the project's language host, or the
 * language runtime served at |client| (--client; NULL: none). Sets *out
 * (owned; free through its vtable). Returns 0 or an MP_E code. */
int mp_cli_source_new(mp_ctx *ctx, const char *stack, const char *client,
                      mp_source **out, mp_err *err);

/* The plugin host of an operation on |stack| (plugin/plugin.h): the
 * project's `plugins.providers`, PATH and ~/.minipulumi/plugins, built-ins
 * first (made with |builtin|); plugins get |config| (may be NULL) as
 * PULUMI_CONFIG. Sets *out (mp_plugin_host_shutdown). Returns 0 or
 * MP_EIO. */
int mp_cli_plugin_host_new(mp_ctx *ctx, const char *stack,
                           const mp_value *config,
                           const mp_builtin_opts *builtin,
                           mp_plugin_host **out, mp_err *err);

/* Before a refresh (pending_creates.c): completes the pending creates
 * named in |imports| (URN, ID pairs) and, with |ask_user|, asks on the
 * terminal about each other one (clear, skip or import), writing the
 * snapshot back if anything changed. Returns an exit status. */
int mp_cli_pending_creates(mp_ctx *ctx, const mp_strv *imports, int ask_user);

#endif
