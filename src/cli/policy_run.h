/* The policy packs of one deployment (issue 27): started before it, on
 * the operation's plugin host; the step generator's hook (Remediate,
 * then Analyze, of every pack, after each resource's Check) and the
 * deployment's stack analysis; then the "Policies:" section and the
 * --json policy events. */
#ifndef MP_CLI_POLICY_RUN_H
#define MP_CLI_POLICY_RUN_H

#include <pthread.h>
#include <stdio.h>

#include "cli/op_policy.h"
#include "deploy/deploy.h"
#include "plugin/analyzer.h"

typedef struct mp_policy_run {
  mp_analyzer **packs;
  char **dirs; /* as given, for the display */
  char **names, **versions; /* GetAnalyzerInfo's, kept after the stop */
  size_t n;
  int refresh; /* Pulumi's summary lists no packs for a refresh */
  int show_remediations; /* --show-policy-remediations */
  pthread_mutex_t mu; /* guards |found|: the generator thread adds */
  mp_policy_diags found; /* violations and remediations, in order */
  unsigned char *failed; /* per pack: a call failed (crashed, hung); |mu| */
  mp_strv problems; /* the configs' schema errors, Pulumi's lines */
  /* The summary event's PolicyPacks, as pairs: "<name>|local|<folder>",
   * version (none for a refresh or an import, as Pulumi). */
  mp_strv summary_packs;
} mp_policy_run;

void mp_policy_run_init(mp_policy_run *p);

/* Starts the packs of |f| on |h| (none: |out| stays empty, hooks unset).
 * A pack that cannot start fails with its name and stderr in |err|. A
 * config that fails its policies' schemas fails with MP_EINVAL
 * ("validating policy config") once every pack was tried, its errors in
 * |out->problems|, sorted, one line each, to print before. */
int mp_policy_run_start(mp_policy_run *out, const mp_op_policy *f,
                        mp_plugin_host *h, mp_err *err);

/* Sets |o|'s hooks when there are packs. */
void mp_policy_run_hook(mp_policy_run *p, mp_deploy_opts *o);

/* Whether a mandatory violation was found. */
int mp_policy_run_mandatory(mp_policy_run *p);

/* The "Policies:" section as Pulumi prints it (|ud| an mp_policy_run;
 * nothing without packs, or in a refresh): each pack by name@vversion,
 * sorted, its remediations counted by policy, its violations by level,
 * policy and URN; a pack whose call failed mid-run (it crashed or hung)
 * is marked failed (❌), never passed. Returns whether a violation was mandatory
 * (the display then leaves out the Resources: summary, as Pulumi). */
int mp_policy_run_print(void *ud, FILE *out);

/* How many findings there are so far (the generator's thread adds). */
size_t mp_policy_run_count(mp_policy_run *p);

/* One policyEvent (or policyRemediationEvent) JSON line per finding
 * [from, to), numbered from |first_seq|, at |timestamp|. */
void mp_policy_run_json(mp_policy_run *p, size_t from, size_t to, FILE *f,
                        uint64_t first_seq, double timestamp);

/* Ends the packs' processes (before the plugin host's shutdown). */
void mp_policy_run_stop(mp_policy_run *p);

/* Frees what |p| holds (after mp_policy_run_stop). */
void mp_policy_run_destroy(mp_policy_run *p);

#endif
