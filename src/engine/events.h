/* Engine events: what the deployment reports to the display and to the
 * JSON output (Pulumi's EngineEvent shapes; tests/conformance/README.md
 * says how the scenarios read them). Emitted
 * on the loop thread, in order; the sink must not block for long. */
#ifndef MP_EVENTS_H
#define MP_EVENTS_H

#include <stdint.h>

#include "engine/op.h"
#include "engine/resource.h"
#include "engine/value.h"

typedef enum mp_event_kind {
  MP_EVENT_PRELUDE = 0,   /* config */
  MP_EVENT_RESOURCE_PRE,  /* a step starts (or is planned, in preview) */
  MP_EVENT_RES_OUTPUTS,   /* a step finished */
  MP_EVENT_RES_OP_FAILED, /* a step failed */
  MP_EVENT_DIAGNOSTIC,
  MP_EVENT_SUMMARY,
  MP_EVENT_CANCEL,
  MP_EVENT_POLICY_VIOLATION,  /* a policy pack's violation */
  MP_EVENT_POLICY_REMEDIATION /* a policy pack changed a resource's inputs */
} mp_event_kind;

/* The step metadata of resource events (Pulumi's StepEventMetadata). */
typedef struct mp_step_meta {
  mp_step_op op;
  const char *urn;
  const char *type;
  const mp_resource *old; /* may be NULL */
  const mp_resource *new_; /* may be NULL */
  const mp_strv *keys;    /* replace keys, may be NULL */
  const mp_strv *diffs;   /* changed keys, may be NULL */
  const mp_diff *detailed_diff; /* may be NULL */
  int logical;  /* 1 for the step that represents the resource's logical op */
  const char *provider; /* provider reference, may be NULL */
} mp_step_meta;

/* A policy pack's finding (Pulumi's PolicyViolationEventPayload and
 * PolicyRemediationEventPayload). */
typedef struct mp_policy_finding {
  const char *policy, *pack, *pack_version;
  const char *level;       /* VIOLATION: "advisory", "mandatory" */
  const char *description; /* VIOLATION: the policy's */
  /* REMEDIATION: its change of the inputs' top-level keys, as Pulumi's
   * short diff ("~special", "" for none), and the inputs it was given
   * and those it made. */
  const char *diff;
  const mp_value *before, *after;
} mp_policy_finding;

typedef struct mp_event {
  mp_event_kind kind;
  uint64_t sequence; /* 1, 2, ... */
  double timestamp;  /* unix seconds */
  int preview;       /* planning (preview) rather than doing */
  /* PRELUDE */
  const mp_value *config;
  /* RESOURCE_PRE / RES_OUTPUTS / RES_OP_FAILED */
  mp_step_meta meta;
  /* DIAGNOSTIC (urn may be NULL) and RES_OP_FAILED (message) */
  const char *urn;
  const char *severity; /* "debug", "info", "warning", "error" */
  const char *message;
  /* SUMMARY */
  int64_t counts[MP_OP__COUNT];
  double duration_seconds;
  const char *result; /* "succeeded", "failed", "canceled" */
  /* The policy packs that ran, as pairs: policy_packs[2i] the pack's
   * name for events, [2i+1] its version (Pulumi's PolicyPacks). */
  const char *const *policy_packs;
  size_t n_policy_packs;
  /* POLICY_VIOLATION (|message| the policy's) and POLICY_REMEDIATION;
   * |urn| the resource's, NULL for the stack's own findings. */
  const mp_policy_finding *policy;
} mp_event;

typedef void (*mp_event_sink)(void *ud, const mp_event *ev);

#endif
