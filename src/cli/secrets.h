/* The stack's secrets (secrets.c) and the passphrases that unlock them
 * (passphrase.c), above the workspace (workspace.h). */
#ifndef MP_CLI_SECRETS_H
#define MP_CLI_SECRETS_H

#include <stddef.h>

#include "cli/config_file.h"
#include "cli/ctx.h"
#include "engine/crypto.h"
#include "engine/err.h"
#include "engine/snapshot.h"

enum mp_cli_secrets_mode {
  MP_SECRETS_EXISTING = 0,     /* NULL in *out when the stack has none */
  MP_SECRETS_CREATE = 1 << 0,  /* create a salt if the stack has none */
  MP_SECRETS_FOR_STATE = 1 << 1, /* prefer the store's salt (the snapshot's) */
  /* Get the passphrase now when the stack has a salt (an operation must
   * not fail halfway for want of it); by default it is read when the first
   * secret is encrypted or decrypted. */
  MP_SECRETS_NOW = 1 << 2
};

/* The stack's passphrase manager. The salt comes from `encryptionsalt` in
 * |cfg| (loaded here if NULL) or from the store's secrets state; a side
 * that lacks it gets it written. Creating needs PULUMI_CONFIG_PASSPHRASE(
 * _FILE). Managers are cached in |ctx| (key derivation is slow) and owned
 * by it. Returns 0 or an MP_E code with |err| set. */
int mp_cli_secrets(mp_ctx *ctx, const char *stack, mp_stack_config *cfg,
                   int mode, mp_passphrase **out, mp_err *err);
/* Loads the stack's snapshot, decrypting with the stack's passphrase
 * manager; *crypter is that manager's crypter when *has_crypter. Returns
 * an exit status. */
int mp_cli_load_snapshot(mp_ctx *ctx, const char *stack, mp_snapshot **out,
                         mp_crypter *crypter, int *has_crypter);
/* A fresh salt state (owned) from a new passphrase (mp_cli_passphrase_new);
 * its manager is cached in |ctx|. */
int mp_cli_secrets_new_salt(mp_ctx *ctx, char **salt, mp_err *err);
/* The (cached) manager for a salt state "v1:...". */
int mp_cli_passphrase_for_salt(mp_ctx *ctx, const char *salt,
                               mp_passphrase **out, mp_err *err);
/* A head start on the passphrase's key, for the commands that deploy: the
 * stack's salt is found from the head of Pulumi.yaml and the store, before
 * the project is loaded, and its key is derived on a thread while the
 * project loads (mp_passphrase_derive_ahead). Silent and best effort:
 * mp_cli_secrets finds the manager in the cache, or makes the right one
 * when the guess was wrong. Only with the passphrase in the environment. */
void mp_cli_secrets_head_start(mp_ctx *ctx);
/* Records |salt| as the stack's secrets state in the store. */
int mp_cli_secrets_adopt(mp_ctx *ctx, const char *stack, const char *salt,
                         mp_err *err);
/* ---- passphrases (passphrase.c) ---- */

/* 1 if the user gave a passphrase: PULUMI_CONFIG_PASSPHRASE is set (even
 * empty), or PULUMI_CONFIG_PASSPHRASE_FILE is set and not empty. */
int mp_cli_passphrase_given(void);
/* The passphrase the environment gives (mp_passphrase_resolve over the two
 * variables). Owned in *out. Returns 0 or an MP_E code. */
int mp_cli_passphrase_env(char **out, mp_err *err);
/* A passphrase for a new salt (owned): from the environment, else asked
 * twice without echo on a terminal until both agree, else MP_ENOENT with
 * Pulumi's `passphrase must be set with ...` message. */
int mp_cli_passphrase_new(mp_ctx *ctx, char **out, mp_err *err);
/* A manager for the existing |salt| of |stack|: the passphrase from the
 * environment (checked on first use), else asked without echo on a
 * terminal until it unlocks the salt, else MP_ENOENT as above. */
int mp_cli_passphrase_unlock(mp_ctx *ctx, const char *salt,
                             const char *stack, mp_passphrase **out,
                             mp_err *err);
/* Asks |question| followed by ": " and reads one line without echo when
 * stdin is a terminal. Returns 0, or -1 on end of input or interrupt. */
int mp_cli_prompt_secret(mp_ctx *ctx, const char *question, char *answer,
                         size_t size);

/* Releases the cached managers. */
void mp_cli_secrets_release(mp_ctx *ctx);

#endif
