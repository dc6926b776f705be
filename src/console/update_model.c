/* One update as the console shows it (model.h, mp_console_update): its
 * history entry, and its steps, diagnostics and policy violations drawn
 * from the engine events the store kept with it (store.h,
 * mp_store_events). A step starts at its resourcePreEvent and ends at the
 * resOutputsEvent or resOpFailedEvent of the same resource and operation;
 * one with no end yet is running. The longest chain is walked back from
 * the step that ended last, each time to the step it waited for
 * (dependencies and parent, kept with the event) that ended last: the
 * chain of steps that set the update's length. */
#include <stdlib.h>
#include <string.h>

#include "console/model.h"

static const char *str_at(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *name_of(const char *urn) {
  const char *p = urn ? strstr(urn, "::") : NULL;
  const char *last = urn;
  while (p) {
    last = p + 2;
    p = strstr(last, "::");
  }
  return last ? last : "";
}

static cJSON *find_step(cJSON *steps, const char *urn, const char *op) {
  cJSON *s;
  cJSON_ArrayForEach(s, steps) {
    if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(s, "endMs")))
      continue;
    const char *u = str_at(s, "urn"), *o = str_at(s, "op");
    if (u && urn && !strcmp(u, urn) && o && op && !strcmp(o, op)) return s;
  }
  return NULL;
}

static void step_start(cJSON *steps, const cJSON *meta, const cJSON *mine,
                       int64_t ms) {
  cJSON *s = cJSON_CreateObject();
  const char *urn = str_at(meta, "urn");
  cJSON_AddNumberToObject(s, "index", cJSON_GetArraySize(steps));
  cJSON_AddStringToObject(s, "urn", urn ? urn : "");
  cJSON_AddStringToObject(s, "type", str_at(meta, "type") ? str_at(meta, "type") : "");
  cJSON_AddStringToObject(s, "name", name_of(urn));
  cJSON_AddStringToObject(s, "op", str_at(meta, "op") ? str_at(meta, "op") : "");
  cJSON_AddNumberToObject(s, "startMs", (double)ms);
  cJSON_AddNullToObject(s, "endMs");
  cJSON_AddStringToObject(s, "status", "running");
  const char *diff = str_at(mine, "diff");
  if (diff) cJSON_AddStringToObject(s, "diff", diff);
  else cJSON_AddNullToObject(s, "diff");
  const cJSON *w = cJSON_GetObjectItemCaseSensitive(mine, "waitsFor");
  cJSON_AddItemToObject(s, "waitsFor", cJSON_IsArray(w)
                                           ? cJSON_Duplicate(w, 1)
                                           : cJSON_CreateArray());
  cJSON_AddFalseToObject(s, "critical");
  cJSON_AddItemToArray(steps, s);
}

static void step_end(cJSON *steps, const cJSON *meta, int64_t ms, int failed) {
  cJSON *s = find_step(steps, str_at(meta, "urn"), str_at(meta, "op"));
  if (s == NULL) return; /* an end without a start: a same's outputs */
  cJSON_ReplaceItemInObjectCaseSensitive(s, "endMs",
                                         cJSON_CreateNumber((double)ms));
  cJSON_ReplaceItemInObjectCaseSensitive(
      s, "status", cJSON_CreateString(failed ? "failed" : "done"));
}

static double num_at(const cJSON *o, const char *key, double dflt) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* Marks the longest chain; |now| stands for the end of running steps. */
static void mark_chain(cJSON *steps, double now) {
  cJSON *at = NULL;
  double best = -1;
  cJSON *s;
  cJSON_ArrayForEach(s, steps) {
    double end = num_at(s, "endMs", now);
    if (end > best) best = end, at = s;
  }
  int guard = cJSON_GetArraySize(steps);
  while (at && guard-- > 0) {
    cJSON_ReplaceItemInObjectCaseSensitive(at, "critical", cJSON_CreateTrue());
    double start = num_at(at, "startMs", 0);
    const cJSON *waits = cJSON_GetObjectItemCaseSensitive(at, "waitsFor");
    cJSON *next = NULL;
    best = -1;
    cJSON_ArrayForEach(s, steps) {
      if (s == at || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "critical")))
        continue;
      double end = num_at(s, "endMs", now);
      if (end > start + 1 || end <= best) continue; /* not waited for */
      const char *urn = str_at(s, "urn");
      const cJSON *w;
      cJSON_ArrayForEach(w, waits) {
        if (cJSON_IsString(w) && urn && !strcmp(w->valuestring, urn)) {
          best = end, next = s;
          break;
        }
      }
    }
    at = next;
  }
}

static void add_diag(cJSON *diags, const cJSON *d) {
  cJSON *o = cJSON_CreateObject();
  const char *urn = str_at(d, "urn");
  cJSON_AddStringToObject(o, "severity", str_at(d, "severity") ? str_at(d, "severity") : "");
  if (urn) cJSON_AddStringToObject(o, "urn", urn);
  else cJSON_AddNullToObject(o, "urn");
  cJSON_AddStringToObject(o, "message", str_at(d, "message") ? str_at(d, "message") : "");
  cJSON_AddItemToArray(diags, o);
}

static void add_policy(cJSON *pol, const cJSON *p) {
  cJSON *o = cJSON_CreateObject();
  static const char *const keys[] = {"resourceUrn", "policyPackName",
                                     "policyName", "enforcementLevel",
                                     "message"};
  for (size_t i = 0; i < MP_ARRAY_LEN(keys); i++) {
    const char *v = str_at(p, keys[i]);
    cJSON_AddStringToObject(o, keys[i], v ? v : "");
  }
  cJSON_AddItemToArray(pol, o);
}

/* Steps, diagnostics, policy violations and the summary into |o|. */
static void from_events(cJSON *o, const mp_update_event *ev, size_t n,
                        int running) {
  cJSON *steps = cJSON_AddArrayToObject(o, "steps");
  cJSON *diags = cJSON_AddArrayToObject(o, "diagnostics");
  cJSON *pol = cJSON_AddArrayToObject(o, "policyViolations");
  cJSON *summary = NULL;
  double first = 0, last = 0;
  for (size_t i = 0; i < n; i++) {
    cJSON *j = cJSON_Parse(ev[i].json);
    if (j == NULL) continue;
    if (i == 0) first = (double)ev[i].time_ms;
    last = (double)ev[i].time_ms;
    const cJSON *x;
    if ((x = cJSON_GetObjectItemCaseSensitive(j, "resourcePreEvent")))
      step_start(steps, cJSON_GetObjectItemCaseSensitive(x, "metadata"),
                 cJSON_GetObjectItemCaseSensitive(j, "minipulumi"),
                 ev[i].time_ms);
    else if ((x = cJSON_GetObjectItemCaseSensitive(j, "resOutputsEvent")))
      step_end(steps, cJSON_GetObjectItemCaseSensitive(x, "metadata"),
               ev[i].time_ms, 0);
    else if ((x = cJSON_GetObjectItemCaseSensitive(j, "resOpFailedEvent")))
      step_end(steps, cJSON_GetObjectItemCaseSensitive(x, "metadata"),
               ev[i].time_ms, 1);
    else if ((x = cJSON_GetObjectItemCaseSensitive(j, "diagnosticEvent")))
      add_diag(diags, x);
    else if ((x = cJSON_GetObjectItemCaseSensitive(j, "policyEvent")))
      add_policy(pol, x);
    else if ((x = cJSON_GetObjectItemCaseSensitive(j, "summaryEvent"))) {
      cJSON_Delete(summary);
      summary = cJSON_Duplicate(x, 1);
    }
    cJSON_Delete(j);
  }
  /* a finished update's unended steps did not end (a crash, a cancel) */
  cJSON *s;
  cJSON_ArrayForEach(s, steps) {
    if (!running && !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(s, "endMs")))
      cJSON_ReplaceItemInObjectCaseSensitive(s, "status",
                                             cJSON_CreateString("unfinished"));
  }
  mark_chain(steps, last);
  cJSON_AddItemToObject(o, "summary", summary ? summary : cJSON_CreateNull());
  cJSON_AddNumberToObject(o, "eventCount", (double)n);
  if (n) {
    cJSON_AddNumberToObject(o, "firstEventMs", first);
    cJSON_AddNumberToObject(o, "lastEventMs", last);
  } else {
    cJSON_AddNullToObject(o, "firstEventMs");
    cJSON_AddNullToObject(o, "lastEventMs");
  }
}

cJSON *mp_console_update(const mp_console_src *src, mp_stack_ref st,
                         int64_t version, mp_err *err) {
  cJSON *hist = mp_console_history(src, st, err);
  if (hist == NULL) return NULL;
  mp_update_event *ev = NULL;
  size_t n = 0;
  if (mp_store_events(src->store, st, version, &ev, &n, err)) {
    cJSON_Delete(hist);
    return NULL;
  }
  cJSON *o = NULL, *u;
  cJSON_ArrayForEach(u, hist) {
    if (num_at(u, "version", -1) == (double)version) {
      o = cJSON_Duplicate(u, 1);
      break;
    }
  }
  /* file:// records an update in its history only once it ends: a
   * running one is known by its events alone */
  if (o == NULL && n > 0) {
    o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "version", (double)version);
    cJSON_AddStringToObject(o, "kind", "update");
    cJSON_AddStringToObject(o, "result", "in-progress");
    cJSON_AddStringToObject(o, "message", "");
  }
  cJSON_Delete(hist);
  if (o == NULL) {
    mp_update_events_free(ev, n);
    mp_err_set(err, MP_ENOENT, "no update %lld of stack '%s/%s'",
               (long long)version, st.project, st.name);
    return NULL;
  }
  cJSON_AddStringToObject(o, "project", st.project);
  cJSON_AddStringToObject(o, "stack", st.name);
  const char *result = str_at(o, "result");
  int running = result && !strcmp(result, "in-progress");
  cJSON_AddBoolToObject(o, "running", running);
  from_events(o, ev, n, running);
  mp_update_events_free(ev, n);
  return o;
}
