/* The policy packs of one operation, as Pulumi's engine loads them
 * (pkg/engine/plugins.go, loadPolicyPlugins): started on the operation's
 * plugin host before the deployment, which analyses with them
 * (mp_deploy_opts.policy_packs, deploy/policy.c), and stopped after it.
 * What they found reaches the CLI as the deployment's policy events; the
 * "Policies:" section is cli/policy_section.c's. */
#ifndef MP_CLI_POLICY_RUN_H
#define MP_CLI_POLICY_RUN_H

#include <stdio.h>

#include "cli/op_policy.h"
#include "engine/events.h"
#include "plugin/analyzer.h"

typedef struct mp_policy_run {
  mp_analyzer **packs;
  char **dirs; /* as given, for the display */
  char **names, **versions; /* GetAnalyzerInfo's, kept after the stop */
  unsigned char *failed; /* per pack: a call failed mid-run (kept at the stop) */
  size_t n;
  int refresh; /* Pulumi's summary lists no packs for a refresh */
  int show_remediations; /* --show-policy-remediations */
  /* The deployment's policy events, copied (loop thread, then the
   * display's end): violations and remediations, in order. */
  mp_policy_diags found;
  mp_strv problems; /* the configs' schema errors, Pulumi's lines */
  /* The summary event's PolicyPacks, as pairs: "<name>|local|<folder>",
   * version (none for a refresh or an import, as Pulumi). */
  mp_strv summary_packs;
} mp_policy_run;

void mp_policy_run_init(mp_policy_run *p);

/* Starts the packs of |f| on |h| (none: |out| stays empty). A pack that
 * cannot start fails with its name and stderr in |err|. A config that
 * fails its policies' schemas fails with MP_EINVAL ("validating policy
 * config") once every pack was tried, its errors in |out->problems|,
 * sorted, one line each, to print before. */
int mp_policy_run_start(mp_policy_run *out, const mp_op_policy *f,
                        mp_plugin_host *h, mp_err *err);

/* Keeps a copy of |ev| when it is a policy event, for the section. */
void mp_policy_run_event(mp_policy_run *p, const mp_event *ev);

/* The "Policies:" section as Pulumi prints it (|ud| an mp_policy_run;
 * nothing without packs, or in a refresh): each pack by name@vversion,
 * sorted, its remediations counted by policy, its violations by level,
 * policy and URN; a pack whose call failed mid-run (it crashed or hung)
 * is marked failed (❌), never passed. Returns whether a violation was
 * mandatory (the display then leaves out the Resources: summary, as
 * Pulumi). cli/policy_section.c. */
int mp_policy_run_print(void *ud, FILE *out);

/* Ends the packs' processes (after the deployment, before the plugin
 * host's shutdown), noting which failed mid-run. */
void mp_policy_run_stop(mp_policy_run *p);

/* Frees what |p| holds (after mp_policy_run_stop). */
void mp_policy_run_destroy(mp_policy_run *p);

#endif
