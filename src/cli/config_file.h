/* The stack configuration file `Pulumi.<stack>.yaml`, kept where and how
 * Pulumi keeps it:
 *
 *   encryptionsalt: v1:...
 *   config:
 *     proj:name: value
 *     proj:password:
 *       secure: v1:...
 *     aws:region: us-west-2
 *
 * The whole document is held as a value tree whose scalars are strings
 * (plain null scalars become NULL values), so unknown top-level keys
 * survive a rewrite. Read and written through lang/ynode.h, the one YAML
 * wrapper, in a stable layout: known keys first (secretsprovider,
 * encryptedkey, encryptionsalt, config), the rest sorted; strings YAML
 * would read as something else are double-quoted. */
#ifndef MP_CLI_CONFIG_FILE_H
#define MP_CLI_CONFIG_FILE_H

#include "engine/err.h"
#include "engine/value.h"

typedef struct mp_stack_config {
  char *path;    /* the file, owned */
  mp_value *doc; /* OBJECT: the top-level mapping, owned, never NULL */
  int locked;    /* 1 while |lock_fd| holds the file's lock */
  int lock_fd;
  int created; /* the lock created the (empty) file; no save yet */
} mp_stack_config;

/* Loads |path| into |c| (caller storage) for reading. A missing file gives
 * an empty document; so does a NULL |path| (no project folder: then open
 * locks nothing and save writes nothing). Returns 0, MP_EIO (unreadable) or MP_EINVAL (not
 * YAML, or not a mapping; the message names the file, line and column). */
int mp_stack_config_load(const char *path, mp_stack_config *c, mp_err *err);
/* Loads |path| for a read-modify-write: takes an exclusive lock on the
 * file first (flock; waits for other writers, here or in other
 * processes), then reads it, so that no update is lost. The lock is held
 * until mp_stack_config_destroy. Never open the same file twice in one
 * process (the second open would wait forever). Returns as
 * mp_stack_config_load, or MP_EIO when the file cannot be locked. */
int mp_stack_config_open(const char *path, mp_stack_config *c, mp_err *err);
/* Writes the document back to c->path (through a temporary file and a
 * rename, so a crash never leaves half a file). 0 or MP_EIO. */
int mp_stack_config_save(mp_stack_config *c, mp_err *err);
/* Records |salt| as `encryptionsalt` in |c| and in the file. A |c| that is
 * not locked is not written whole (it may be stale): the file is locked,
 * read again and given the salt only. 0 or an MP_E code. */
int mp_stack_config_save_salt(mp_stack_config *c, const char *salt,
                              mp_err *err);
/* Frees |c| and releases its lock. */
void mp_stack_config_destroy(mp_stack_config *c);

/* The `config` mapping, created if absent (borrowed). */
mp_value *mp_stack_config_values(mp_stack_config *c);
/* `encryptionsalt` or NULL (borrowed). */
const char *mp_stack_config_salt(const mp_stack_config *c);
void mp_stack_config_set_salt(mp_stack_config *c, const char *salt);

/* 1 if |v| is a `{secure: "v1:..."}` object. */
int mp_config_is_secure(const mp_value *v);
/* The ciphertext of a secure object (borrowed). */
const char *mp_config_secure_text(const mp_value *v);

#endif
