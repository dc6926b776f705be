/* Methods of components (ResourceMonitor.Call): the CallRequest the
 * package's provider gets (Pulumi's pkg/resource/deploy/source_eval.go,
 * Call). The arguments, `__self__` among them as a resource reference, go
 * as the program sent them, with their dependencies; the provider's
 * CallResponse (return value, return dependencies, failures) goes back to
 * the program as it is. Loop thread. */
#include <stdlib.h>
#include <string.h>

#include "engine/value_pb.h"
#include "monitor/monitor_int.h"

static char *s_or_empty(const char *s) { return (char *)(s ? s : ""); }

int mp__monitor_call_request(const mp_monitor_opts *o,
                             const Pulumirpc__ResourceCallRequest *q,
                             mp_buf *out, mp_err *err) {
  mp__monitor_info info;
  char *what = mp_xasprintf("call %s", q->tok);
  int rc = mp__monitor_info_init(&info, o, what, err);
  free(what);
  if (rc < 0) return rc;
  Pulumirpc__CallRequest m = PULUMIRPC__CALL_REQUEST__INIT;
  m.tok = s_or_empty(q->tok);
  m.args = q->args;
  m.project = s_or_empty(o->project);
  m.stack = s_or_empty(o->stack);
  m.organization = s_or_empty(o->organization);
  m.dryrun = o->preview != 0;
  m.parallel = o->parallel;
  m.monitorendpoint = (char *)info.endpoint;
  size_t nc = info.keys.len;
  Pulumirpc__CallRequest__ConfigEntry *ce = mp_xcalloc(nc ? nc : 1, sizeof(*ce));
  Pulumirpc__CallRequest__ConfigEntry **cp = mp_xcalloc(nc ? nc : 1, sizeof(*cp));
  for (size_t i = 0; i < nc; i++) {
    pulumirpc__call_request__config_entry__init(&ce[i]);
    ce[i].key = info.keys.items[i];
    ce[i].value = info.values.items[i];
    cp[i] = &ce[i];
  }
  m.n_config = nc;
  m.config = cp;
  m.n_configsecretkeys = info.secret_keys.len;
  m.configsecretkeys = info.secret_keys.items;
  size_t nd = q->n_argdependencies;
  Pulumirpc__CallRequest__ArgDependenciesEntry *de =
      mp_xcalloc(nd ? nd : 1, sizeof(*de));
  Pulumirpc__CallRequest__ArgDependenciesEntry **dp =
      mp_xcalloc(nd ? nd : 1, sizeof(*dp));
  Pulumirpc__CallRequest__ArgumentDependencies *ad =
      mp_xcalloc(nd ? nd : 1, sizeof(*ad));
  for (size_t i = 0; i < nd; i++) {
    const Pulumirpc__ResourceCallRequest__ArgDependenciesEntry *e =
        q->argdependencies[i];
    pulumirpc__call_request__arg_dependencies_entry__init(&de[i]);
    pulumirpc__call_request__argument_dependencies__init(&ad[i]);
    de[i].key = e->key;
    if (e->value) {
      ad[i].n_urns = e->value->n_urns;
      ad[i].urns = e->value->urns;
    }
    de[i].value = &ad[i];
    dp[i] = &de[i];
  }
  m.n_argdependencies = nd;
  m.argdependencies = dp;
  mp_pb_pack(&m.base, out);
  free(ce);
  free(cp);
  free(de);
  free(dp);
  free(ad);
  mp__monitor_info_destroy(&info);
  return 0;
}
