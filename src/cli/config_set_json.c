/* `config set-all --json TEXT`: the values of a stack's config in the
 * format `config --json` prints, set in one write (Pulumi 3.199's
 * set-all --json): {"proj:key": {"value": "text", "objectValue": {...},
 * "secret": false}, ...}. "objectValue" (an object or array) wins over
 * "value"; a secret is encrypted with the stack's secrets provider. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli/config_cmd.h"
#include "cli/config_values.h"
#include "cli/secrets.h"

/* The value of one entry |e| of key |key|: a plain value in *out, or the
 * text to encrypt in *secret_text (owned). */
static int entry_value(const char *key, const cJSON *e, mp_value **out,
                       char **secret_text, mp_err *err) {
  if (!cJSON_IsObject(e))
    return mp_err_set(err, MP_EINVAL,
                      "--json: the entry of '%s' must be an object with "
                      "\"value\" or \"objectValue\"",
                      key);
  const cJSON *val = cJSON_GetObjectItemCaseSensitive(e, "value");
  const cJSON *obj = cJSON_GetObjectItemCaseSensitive(e, "objectValue");
  const cJSON *sec = cJSON_GetObjectItemCaseSensitive(e, "secret");
  if (sec && !cJSON_IsBool(sec))
    return mp_err_set(err, MP_EINVAL, "--json: \"secret\" of '%s' must be "
                                      "true or false", key);
  int secret = cJSON_IsTrue(sec);
  if (obj && !cJSON_IsNull(obj)) {
    if (!cJSON_IsObject(obj) && !cJSON_IsArray(obj))
      return mp_err_set(err, MP_EINVAL, "--json: \"objectValue\" of '%s' "
                                        "must be an object or an array", key);
    if (secret)
      return mp_err_set(err, MP_EINVAL,
                        "--json: '%s' is a secret objectValue, which "
                        "minipulumi cannot store encrypted as a whole; set "
                        "its leaves with `config set --path --secret`",
                        key);
    char *text = cJSON_PrintUnformatted(obj);
    int rc = mp_value_from_json(text, strlen(text), NULL, out, err);
    cJSON_free(text);
    return rc;
  }
  if (!cJSON_IsString(val))
    return mp_err_set(err, MP_EINVAL, "--json: '%s' needs a string \"value\" "
                                      "or an \"objectValue\"", key);
  if (secret) *secret_text = mp_xstrdup(val->valuestring);
  else *out = mp_value_new_cstring(val->valuestring);
  return 0;
}

int mp_cfg_set_json(mp_cfg_cmd *c, const char *text, mp_err *err) {
  cJSON *doc = cJSON_Parse(text);
  if (!cJSON_IsObject(doc)) {
    cJSON_Delete(doc);
    return mp_err_set(err, MP_EINVAL,
                      "--json: not a JSON object of config keys (the format "
                      "of `minipulumi config --json`)");
  }
  int rc = 0;
  mp_passphrase *pp = NULL;
  const cJSON *e;
  cJSON_ArrayForEach(e, doc) {
    mp_value *v = NULL;
    char *secret = NULL, *full = NULL, *rest = NULL;
    rc = mp_cli_config_key(c->ctx, e->string, 0, &full, &rest, err);
    if (rc) mp_err_prefix(err, "invalid configuration key '%s'", e->string);
    if (!rc) rc = entry_value(e->string, e, &v, &secret, err);
    if (!rc && secret && !pp)
      rc = mp_cli_secrets(c->ctx, c->stack, &c->file, MP_SECRETS_CREATE, &pp,
                          err);
    if (!rc && secret)
      rc = mp_cli_config_encrypt(pp, secret, strlen(secret), &v, err);
    if (!rc) rc = mp_cfg_put(c, full, rest, v, err);
    else mp_value_free(v);
    if (secret) memset(secret, 0, strlen(secret));
    free(secret);
    free(full);
    free(rest);
    if (rc) break;
  }
  cJSON_Delete(doc);
  return rc;
}
