/* What the `config` subcommands share (config_cmd.c, called by the
 * cmd_config*.c files): one stack's Pulumi.<stack>.yaml, opened for
 * reading or writing. */
#ifndef MP_CLI_CONFIG_CMD_H
#define MP_CLI_CONFIG_CMD_H

#include <cjson/cJSON.h>

#include "cli/config_file.h"
#include "cli/ctx.h"
#include "engine/err.h"
#include "engine/value.h"

typedef struct mp_cfg_cmd { /* Owner: the subcommand running. */
  mp_ctx *ctx;
  char *stack;
  mp_stack_config file;
  int loaded;
} mp_cfg_cmd;

/* Loads the file of |stack| (NULL: the current stack), which must exist; a
 * command that writes it (|write|) holds the file's lock until
 * mp_cfg_close, so parallel writers never lose each other's keys. Returns
 * an exit status (reported). Call mp_cfg_close in every case. */
int mp_cfg_open(mp_ctx *ctx, const char *stack, mp_cfg_cmd *c, int write);
void mp_cfg_close(mp_cfg_cmd *c);
/* Sets |v| (owned, freed on error) at the full key |full| or, with
 * |rest|, at that path below it. Returns 0 or an MP_E code. */
int mp_cfg_put(mp_cfg_cmd *c, const char *full, const char *rest, mp_value *v,
               mp_err *err);
/* Removes the user key |key| (a path with |path|). Returns 0 or MP_E. */
int mp_cfg_remove(mp_cfg_cmd *c, const char *key, int path, mp_err *err);
/* A value typed on the command line for a place below a key (Pulumi's
 * rule): `true`/`false` a bool, an integer without a leading zero a
 * number, anything else a string. Owned. */
mp_value *mp_cfg_path_value(const char *text);
/* `config set-all --json TEXT` (config_set_json.c): sets every entry of
 * |text|, the JSON `config --json` prints, in |c|. Returns 0 or MP_E. */
int mp_cfg_set_json(mp_cfg_cmd *c, const char *text, mp_err *err);
/* The file's values, an object of full key -> value (owned): decrypted
 * when |decrypt|, else each secret is a secret "[secret]". Returns an exit
 * status (reported). */
int mp_cfg_decode_all(mp_cfg_cmd *c, int decrypt, mp_value **out);

/* Pulumi's entry of `config --json` and `config get --json` for |v|: its
 * value is left out of a secret unless |show| or |with_value|. */
cJSON *mp_cfg_entry_json(const mp_value *v, int show, int with_value);

#endif
