/* Methods of components (ResourceMonitor.Call): the CallRequest the
 * package's provider gets (Pulumi's pkg/resource/deploy/source_eval.go,
 * Call). The arguments, `__self__` among them as a resource reference, go
 * as the program sent them, with their dependencies; the provider's
 * CallResponse (return value, return dependencies, failures) goes back to
 * the program as it is. Loop thread. */
#include <stdlib.h>
#include <string.h>

#include "engine/pb_deps.h"
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
  mp_pb_deps deps;
  mp_pb_deps_copy(&m.base, "argDependencies", &q->base, "argDependencies",
                  &deps);
  mp_pb_pack(&m.base, out);
  mp_pb_deps_free(&deps);
  free(ce);
  free(cp);
  mp__monitor_info_destroy(&info);
  return 0;
}
