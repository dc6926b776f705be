/* The state backend and the logins that choose it, the home folders, and
 * reading a file whole (backend_url.c; mp_cli_home_path and
 * mp_cli_env_true are in plugin_dirs.c). */
#ifndef MP_CLI_BACKEND_H
#define MP_CLI_BACKEND_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cli/ctx.h"
#include "state/store.h"

/* The bytes of file |path| (owned, NUL-terminated; *len its length), or
 * NULL with errno set if it cannot be read. */
char *mp_cli_read_file(const char *path, size_t *len);
/* Writes |text| and a newline to |path|. Returns 0 or MP_EIO with "could
 * not write the <what> '<path>': <reason>". */
int mp_cli_write_text_file(const char *path, const char *text,
                           const char *what, mp_err *err);
/* The state backend's URL (owned): --backend, else MINIPULUMI_BACKEND_URL
 * or PULUMI_BACKEND_URL, else the login remembered in
 * ~/.minipulumi/credentials.json, else the Pulumi CLI's current login,
 * else ~/.minipulumi/state.db. *source (owned, if not NULL) says where it
 * came from ("the --backend flag", "the Pulumi login in <file>", ...).
 * Returns an exit status. */
int mp_cli_backend_url(mp_ctx *ctx, char **url, char **source);
/* The first of MINIPULUMI_BACKEND_URL and PULUMI_BACKEND_URL that is set:
 * 1 with *name and *url (borrowed from the environment), else 0. */
int mp_cli_env_backend(const char **name, const char **url);
/* ~/.minipulumi/state.db (owned), creating ~/.minipulumi. Exit status. */
int mp_cli_default_backend(mp_ctx *ctx, char **url);
/* |url| as a login remembers it: a relative file path made absolute (a
 * later command may run elsewhere); anything else unchanged. Owned. */
char *mp_cli_backend_normalize(const char *url);
/* The name of the user running minipulumi (borrowed). */
const char *mp_cli_user_name(void);
/* The home folder ($HOME, else the password database's; owned), or NULL. */
char *mp_cli_home_dir(void);
/* ~/<rel> (owned); "/<rel>" without a home folder. */
char *mp_cli_home_path(const char *rel);
/* Whether the environment variable |name| is set to something other than
 * "", "0" or "false" (Pulumi's boolean settings). */
int mp_cli_env_true(const char *name);
/* ~/.minipulumi/<name> (owned), creating ~/.minipulumi. Exit status. */
int mp_cli_home_file(mp_ctx *ctx, const char *name, char **out);
/* The store options from the environment: MINIPULUMI_LOCK_LEASE_SECONDS
 * sets the PostgreSQL lock lease (tests use short ones), and
 * MINIPULUMI_VERIFY_WRITES other than "" or "0" has every write verified
 * (the test suites set it). Exit status. */
int mp_cli_store_opts(mp_ctx *ctx, mp_store_opts *o);

/* The URL `login` or `logout` names: the argument in |pos| or -c
 * |cloud_url| (not both), file://~ with |local| (and no URL), else the
 * current backend (mp_cli_backend_url). A relative file
 * path comes back absolute. Owned. Returns an exit status. */
int mp_cli_login_url(mp_ctx *ctx, const mp_strv *pos, const char *cloud_url,
                     int local, char **url);
/* The login credentials.json remembers as current (owned; NULL if none).
 * Returns an exit status. */
int mp_cli_credentials_current(mp_ctx *ctx, char **url);
enum mp_cli_creds_op {
  MP_CREDS_LOGIN,        /* remember |url| and make it current */
  MP_CREDS_LOGOUT,       /* forget |url| (and current, if it is) */
  MP_CREDS_LOGOUT_ALL,   /* forget every login */
  MP_CREDS_CLEAR_CURRENT /* keep the logins, none current */
};
/* Rewrites credentials.json (mode 0600) with |op| applied. Exit status. */
int mp_cli_credentials_update(mp_ctx *ctx, enum mp_cli_creds_op op,
                              const char *url);

/* A credentials file parsed (an empty object when there is none), or an
 * error that names |path| and ends with |fix|. Exit status. */
int mp_cli_creds_read(mp_ctx *ctx, const char *path, const char *fix,
                      cJSON **out);
/* Writes |j| to |path| (mode 0600) atomically. Exit status. */
int mp_cli_creds_write(mp_ctx *ctx, const char *path, const cJSON *j);

/* ---- the Pulumi CLI's login (pulumi_login.c) ---- */

/* $PULUMI_CREDENTIALS_PATH/credentials.json, else
 * $PULUMI_HOME/credentials.json, else ~/.pulumi/credentials.json. Owned. */
char *mp_cli_pulumi_creds_path(void);
/* Whether the Pulumi CLI uses |url| as minipulumi does (a file:// folder
 * in Pulumi's DIY layout), so that a login to it is shared. */
int mp_cli_url_pulumi_shared(const char *url);
/* The Pulumi CLI's current backend (owned; NULL if none). A Pulumi Cloud
 * URL is an error saying how to choose a backend. Exit status. */
int mp_cli_pulumi_creds_current(mp_ctx *ctx, char **url);
/* Applies |op| to the Pulumi CLI's credentials file as Pulumi's workspace
 * does (LOGIN: StoreAccount; LOGOUT: DeleteAccount; LOGOUT_ALL: forgets
 * the shared logins only, never a Pulumi Cloud token). Exit status. */
int mp_cli_pulumi_creds_update(mp_ctx *ctx, enum mp_cli_creds_op op,
                               const char *url);

#endif
