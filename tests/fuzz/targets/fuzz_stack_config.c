/* A stack's config file, Pulumi.<stack>.yaml, and the secrets in it: the
 * file read as every command reads it (config_file.h), its salt state
 * parsed, every value decoded for the program as `up` does, secure ones
 * decrypted with the fuzz passphrase. A file read must save and read back
 * to the same document. */
#include <stdlib.h>

#include "cli/config_file.h"
#include "cli/config_values.h"
#include "fuzz_util.h"

static void decode_all(const mp_stack_config *cfg) {
  const mp_value *vals = mp_value_object_get(cfg->doc, "config");
  mp_err err;
  for (size_t i = 0; vals && i < vals->u.obj.len; i++) {
    mp_value *v = NULL;
    if (mp_cli_config_decode(vals->u.obj.items[i].value, fuzz_passphrase(),
                             &v, &err) == 0)
      mp_value_free(v);
  }
}

/* The salt state as a stack's manager opens it (the key is derived only
 * when used, which this does not). */
static void open_salt(const mp_stack_config *cfg) {
  const char *salt = mp_stack_config_salt(cfg);
  mp_passphrase *pp = NULL;
  mp_err err;
  if (salt && mp_passphrase_open(salt, NULL, &pp, &err) == 0)
    mp_passphrase_free(pp);
}

static void save_and_read(mp_stack_config *cfg) {
  mp_err err;
  mp_stack_config again;
  FUZZ_CHECK(mp_stack_config_save(cfg, &err) == 0, "a config file read does "
                                                   "not save");
  FUZZ_CHECK(mp_stack_config_load(cfg->path, &again, &err) == 0,
             "a saved config file does not read back");
  FUZZ_CHECK(mp_value_equal(cfg->doc, again.doc, 0),
             "a config file changed on a save");
  mp_stack_config_destroy(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *path = fuzz_write_file("Pulumi.dev.yaml", data, size);
  mp_stack_config cfg;
  mp_err err;
  if (mp_stack_config_load(path, &cfg, &err) == 0) {
    open_salt(&cfg);
    decode_all(&cfg);
    save_and_read(&cfg);
    mp_stack_config_destroy(&cfg);
  }
  free(path);
  return 0;
}
