#include "cli/update_info.h"
#include "engine/prog_name.h"
#include "cli/operation.h"
#include "cli/policy_run.h"
#include "cli/plugins.h"
#include "cli/import_file_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "plugin/cache.h"
#include "plugin/http_get.h"
#include "cli/config_values.h"
#include "cli/display.h"
#include "cli/event_stream.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/providers.h"
#include "cli/render.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "deploy/import_source.h"
#include "deploy/plan_file.h"
#include "lang/nodejs.h"

_Static_assert(_Generic((sig_atomic_t)0, int: 1, default: 0),
               "mp_deploy_opts.interrupt points at ctx->interrupt");

void mp_op_flags_init(mp_op_flags *f) {
  memset(f, 0, sizeof(*f));
  mp_strv_init(&f->targets);
  mp_strv_init(&f->excludes);
  mp_strv_init(&f->replaces);
  mp_strv_init(&f->target_replaces);
  mp_strv_init(&f->config);
  mp_strv_init(&f->attach_debugger);
  mp_op_policy_init(&f->policy);
}

void mp_op_flags_destroy(mp_op_flags *f) {
  mp_strv_destroy(&f->targets);
  mp_strv_destroy(&f->excludes);
  mp_strv_destroy(&f->replaces);
  mp_strv_destroy(&f->target_replaces);
  mp_strv_destroy(&f->config);
  mp_strv_destroy(&f->attach_debugger);
  mp_op_policy_destroy(&f->policy);
}

void mp_op_shared_opts_init(mp_op_shared_opts *t, mp_op_flags *f,
                            const char *verb) {
  snprintf(t->target_help, sizeof(t->target_help), "%s only this resource",
           verb);
  snprintf(t->dependents_help, sizeof(t->dependents_help),
           "also %s the targets' dependents", verb);
  const mp_opt rows[] = {
      MP_OPT_BOOL_(0, "diff", &f->diff, "show the property changes of each step"),
      MP_OPT_BOOL_('j', "json", &f->json, "print engine events as JSON, one per line"),
      MP_OPT_STR_(0, "event-log", &f->event_log, "file", "also write engine events to this file"),
      MP_OPT_INT_('p', "parallel", &f->parallel, "n", "resource operations to run at once"),
      MP_OPT_LIST_('t', "target", &f->targets, "urn", t->target_help),
      MP_OPT_BOOL_(0, "target-dependents", &f->target_dependents, t->dependents_help),
      MP_OPT_LIST_('x', "exclude", &f->excludes, "urn", "leave this resource alone"),
      MP_OPT_BOOL_(0, "exclude-dependents", &f->exclude_dependents, "also leave the excluded resources' dependents alone"),
      MP_OPT_STR_('m', "message", &f->message, "text", "a message for the history"),
      MP_OPT_BOOL_(0, "show-secrets", &f->show_secrets, "show secret values in the output"),
      MP_OPT_BOOL_(0, "show-sames", &f->show_sames, "show resources that don't need to be updated"),
      MP_OPT_BOOL_(0, "show-reads", &f->show_reads, "show resources that are being read in, alongside those being managed directly in the stack"),
      MP_OPT_BOOL_(0, "show-replacement-steps", &f->show_replacement_steps, "show the steps of a replacement (create-replacement, delete-replaced)"),
      MP_OPT_BOOL_(0, "suppress-outputs", &f->suppress_outputs, "don't show the stack's outputs"),
      MP_OPT_BOOL_(0, "suppress-progress", &f->suppress_progress, "don't redraw the table in place; print one line per step"),
      MP_OPT_BOOL_(0, "serial-stepgen", &f->serial_stepgen, "make Check and Diff one resource at a time (to compare)"),
      MP_OPT_GROUP_(t->automation_rows),
      MP_OPT_GROUP_(t->policy_rows),
      MP_OPT_END_};
  mp_op_automation_opts_init(t->automation_rows, f);
  mp_op_policy_rows(t->policy_rows, &f->policy);
  _Static_assert(sizeof(rows) == sizeof(t->rows), "mp_op_shared_opts.rows");
  memcpy(t->rows, rows, sizeof(rows));
}

/* ==== the event sink ==== */

typedef struct sink {
  mp_display *display;
  mp_preview_digest *digest;
  FILE *json;      /* --json event stream, or NULL */
  FILE *event_log; /* --event-log FILE, or NULL */
  int *event_log_errno;          /* set to the first failed write's errno */
  mp_event_stream *event_stream; /* --event-log tcp://..., or NULL */
  unsigned flags;  /* mp_render_flags */
  uint64_t last_sequence; /* of the last event seen */
  double last_timestamp;
  int saw_cancel;
  mp_import_file_out *import_out; /* preview --import-file, or NULL */
  mp_policy_run *policy; /* the packs, or NULL */
} sink;

/* Keeps the first write error of the event log, reported once the
 * operation is over (its state is saved whatever the log's fate). */
static void log_written(sink *s, int why) {
  if (why && *s->event_log_errno == 0)
    *s->event_log_errno = why;
}

/* The deployment's version_in_range: Pulumi's version ranges, on the
 * plugin cache's semver. */
static int version_in_range(const char *range, const char *version,
                            mp_err *err) {
  mp_semver v;
  if (mp_semver_parse(version, &v, err) < 0) return err->code;
  int in = mp_semver_in_range(range, &v, err);
  if (in < 0) {
    char *why = mp_xstrdup(err->msg);
    mp_err_set(err, MP_EINVAL, "parsing CLI version range \"%s\": %s", range,
               why);
    free(why);
    return MP_EINVAL;
  }
  return in;
}

static void on_event(void *ud, const mp_event *in) {
  sink *s = ud;
  mp_event with_packs = *in, *ev = &with_packs;
  if (s->policy) mp_policy_run_event(s->policy, ev);
  if (ev->kind == MP_EVENT_SUMMARY && s->policy) {
    ev->policy_packs = (const char *const *)s->policy->summary_packs.items;
    ev->n_policy_packs = s->policy->summary_packs.len / 2;
  }
  if (s->display) mp_display_event(s->display, ev);
  if (s->digest) mp_preview_digest_add(s->digest, ev);
  if (s->import_out) mp_import_file_out_add(s->import_out, ev);
  if (s->json) mp_cli_event_write(s->json, ev, s->flags);
  if (s->event_log)
    log_written(s, mp_cli_event_write(s->event_log, ev, s->flags));
  if (s->event_stream) mp_event_stream_send(s->event_stream, ev, s->flags);
  s->last_sequence = ev->sequence;
  s->last_timestamp = ev->timestamp;
  if (ev->kind == MP_EVENT_CANCEL) s->saw_cancel = 1;
}

/* Pulumi's engine ends every operation's event stream with a cancelEvent
 * (`defer ... NewCancelEvent()`), whether or not it was cancelled; the JSON
 * stream and the event log show it as their last line. */
static void end_event_stream(sink *s) {
  if (s->saw_cancel || (!s->json && !s->event_log && !s->event_stream))
    return;
  mp_event ev;
  memset(&ev, 0, sizeof(ev));
  ev.kind = MP_EVENT_CANCEL;
  ev.sequence = s->last_sequence + 1;
  ev.timestamp = s->last_timestamp > 0 ? s->last_timestamp : (double)time(NULL);
  on_event(s, &ev);
}

/* The policy configs' schema errors: Pulumi's engine reports each as an
 * error diagnostic event (loadPolicyPlugins), before the operation fails
 * with "validating policy config"; the display has not started. */
static void problem_events(sink *s, const mp_strv *problems) {
  for (size_t i = 0; i < problems->len; i++) {
    mp_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.kind = MP_EVENT_DIAGNOSTIC;
    ev.sequence = s->last_sequence + 1;
    ev.timestamp = (double)time(NULL);
    ev.severity = "error";
    ev.message = problems->items[i];
    if (s->json) mp_cli_event_write(s->json, &ev, s->flags);
    if (s->event_log)
      log_written(s, mp_cli_event_write(s->event_log, &ev, s->flags));
    if (s->event_stream) mp_event_stream_send(s->event_stream, &ev, s->flags);
    s->last_sequence = ev.sequence;
    s->last_timestamp = ev.timestamp;
  }
}

/* ==== one run ==== */

typedef struct run {
  mp_ctx *ctx;
  mp_deploy_kind kind;
  const char *stack;
  mp_op_flags *f;
  mp_value *config;
  mp_passphrase *pp;
  mp_crypter crypter;
  mp_strv targets; /* --target plus --target-replace */
  mp_strv replaces; /* --replace plus --target-replace */
  FILE *event_log;
  int event_log_errno; /* the first write to |event_log| that failed */
  mp_event_stream *event_stream; /* --event-log tcp://..., or NULL */
  mp_builtin_opts builtin; /* the built-in providers' host options */
  size_t protected_n; /* destroy --exclude-protected: the entries it keeps */
} run;

static const char *kind_noun(mp_deploy_kind k, const mp_op_flags *f) {
  if (f->import) return "import";
  return k == MP_DEPLOY_REFRESH ? "refresh"
         : k == MP_DEPLOY_DESTROY ? "destroy"
                                  : "update";
}

static const char *doing_header(mp_deploy_kind k, const mp_op_flags *f) {
  if (f->import) return "Importing";
  return k == MP_DEPLOY_REFRESH ? "Refreshing"
         : k == MP_DEPLOY_DESTROY ? "Destroying"
                                  : "Updating";
}

static mp_color_mode resolve_color(const mp_ctx *ctx) {
  if (ctx->color_mode != MP_COLOR_AUTO) return ctx->color_mode;
  const char *nc = getenv("NO_COLOR");
  return ctx->stdout_tty && !(nc && *nc) ? MP_COLOR_ALWAYS : MP_COLOR_NEVER;
}

/* The plan a deployment records (preview --save-plan) or keeps to (up
 * --plan: read again for each run, which uses up its steps), or NULL. */
static int plan_open(run *r, int dry_run, mp_plan **out, mp_err *err) {
  *out = NULL;
  if (r->f->plan)
    return mp_plan_file_read(r->f->plan, r->pp ? &r->crypter : NULL, out,
                             err);
  if (dry_run && r->f->save_plan) *out = mp_plan_new(0);
  return 0;
}

/* Runs one deployment (|dry_run| or not) with its display. The display
 * is kept in *display_out when not NULL (for the prompt's details). |last|:
 * the command ends after it, so its memory may be left to the exit
 * (mp_ctx.leave_memory). */
static int deploy_once(run *r, int dry_run, int digest_mode, int last,
                       mp_display **display_out, mp_deploy_result *res,
                       mp_err *err) {
  mp_ctx *ctx = r->ctx;
  int leave = ctx->leave_memory && last;
  sink s = {0};
  char *header = NULL;
  mp_source *src = NULL;
  mp_policy_run policy; /* the packs start before any step */
  mp_policy_run_init(&policy);
  /* Pulumi: "Refresh and Import do not execute Policy Packs" (none listed) */
  policy.refresh = r->kind == MP_DEPLOY_REFRESH || r->f->import != NULL;
  policy.show_remediations = r->f->show_policy_remediations;
  s.flags = r->f->show_secrets ? MP_RENDER_SHOW_SECRETS : 0;
  s.event_log = r->event_log;
  s.event_log_errno = &r->event_log_errno;
  s.event_stream = r->event_stream;
  if (dry_run && r->f->output.import_file)
    s.import_out = mp_import_file_out_new();
  ctx->previewing = dry_run;
  if (digest_mode) {
    s.digest = mp_preview_digest_new(s.flags);
  } else if (r->f->json) {
    s.json = ctx->out;
  } else {
    header = dry_run ? mp_xasprintf("Previewing %s (%s)", kind_noun(r->kind, r->f), r->stack)
                     : mp_xasprintf("%s (%s)", doing_header(r->kind, r->f), r->stack);
    int live = ctx->stdout_tty && !r->f->suppress_progress;
    mp_display_opts o = {.out = ctx->out,
                         .header = header,
                         .preview = dry_run,
                         .tty = live,
                         .color = resolve_color(ctx),
                         .show_diff = r->f->diff,
                         .show_secrets = r->f->show_secrets,
                         .interrupt = &ctx->interrupt,
                         .cancel_told = &ctx->cancel_told,
                         .interrupt_signal = &ctx->interrupt_signal,
                         .show_sames = r->f->show_sames,
                         .show_reads = r->f->show_reads,
                         .show_replacement_steps = r->f->show_replacement_steps,
                         .suppress_outputs = r->f->suppress_outputs,
                         .show_debug = r->f->output.debug,
                         .print_policies = mp_policy_run_print,
                         .print_policies_ud = &policy};
    s.display = mp_display_new(&o);
    /* a live table prints the cancelling line itself (main.c) */
    ctx->display_live = live && !r->f->diff;
  }
  int rc = 0;
  mp_plugin_host *plugins = NULL;
  if (r->kind == MP_DEPLOY_UPDATE && r->f->import)
    src = mp_import_source_new(r->f->import);
  else if (r->kind == MP_DEPLOY_UPDATE || r->f->run_program)
    rc = mp_cli_source_new(ctx, r->stack, r->f->client, &src, err);
  /* A YAML program's nodes go once analysed; its state is memory only. */
  int memory_only = last && mp_yaml_source_last_use(src);
  if (rc == 0) rc = mp_cli_plugin_host_new(ctx, r->stack, r->config,
                                           &r->builtin, &plugins, err);
  mp_cli_providers provs;
  mp_cli_providers_init(&provs, ctx, plugins, &r->builtin);
  if (rc == 0) {
    rc = mp_policy_run_start(&policy, &r->f->policy, plugins, err);
    if (rc == 0 && policy.n) s.policy = &policy;
    problem_events(&s, &policy.problems);
    for (size_t i = 0; !s.json && i < policy.problems.len; i++)
      mp_cli_error(ctx, 0, "%s", policy.problems.items[i]);
    if (policy.problems.len) end_event_stream(&s);
  }
  /* what the history entry keeps (cli/update_info.h) */
  char *env_json = NULL, *config_json = NULL;
  if (rc == 0 && !dry_run) {
    char *path = ctx->config_file ? mp_xstrdup(ctx->config_file)
                                  : mp_cli_stack_config_path(ctx, r->stack);
    env_json = mp_cli_update_environment(ctx, r->f->exec_kind,
                                         r->f->exec_agent);
    config_json = mp_cli_update_config(path);
    free(path);
  }
  if (rc == 0) {
    mp_deploy_opts o = {0};
    o.kind = r->kind;
    o.dry_run = dry_run;
    o.store = ctx->store;
    o.stack = mp_cli_ref(ctx, r->stack);
    o.crypter = r->pp ? &r->crypter : NULL;
    o.source = src;
    o.providers = mp_cli_providers_factory(&provs);
    o.config = r->config;
    o.root_dir = ctx->project->dir;
    o.organization = "organization";
    o.asset_fetch = mp_http_fetch_asset;
    o.asset_fetch_ud = (void *)&ctx->http.opts;
    char pulumi_version[96];
    mp_cli_version_text(pulumi_version, sizeof(pulumi_version));
    o.pulumi_version = pulumi_version;
    o.version_in_range = version_in_range;
    o.parallel = r->f->parallel;
    o.steps.targets = r->targets.len ? &r->targets : NULL;
    o.steps.excludes = r->f->excludes.len ? &r->f->excludes : NULL;
    o.steps.replaces = r->replaces.len ? &r->replaces : NULL;
    o.steps.target_dependents = r->f->target_dependents;
    o.steps.exclude_dependents = r->f->exclude_dependents;
    o.continue_on_error = r->f->continue_on_error;
    o.serial_stepgen = r->f->serial_stepgen;
    o.debug = r->f->output.debug;
    o.steps.ignore_protect = r->f->ignore_protect;
    o.steps.import_only = r->f->import != NULL;
    if (r->f->import) {
      o.steps.import_properties = mp_import_properties_of;
      o.steps.import_properties_ud = (void *)r->f->import;
    }
    o.refresh_first = r->f->refresh;
    o.run_program = r->f->run_program;
    o.clear_pending_creates = r->f->clear_pending_creates;
    o.skip_pending_creates = r->f->skip_pending_creates;
    o.message = r->f->message;
    o.update_environment = env_json;
    o.update_config = config_json;
    o.sink = on_event;
    o.sink_ud = &s;
    o.event_text = mp_cli_event_record;
    o.interrupt = &ctx->interrupt;
    o.leave_memory = leave;
    o.verify_snapshot = !ctx->no_integrity;
    o.log = &ctx->log;
    o.policy_packs = policy.packs;
    o.n_policy_packs = policy.n;
    rc = plan_open(r, dry_run, &o.plan, err);
    if (rc == 0) rc = mp_deploy_run(&o, res, err);
    end_event_stream(&s);
    if (rc == 0 && !res->failed && o.plan && !o.plan->applying) {
      /* the plan keeps the stack's config, as Pulumi's Plan.Config */
      char *path = ctx->config_file ? mp_xstrdup(ctx->config_file)
                                    : mp_cli_stack_config_path(ctx, r->stack);
      char *plan_config = mp_cli_update_config(path);
      free(path);
      rc = mp_plan_file_write(o.plan, r->f->save_plan, plan_config, o.crypter,
                              err);
      free(plan_config);
    }
    mp_plan_free(o.plan);
  }
  free(env_json);
  free(config_json);
  mp_cli_providers_destroy(&provs);
  /* A Node.js host has a server to stop. */
  if (src && !(leave && memory_only)) src->vt->free(src);
  mp_policy_run_stop(&policy);
  mp_plugin_host_shutdown(plugins);
  if (s.display) {
    ctx->display_live = 0;
    if (rc == 0) mp_display_finish(s.display);
    /* Left to the exit only once finish has stopped its ticker thread. */
    if (display_out) *display_out = s.display;
    else if (!leave || rc != 0) mp_display_free(s.display);
  }
  if (s.digest) {
    if (rc == 0) mp_preview_digest_print(s.digest, ctx->out);
    mp_preview_digest_free(s.digest);
  }
  if (s.import_out && rc == 0 && !res->failed)
    rc = mp_import_file_out_write(s.import_out, r->f->output.import_file, err);
  mp_import_file_out_free(s.import_out);
  mp_policy_run_destroy(&policy);
  free(header);
  return rc;
}

/* The exit status of an mp_deploy_run error. */
static int run_error_status(mp_ctx *ctx, int rc, const mp_err *err) {
  int status = rc == MP_EINVAL     ? MP_EXIT_CONFIG
               : rc == MP_ECANCELED ? MP_EXIT_CANCELLED
                                    : MP_EXIT_ERROR;
  return mp_cli_fail(ctx, status, err);
}

static int result_status(const mp_deploy_result *res) {
  if (res->canceled) return MP_EXIT_CANCELLED;
  if (res->step_failed) return MP_EXIT_RESOURCE;
  if (res->failed) return MP_EXIT_ERROR;
  return 0;
}

/* yes / no / details: on a terminal Pulumi's arrow-key menu, its focus on
 * "no" (confirmBeforeUpdating in pkg/backend/apply.go), else a typed
 * answer. Returns 1 to go on, 0 when declined. */
static int confirm(run *r, mp_display *preview) {
  char q[96], answer[64];
  static const char *const choices[] = {"yes", "no", "details"};
  int menu = r->ctx->stdin_tty && r->ctx->stdout_tty;
  snprintf(q, sizeof(q), menu ? "Do you want to perform this %s?"
                              : "Do you want to perform this %s? [yes/no/details]",
           kind_noun(r->kind, r->f));
  for (;;) {
    size_t pick = 1;
    if (menu && mp_cli_select(r->ctx, q, choices, 3, 1, &pick) != 0) return 0;
    if (!menu && mp_cli_prompt(r->ctx, q, answer, sizeof(answer)) != 0)
      return 0;
    if (!menu)
      pick = !strcmp(answer, "yes") || !strcmp(answer, "y")       ? 0
             : !strcmp(answer, "details") || !strcmp(answer, "d") ? 2
             : !strcmp(answer, "no") || !strcmp(answer, "n") || !*answer ? 1
                                                                         : 3;
    if (pick == 0) return 1;
    if (pick == 1) return 0;
    if (pick == 2 && preview) mp_display_details(preview);
  }
}

/* --parallel, else MINIPULUMI_PARALLEL (or Pulumi's PULUMI_PARALLEL) when
 * it is a positive number, else the engine's default. */
static int resolve_parallel(int flag) {
  if (flag > 0) return flag;
  const char *env = getenv("MINIPULUMI_PARALLEL");
  if (env == NULL) env = getenv("PULUMI_PARALLEL");
  if (env && atoi(env) > 0) return atoi(env);
  return mp_deploy_default_parallel();
}

/* Provider calls run on libuv's worker pool: 4 threads unless
 * UV_THREADPOOL_SIZE says otherwise when libuv first uses the pool, which
 * is after this (nothing before a deployment calls libuv). Sized for
 * |parallel| calls, and as many again for each of the two writes of a
 * file:// or bucket stack that steps may wait on with their slots given
 * back (the one under way and the next: stepexec.c); libuv's cap is
 * 1024. A size the user set wins, and with `up --refresh` the first of
 * the process's deployments decides. */
static void size_thread_pool(int parallel) {
  char threads[16];
  long n = 3L * parallel;
  snprintf(threads, sizeof(threads), "%ld", n < 4 ? 4 : n > 1024 ? 1024 : n);
  setenv("UV_THREADPOOL_SIZE", threads, 0);
}

static int skip_confirmations(void) {
  const char *s = getenv("PULUMI_SKIP_CONFIRMATIONS");
  return s && (!strcmp(s, "1") || !strcmp(s, "true"));
}

/* Loads config, the state crypter and the event log. Exit status. */
static int prepare(run *r) {
  mp_ctx *ctx = r->ctx;
  mp_err err;
  mp_err_clear(&err);
  /* The passphrase first: asked for, or refused, before anything runs.
   * Given in the environment, its key is derived on a thread of its own
   * while the configuration, the program and the snapshot load; the
   * deployment checks it (the crypter's ready) before it runs anything. */
  int mode = MP_SECRETS_FOR_STATE |
             (mp_cli_passphrase_given() ? MP_SECRETS_CREATE : MP_SECRETS_NOW);
  if (mp_cli_secrets(ctx, r->stack, NULL, mode, &r->pp, &err))
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  if (r->pp) mp_passphrase_derive_ahead(r->pp);
  if (mp_cli_config_apply_pairs(ctx, r->stack, &r->f->config,
                                r->f->config_path, &err) ||
      mp_cli_config_build(ctx, r->stack, &r->config, &err))
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  if (r->pp) r->crypter = mp_passphrase_crypter(r->pp);
  r->builtin.test_world = getenv("MINIPULUMI_TEST_WORLD");
  for (size_t i = 0; i < r->f->targets.len; i++)
    mp_strv_push(&r->targets, r->f->targets.items[i]);
  for (size_t i = 0; i < r->f->replaces.len; i++)
    mp_strv_push(&r->replaces, r->f->replaces.items[i]);
  for (size_t i = 0; i < r->f->target_replaces.len; i++) {
    mp_strv_push(&r->targets, r->f->target_replaces.items[i]);
    mp_strv_push(&r->replaces, r->f->target_replaces.items[i]);
  }
  int port;
  if (r->f->client && mp_nodejs_client_port(r->f->client, &port, &err))
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  if (mp_event_stream_is_tcp(r->f->event_log)) {
    if (mp_event_stream_open(r->f->event_log, &r->event_stream, &err))
      return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  } else if (r->f->event_log) {
    r->event_log = fopen(r->f->event_log, "w");
    if (!r->event_log)
      return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot open event log '%s': %m",
                          r->f->event_log);
  }
  return 0;
}

static void run_destroy(run *r) {
  mp_value_free(r->config);
  mp_strv_destroy(&r->targets);
  mp_strv_destroy(&r->replaces);
  if (r->event_log) fclose(r->event_log);
}

/* The file of --event-log is closed now; an event that could not be
 * written (a full disk, /dev/full) fails the command, though the
 * operation itself went through. Returns |status| or an error status. */
static int close_event_log(run *r, int status) {
  FILE *f = r->event_log;
  r->event_log = NULL;
  int why = r->event_log_errno;
  if (fflush(f) != 0 && why == 0)
    why = errno ? errno : EIO;
  if (fclose(f) != 0 && why == 0)
    why = errno ? errno : EIO;
  if (why == 0)
    return status;
  int failed = mp_cli_error(r->ctx, MP_EXIT_ERROR,
                            "cannot write the event log '%s': %s; events are "
                            "missing from it (the operation's state is saved)",
                            r->f->event_log, strerror(why));
  return status ? status : failed;
}

/* How long a tcp:// --event-log server may take, once the operation is
 * over, to read the rest of the events and answer (a server that never
 * reads must not hold the command for ever). */
#define EVENT_STREAM_END_MS 30000

/* The stream of a tcp:// --event-log ends now, before the command exits;
 * a SIGINT or SIGTERM during the wait stops it at once. Returns |status|,
 * or an error status if the events could not be sent. */
static int send_event_stream(run *r, int status) {
  mp_err err;
  mp_err_clear(&err);
  mp_event_stream *s = r->event_stream;
  r->event_stream = NULL;
  int rc =
      mp_event_stream_close(s, &r->ctx->interrupt, EVENT_STREAM_END_MS, &err);
  if (rc == 0)
    return status;
  int failed = mp_cli_fail(
      r->ctx, rc == MP_ECANCELED ? MP_EXIT_CANCELLED : MP_EXIT_ERROR, &err);
  return status ? status : failed;
}

/* destroy --remove: the stack and its config file go too. */
static int remove_stack(run *r) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_stack_remove(r->ctx->store, mp_cli_ref(r->ctx, r->stack), 0,
                            &err))
    return mp_cli_fail(r->ctx, MP_EXIT_ERROR, &err);
  char *path = mp_cli_stack_config_path(r->ctx, r->stack);
  unlink(path);
  free(path);
  if (!r->f->json)
    fprintf(r->ctx->out, "The resources in the stack have been deleted, and "
                         "the history and configuration removed.\n");
  return 0;
}

/* After a destroy that succeeded (Pulumi's destroy.go): with
 * --exclude-protected keeping something, that is said and the stack
 * stays; otherwise, unless --target named what to destroy, the stack is
 * removed (--remove) or the user told how. */
static int destroy_done(run *r) {
  mp_op_flags *f = r->f;
  if (r->protected_n > 0) {
    if (!f->json)
      fprintf(r->ctx->out,
              "All unprotected resources were destroyed. There are still "
              "%zu protected resources associated with this stack.\n",
              r->protected_n);
    return 0;
  }
  if (f->targets.len > 0) return 0;
  if (f->remove) return remove_stack(r);
  if (!f->json)
    fprintf(r->ctx->out,
            "The resources in the stack have been deleted, but the history "
            "and configuration associated with the stack are still "
            "maintained.\nIf you want to remove the stack completely, run "
            "`%s stack rm %s`.\n",
            mp_prog_name(), r->stack);
  return 0;
}

/* up --strict (Pulumi's UpdateOptions.Strict with GeneratePlan): the
 * preview records a plan into a temporary file, and the update runs with
 * it as with --plan. An explicit --plan is already such a constraint. */
static int perform_plain(run *r, int preview_cmd);
static int perform(run *r, int preview_cmd) {
  mp_op_flags *f = r->f;
  if (!f->strict || f->plan || preview_cmd) return perform_plain(r, preview_cmd);
  const char *tmp = getenv("TMPDIR");
  char *path = mp_xasprintf("%s/minipulumi-strict-plan-XXXXXX",
                            tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) {
    int status = mp_cli_error(r->ctx, MP_EXIT_ERROR,
                              "--strict: cannot make a temporary plan file "
                              "'%s': %s",
                              path, strerror(errno));
    free(path);
    return status;
  }
  close(fd);
  f->save_plan = path;
  f->strict_plan = path;
  int status = perform_plain(r, preview_cmd);
  f->save_plan = NULL;
  f->plan = NULL;
  f->strict_plan = NULL;
  unlink(path);
  free(path);
  return status;
}

static int perform_plain(run *r, int preview_cmd) {
  mp_ctx *ctx = r->ctx;
  mp_op_flags *f = r->f;
  mp_deploy_result res;
  mp_err err;
  mp_display *preview = NULL;
  int status = 0, rc;
  mp_err_clear(&err);
  int only_preview = preview_cmd || f->preview_only;
  int yes = f->yes || f->skip_preview || skip_confirmations();
  /* The plugins the program asks for, before anything runs (Pulumi's
   * EnsurePluginsAreInstalled); the snapshot's come when loaded. */
  if (r->kind == MP_DEPLOY_UPDATE && !f->import)
    mp_cli_plugins_preinstall(ctx, r->stack, f->json ? ctx->err : ctx->out);
  if (!f->skip_preview || only_preview) {
    memset(&res, 0, sizeof(res));
    int digest = only_preview && f->json;
    rc = deploy_once(r, 1, digest, only_preview,
                     only_preview ? NULL : &preview, &res, &err);
    if (rc) {
      mp_display_free(preview);
      return run_error_status(ctx, rc, &err);
    }
    status = result_status(&res);
    if (status == 0 && only_preview && f->expect_no_changes && res.changes > 0)
      status = mp_cli_error(ctx, MP_EXIT_CHANGES,
                            "no changes were expected but changes were "
                            "proposed");
    if (status || only_preview) {
      mp_display_free(preview);
      return status;
    }
    if (!yes && !confirm(r, preview)) {
      mp_display_free(preview);
      /* Pulumi's FprintBailf: the plain message on stdout, exit 1. */
      fprintf(ctx->out, "confirmation declined, not proceeding with the %s\n",
              kind_noun(r->kind, r->f));
      fflush(ctx->out);
      return MP_EXIT_ERROR;
    }
    mp_display_free(preview);
  }
  if (f->strict_plan) { /* the update keeps to the preview's plan */
    f->save_plan = NULL;
    f->plan = f->strict_plan;
  }
  memset(&res, 0, sizeof(res));
  if ((rc = deploy_once(r, 0, 0, 1, NULL, &res, &err)))
    return run_error_status(ctx, rc, &err);
  if ((status = result_status(&res))) return status;
  if (f->expect_no_changes && res.changes > 0)
    return mp_cli_error(ctx, MP_EXIT_CHANGES,
                        "no changes were expected but changes occurred");
  return r->kind == MP_DEPLOY_DESTROY ? destroy_done(r) : 0;
}

int mp_cli_operation(mp_ctx *ctx, mp_deploy_kind kind, int preview_cmd,
                     mp_op_flags *f) {
  /* Pulumi marks the flags mutually exclusive; its flag-group error is an
   * unclassified one (exit 1), raised before anything else runs. */
  if (f->targets.len > 0 && f->excludes.len > 0)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "if any flags in the group [target exclude] are set "
                        "none of the others can be; [exclude target] were "
                        "all set");
  if (f->strict && f->skip_preview)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "--strict cannot be used with --skip-preview; "
                        "strict requires a preview");
  /* Pulumi starts the program (and source plugins) for an IDE's debug
   * adapter to attach to; minipulumi has no debug adapter protocol. */
  if (f->attach_debugger.len)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "--attach-debugger is not supported: minipulumi "
                        "cannot start the program or its plugins under a "
                        "debugger; run the program's runtime with its own "
                        "debugger flags (e.g. NODE_OPTIONS=--inspect) "
                        "instead");
  ctx->config_file = f->config_file;
  int status = mp_op_output_check(ctx, &f->output);
  if (status == 0) status = mp_op_policy_check(ctx, &f->policy);
  if (status) return status;
  mp_cli_secrets_head_start(ctx);
  char *stack = NULL;
  /* up and preview offer a new stack when none is selected, as Pulumi's
   * (stackOfferNew); refresh and destroy choose among the existing */
  ctx->offer_new_stack = kind == MP_DEPLOY_UPDATE;
  status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (status) return status;
  if (f->output.show_config && !f->json) mp_op_output_show_config(ctx, stack);
  int only_preview = preview_cmd || f->preview_only;
  int interactive = mp_cli_interactive(ctx) && !f->json;
  int yes = f->yes || f->skip_preview || skip_confirmations();
  mp_err err;
  mp_err_clear(&err);
  /* Before the preview, not after it at the lock. */
  if (!only_preview && mp_store_writable(ctx->store, &err)) {
    free(stack);
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  if (!only_preview && !interactive && !yes) {
    free(stack);
    return mp_cli_need_yes(ctx);
  }
  size_t protected_n = 0;
  if (kind == MP_DEPLOY_DESTROY && f->exclude_protected) {
    int nothing_left = 0;
    status = f->targets.len > 0
                 ? mp_cli_error(ctx, MP_EXIT_ERROR,
                                "you cannot specify --target and "
                                "--exclude-protected")
                 : mp_cli_exclude_protected(ctx, stack, f, &protected_n,
                                            &nothing_left);
    if (status || nothing_left) {
      free(stack);
      return status;
    }
  }
  f->parallel = resolve_parallel(f->parallel);
  size_thread_pool(f->parallel);
  const char *serial = getenv("MINIPULUMI_SERIAL_STEPGEN");
  if (serial && serial[0] && strcmp(serial, "0") != 0) f->serial_stepgen = 1;
  run r = {.ctx = ctx, .kind = kind, .stack = stack, .f = f,
           .protected_n = protected_n};
  mp_strv_init(&r.targets);
  mp_strv_init(&r.replaces);
  status = prepare(&r);
  /* Providers run in the program's folder, as Pulumi's plugins do: a
   * relative path in a local:index:File, or a command's default `dir`,
   * means the same whatever folder minipulumi was started from. */
  if (status == 0 && chdir(ctx->project->program_dir) != 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "cannot change to the program's folder '%s': %m",
                          ctx->project->program_dir);
  if (status == 0) status = perform(&r, preview_cmd);
  if (r.event_stream) status = send_event_stream(&r, status);
  if (r.event_log)
    status = close_event_log(&r, status);
  run_destroy(&r);
  free(stack);
  return status;
}

void mp_op_cmd_init(mp_op_cmd *c, const char *verb) {
  mp_op_flags_init(&c->f);
  mp_op_shared_opts_init(&c->shared, &c->f, verb);
  mp_op_output_opts_init(&c->output, &c->f.output);
}

void mp_op_cmd_destroy(mp_op_cmd *c) { mp_op_flags_destroy(&c->f); }

int mp_op_cmd_parse(mp_ctx *ctx, const char *name, const mp_cmd_help *help,
                    const mp_opt *opts, int argc, const char **argv) {
  mp_strv pos;
  mp_strv_init(&pos);
  int rc = mp_args_parse(ctx, help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, name, &pos, 0, 0);
  mp_strv_destroy(&pos);
  return rc ? mp_args_exit_status(rc) : 0;
}
