/* Another stack's outputs, for the builtin provider's StackReference
 * (deploy/builtins.h, mp_read_stack_fn): read from the same state store,
 * secrets opened with this command's passphrase. It is the CLI's because
 * it needs the store's URL and the stacks' passphrases.
 *
 * A read runs on a worker thread while the deployment writes through its
 * own connection, so it opens a connection of its own for each read. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/providers.h"
#include "cli/secrets.h"
#include "engine/crypto.h"
#include "engine/names.h"
#include "engine/urn.h"

static char *salt_of(const char *state) {
  cJSON *j = state ? cJSON_Parse(state) : NULL;
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "salt");
  char *out = cJSON_IsString(s) ? mp_xstrdup(s->valuestring) : NULL;
  cJSON_Delete(j);
  return out;
}

/* mp_read_stack_fn for |ud|, the deployment's mp_cli_providers. */
int mp_cli_read_stack_outputs(void *ud, const char *name, mp_value **out,
                              mp_err *err) {
  const mp_cli_providers *set = ud;
  *out = NULL;
  char *proj = NULL, *stack = NULL;
  /* "organization/<project>/<stack>", "organization/<stack>" or
   * "<stack>", as Pulumi's DIY backends parse it: "p1/dev" names
   * organization p1, which is refused, not this project's dev */
  int rc = mp_stack_ref_parse(name, set->project, &proj, &stack, err)
               ? MP_EINVAL
               : 0;
  mp_stack_ref ref = {proj, stack};
  mp_store *st = NULL;
  mp_passphrase *pp = NULL;
  mp_snapshot *snap = NULL;
  char *type = NULL, *state = NULL, *salt = NULL;
  if (rc == 0)
    rc = mp_store_open(set->url, &st, err);
  if (rc == 0) {
    rc = mp_store_stack_exists(st, ref, err);
    if (rc == 0)
      rc = mp_err_set(err, MP_ENOENT, "unknown stack \"%s\"", name);
    else if (rc == 1)
      rc = 0;
  }
  if (rc == 0) rc = mp_store_secrets_get(st, ref, &type, &state, err);
  if (rc == 0 && (salt = salt_of(state)) != NULL) {
    /* The other stack's secrets open with the passphrase this command was
     * given, as Pulumi's passphrase provider does. */
    char *phrase = NULL;
    if (mp_cli_passphrase_given()) rc = mp_cli_passphrase_env(&phrase, err);
    if (rc == 0) rc = mp_passphrase_open(salt, phrase, &pp, err);
    free(phrase);
  }
  mp_crypter c;
  if (pp) c = mp_passphrase_crypter(pp);
  if (rc == 0) rc = mp_store_load(st, ref, pp ? &c : NULL, &snap, err);
  if (rc == 0) {
    const mp_value *outs = NULL;
    for (size_t i = 0; i < snap->nres; i++)
      if (!snap->res[i]->delete_ &&
          strcmp(snap->res[i]->type, MP_ROOT_STACK_TYPE) == 0)
        outs = snap->res[i]->outputs;
    *out = outs ? mp_value_dup(outs) : mp_value_new_object();
  }
  mp_snapshot_free(snap);
  mp_passphrase_free(pp);
  mp_store_close(st);
  free(type);
  free(state);
  free(salt);
  free(proj);
  free(stack);
  return rc;
}
