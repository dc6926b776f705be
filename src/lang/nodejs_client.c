/* The Run request for a caller's language runtime (`--client`): what
 * Pulumi's engine sends a language host, for the Automation API's
 * LanguageServer (sdk/nodejs/automation/server.ts), which reads the
 * project, stack, organization, dry-run, parallelism, the monitor's
 * address, the Engine's address as args[0], and the config. */
#include <stdlib.h>
#include <string.h>

#include "lang/nodejs.h"
#include "pulumi/language_run.pb-c.h"

int mp_nodejs_client_port(const char *client, int *port, mp_err *err) {
  const char *colon = client ? strrchr(client, ':') : NULL;
  char *end = NULL;
  long n = colon ? strtol(colon + 1, &end, 10) : 0;
  size_t host_len = colon ? (size_t)(colon - client) : 0;
  int local = colon && ((host_len == 9 && !strncmp(client, "127.0.0.1", 9)) ||
                        (host_len == 9 && !strncmp(client, "localhost", 9)) ||
                        host_len == 0);
  if (!local || end == colon + 1 || *end != '\0' || n <= 0 || n > 65535)
    return mp_err_set(err, MP_EINVAL,
                      "--client '%s': expected the address of a language "
                      "runtime on this host, 127.0.0.1:PORT",
                      client ? client : "");
  *port = (int)n;
  return 0;
}

int mp_nodejs_run_request(const mp_source_info *info, const char *pwd,
                          const char *addr, mp_buf *out, mp_err *err) {
  mp_value *strings = NULL, *keys = NULL;
  int rc = mp_nodejs_config_strings(info->config, &strings, &keys, err);
  if (rc < 0) return rc;
  size_t n = strings->u.obj.len;
  Pulumirpc__RunRequest__ConfigEntry *entries =
      mp_xcalloc(n ? n : 1, sizeof(*entries));
  Pulumirpc__RunRequest__ConfigEntry **eptrs =
      mp_xcalloc(n ? n : 1, sizeof(*eptrs));
  for (size_t i = 0; i < n; i++) {
    pulumirpc__run_request__config_entry__init(&entries[i]);
    entries[i].key = strings->u.obj.items[i].key;
    entries[i].value = strings->u.obj.items[i].value->u.str.ptr;
    eptrs[i] = &entries[i];
  }
  char **secret = mp_xcalloc(keys->u.arr.len + 1, sizeof(*secret));
  for (size_t i = 0; i < keys->u.arr.len; i++)
    secret[i] = keys->u.arr.items[i]->u.str.ptr;
  char *args[1] = {(char *)addr};
  Pulumirpc__RunRequest req = PULUMIRPC__RUN_REQUEST__INIT;
  req.project = (char *)info->project;
  req.stack = (char *)info->stack;
  req.organization =
      (char *)(info->organization ? info->organization : "organization");
  req.pwd = (char *)pwd;
  req.program = ".";
  req.n_args = 1;
  req.args = args;
  req.n_config = n;
  req.config = eptrs;
  req.dryrun = info->dry_run != 0;
  req.parallel = info->parallel;
  req.monitor_address = (char *)addr;
  req.n_configsecretkeys = keys->u.arr.len;
  req.configsecretkeys = secret;
  size_t len = pulumirpc__run_request__get_packed_size(&req);
  uint8_t *bytes = mp_xmalloc(len ? len : 1);
  pulumirpc__run_request__pack(&req, bytes);
  mp_buf_append(out, bytes, len);
  free(bytes);
  free(entries);
  free(eptrs);
  free(secret);
  mp_value_free(strings);
  mp_value_free(keys);
  return 0;
}

int mp_nodejs_run_response(const mp_buf *body, char **error, int *bail) {
  *error = NULL;
  *bail = 0;
  Pulumirpc__RunResponse *r = pulumirpc__run_response__unpack(
      NULL, body->len, (const uint8_t *)body->data);
  if (r == NULL) return MP_EPROTO;
  if (r->error && r->error[0]) *error = mp_xstrdup(r->error);
  *bail = r->bail;
  pulumirpc__run_response__free_unpacked(r, NULL);
  return 0;
}
