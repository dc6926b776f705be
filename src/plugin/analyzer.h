/* Policy packs as analyzer plugins (pulumirpc.Analyzer): a Node.js pack
 * runs as Pulumi runs it, `node <run-policy-pack> <engine address> .` in
 * the pack's folder, with run-policy-pack found in the node_modules of
 * the pack or of a folder above it; it prints its port. The engine then
 * calls GetAnalyzerInfo and Configure, and Analyze, Remediate and
 * AnalyzeStack during the deployment. Calls block the calling thread on
 * the plugin host's loop, as provider calls do (plugin/plugin.h). */
#ifndef MP_PLUGIN_ANALYZER_H
#define MP_PLUGIN_ANALYZER_H

#include "engine/err.h"
#include "engine/resource.h"
#include "engine/value.h"
#include "plugin/plugin.h"

/* Pulumi's enforcement levels, with its wire numbers. */
typedef enum mp_policy_level {
  MP_POLICY_ADVISORY = 0,
  MP_POLICY_MANDATORY = 1,
  MP_POLICY_DISABLED = 2,
  MP_POLICY_REMEDIATE = 3
} mp_policy_level;

/* "advisory", "mandatory", "disabled", "remediate". */
const char *mp_policy_level_name(mp_policy_level l);

/* One violation (or, with MP_POLICY_REMEDIATE, one remediation applied). */
typedef struct mp_policy_diag {
  char *policy, *pack, *pack_version, *description, *message, *urn;
  /* A remediation's change of the inputs' top-level keys, as Pulumi's
   * short diff ("+added-deleted~updated", "" for none); NULL otherwise. */
  char *diff;
  /* A remediation's inputs before and after it (owned; NULL otherwise),
   * for Pulumi's PolicyRemediationEvent. */
  mp_value *before, *after;
  mp_policy_level level;
} mp_policy_diag;

typedef struct mp_policy_diags {
  mp_policy_diag *items;
  size_t len, cap;
} mp_policy_diags;

void mp_policy_diags_destroy(mp_policy_diags *d);

typedef struct mp_analyzer mp_analyzer; /* opaque */

/* Starts the pack in folder |dir| on |h| and configures it: each policy
 * gets its config schema's defaults, overlaid with |config| (the
 * --policy-pack-config object: policy name -> {"enforcementLevel", ...}
 * or a level; "all" sets every policy's level), may be NULL. A pack that
 * cannot start or answers with an error fails with MP_EIO and a message
 * naming the pack and holding its stderr. The configured values of each
 * policy are checked against its config schema first, as Pulumi does: an
 * invalid one fails with MP_EINVAL ("validating policy config"), one line
 * per error appended to |problems| ("validating policy config: <pack>
 * <version>  <policy>: <error>"), and Configure is not called. A pack
 * that does not support config fails when |config| is given. Sets *out. */
int mp_analyzer_start(mp_plugin_host *h, const char *dir,
                      const mp_value *config, mp_strv *problems,
                      mp_analyzer **out, mp_err *err);

/* The pack's name and version, as GetAnalyzerInfo said. */
const char *mp_analyzer_name(const mp_analyzer *a);
const char *mp_analyzer_version(const mp_analyzer *a);

/* Whether a call of Analyze, Remediate or AnalyzeStack failed (the pack
 * crashed, hung or answered an error): the display marks the pack. Any
 * thread. */
int mp_analyzer_failed(const mp_analyzer *a);

/* A resource as the analyzer sees it. */
typedef struct mp_analyzer_resource {
  const char *urn, *type, *name, *parent;
  const mp_value *props; /* an OBJECT; NULL: empty */
  /* Its options (protect, ignoreChanges, additionalSecretOutputs,
   * aliases, customTimeouts) and, for AnalyzeStack, its dependencies and
   * property dependencies; NULL: none sent. */
  const mp_resource *state;
  int delete_before_replace; /* -1 unset, 0, 1 */
  /* Its provider resource (type, URN, name, inputs), or NULL. */
  const mp_resource *provider;
} mp_analyzer_resource;

/* Analyze: appends the violations to |out|. */
int mp_analyzer_analyze(mp_analyzer *a, const mp_analyzer_resource *r,
                        mp_policy_diags *out, mp_err *err);

/* Remediate: sets *props (owned) to the remediated inputs, or NULL when
 * no remediation changed them, and appends one MP_POLICY_REMEDIATE entry
 * per remediation applied to |out|; a remediation answered with a
 * diagnostic instead is appended as an MP_POLICY_ADVISORY violation (its
 * message the diagnostic), as Pulumi reports it. Not called when no policy of the
 * pack is configured at the remediate level. */
int mp_analyzer_remediate(mp_analyzer *a, const mp_analyzer_resource *r,
                          mp_value **props, mp_policy_diags *out,
                          mp_err *err);

/* AnalyzeStack of |n| resources. */
int mp_analyzer_analyze_stack(mp_analyzer *a, const mp_analyzer_resource *rs,
                              size_t n, mp_policy_diags *out, mp_err *err);

/* Ends the pack's process and frees |a|; NULL is fine. */
void mp_analyzer_stop(mp_analyzer *a);

#endif
