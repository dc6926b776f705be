/* What the commands share: the command prototypes (registered in main.c's
 * one table), and the workspace helpers (project, store, stack, secrets,
 * config) in workspace.c, secrets.c and config_values.c.
 *
 * Convention inside src/cli: helpers named mp_cli_* that end in an exit
 * status print their own message to ctx->err and return the status the
 * command should exit with (0 = go on). */
#ifndef MP_CLI_CLI_H
#define MP_CLI_CLI_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "cli/config_file.h"
#include "cli/ctx.h"
#include "engine/crypto.h"
#include "engine/provider.h"
#include "engine/snapshot.h"
#include "plugin/plugin.h"
#include "providers/builtin.h"
#include "state/store.h"

/* Exit statuses (Pulumi >= 3.227; docs/architecture.md, "Exit statuses"). */
enum mp_exit {
  MP_EXIT_OK = 0,
  MP_EXIT_ERROR = 1,
  MP_EXIT_CONFIG = 2,        /* bad flags or configuration */
  MP_EXIT_RESOURCE = 4,      /* a resource operation failed */
  MP_EXIT_NO_STACK = 6,      /* stack not found */
  MP_EXIT_CHANGES = 7,       /* --expect-no-changes found changes */
  MP_EXIT_CANCELLED = 8,
  MP_EXIT_INTERNAL = 255
};

/* ---- commands (one file each) ---- */
int mp_cmd_version(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_up(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_preview(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_refresh(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_import(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_destroy(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_cancel(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_login(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_logout(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_whoami(int argc, const char **argv, mp_ctx *ctx);

/* stack subcommands (cmd_stack_*.c), dispatched by cmd_stack.c */
int mp_cmd_stack_init(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_ls(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_select(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_rm(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_rename(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_output(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_export(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_import(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_history(int argc, const char **argv, mp_ctx *ctx);

/* The outputs of the stack's root resource in |s| (borrowed; NULL if
 * none). */
const mp_value *mp_cli_stack_outputs(const mp_snapshot *s);
/* Pulumi's OUTPUT/VALUE table of |outputs| (secrets as [secret] unless
 * MP_RENDER_SHOW_SECRETS in |flags|); with |heading|, always under
 * `Current stack outputs (N):`. */
void mp_cli_print_outputs(mp_ctx *ctx, const mp_value *outputs,
                          unsigned flags, int heading);
/* `minipulumi stack`: the current stack, its resources as a TYPE/NAME tree
 * (with their URNs and IDs when asked) and its outputs. Exit status. */
int mp_cli_stack_view(mp_ctx *ctx, int show_urns, int show_ids,
                      int show_secrets, int show_name);

/* `state` and its subcommands (cmd_state*.c) */
int mp_cmd_state(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin_ls(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin_rm(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin_install(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_delete(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_unprotect(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_rename(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_repair(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_move(int argc, const char **argv, mp_ctx *ctx);
/* Before a refresh (pending_creates.c): completes the pending creates
 * named in |imports| (URN, ID pairs) and, with |ask_user|, asks on the
 * terminal about each other one (clear, skip or import), writing the
 * snapshot back if anything changed. Returns an exit status. */
int mp_cli_pending_creates(mp_ctx *ctx, const mp_strv *imports, int ask_user);

/* ---- messages (messages.c) ---- */

/* Prints "error: <msg>" to ctx->err and returns |status|. */
int mp_cli_error(mp_ctx *ctx, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prints "error: <err->msg>" and returns |status|. */
int mp_cli_fail(mp_ctx *ctx, int status, const mp_err *err);
/* Prints "warning: <msg>" to ctx->err. */
void mp_cli_warn(mp_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* 1 if prompts may be shown: stdin and stdout are terminals, CI is unset
 * and --non-interactive was not given. */
int mp_cli_interactive(const mp_ctx *ctx);
/* Asks |question| and reads one line from stdin into |answer|. Returns 0,
 * or -1 on end of input or interrupt. */
int mp_cli_prompt(mp_ctx *ctx, const char *question, char *answer,
                  size_t size);
/* The error of a command that must ask but may not (`--yes must be passed
 * in ...`); returns its exit status (2). */
int mp_cli_need_yes(mp_ctx *ctx);
/* Confirms an irreversible action on |stack|: 0 at once with |yes|; else,
 * when prompts may be shown, prints the warning |fmt| (a line, formatted
 * with the arguments) and asks the user to type the stack's name. Returns
 * 0 when confirmed, else an exit status after the error. */
int mp_cli_confirm_by_name(mp_ctx *ctx, const char *stack, int yes,
                           const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- child process groups (children.c) ---- */

/* Fills |out| with up to |max| process groups this process started: its
 * children that lead their own group (the command provider's commands).
 * Async-signal-safe. Returns the count. */
size_t mp_cli_child_groups(pid_t *out, size_t max);
/* Sends |sig| to each of those groups. Async-signal-safe. */
void mp_cli_signal_child_groups(int sig);
/* Ends those groups: SIGTERM now, and SIGKILL after |grace_ms| from a
 * forked helper (so the caller may exit at once). Async-signal-safe. */
void mp_cli_end_child_groups(int grace_ms);

/* ---- workspace (workspace.c) ---- */

/* The bytes of file |path| (owned, NUL-terminated; *len its length), or
 * NULL with errno set if it cannot be read. */
char *mp_cli_read_file(const char *path, size_t *len);

/* Loads Pulumi.yaml, searching upwards from --cwd (or the current folder).
 * Sets ctx->project. Returns an exit status. */
int mp_cli_load_project(mp_ctx *ctx);
/* Opens the state store at mp_cli_backend_url with mp_cli_store_opts. Sets
 * ctx->store and ctx->backend_url. Returns an exit status. */
int mp_cli_store(mp_ctx *ctx);
/* The folder of the Pulumi.yaml that mp_cli_load_project would load
 * (owned), or NULL; prints nothing. */
char *mp_cli_project_dir_find(const mp_ctx *ctx);
/* mp_cli_store for a head start: only a backend given by --backend or the
 * environment that exists already, and no message on any failure (-1):
 * mp_cli_store then tries again and reports it. Returns 0 or -1. */
int mp_cli_store_quiet(mp_ctx *ctx);

/* ---- the backend and logins (backend_url.c) ---- */

/* The state backend's URL (owned): --backend, else MINIPULUMI_BACKEND_URL
 * or PULUMI_BACKEND_URL, else the login remembered in
 * ~/.minipulumi/credentials.json, else ~/.minipulumi/state.db. *source
 * (if not NULL) names where it came from: "--backend", the variable's
 * name, "credentials" or "default". Returns an exit status. */
int mp_cli_backend_url(mp_ctx *ctx, char **url, const char **source);
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
/* How long before |now| |t| was, in Pulumi's words ("now", "1 second ago",
 * "2 minutes ago", ... "a long while ago"; cli/humanize.c). */
void mp_cli_ago(time_t t, time_t now, char *buf, size_t n);
/* |size| in SI units as Pulumi prints it: "7 B", "4.2 kB", "12 MB". */
void mp_cli_bytes(uint64_t size, char *buf, size_t n);
/* The home folder ($HOME, else the password database's; owned), or NULL. */
char *mp_cli_home_dir(void);
/* ~/<rel> (owned); "/<rel>" without a home folder. */
char *mp_cli_home_path(const char *rel);
/* The plugin cache: $PULUMI_HOME/plugins, by default ~/.pulumi/plugins
 * (owned; cli/plugin_dirs.c). */
char *mp_cli_plugin_cache_dir(void);
/* Appends the plugins installed in the cache, then in ~/.minipulumi/plugins,
 * to |l| (plugin/cache.h; with |metadata|, sizes and times). Returns 0 or
 * MP_EIO. */
struct mp_plugin_list;
int mp_cli_plugins_installed(int metadata, struct mp_plugin_list *l,
                             mp_err *err);
/* Downloads the plugin |kind| |name| |version| (from |server| when not
 * NULL) and installs it into |cache| (cli/plugin_download.c); |label| is
 * Pulumi's "[resource plugin aws-6.1.0]", and the messages (the URL, a
 * progress line on a terminal) go to |msgs|. Returns 0 or an MP_E code
 * with Pulumi's words in |err|. Any thread. */
struct mp_semver;
int mp_cli_download_install(FILE *msgs, const char *cache, const char *kind,
                            const char *name, const struct mp_semver *version,
                            const char *server, int reinstall,
                            const char *label, mp_err *err);
/* Download settings from the environment (cli/plugin_download.c):
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, GITHUB_TOKEN, GITLAB_TOKEN, and
 * |server| (--server or pluginDownloadURL; NULL or "": the default). */
struct mp_plugin_download_opts;
void mp_cli_download_opts(struct mp_plugin_download_opts *o,
                          const char *server);
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
 * |cloud_url| (not both), ~/.minipulumi/state.db with |local| (and no
 * URL), else the current backend (mp_cli_backend_url). A relative file
 * path comes back absolute. Owned. Returns an exit status. */
int mp_cli_login_url(mp_ctx *ctx, const mp_strv *pos, const char *cloud_url,
                     int local, char **url);
/* The login credentials.json remembers as current (owned; NULL if none).
 * Returns an exit status. */
int mp_cli_credentials_current(mp_ctx *ctx, char **url);
enum mp_cli_creds_op {
  MP_CREDS_LOGIN,     /* remember |url| and make it current */
  MP_CREDS_LOGOUT,    /* forget |url| (and current, if it is) */
  MP_CREDS_LOGOUT_ALL /* forget every login */
};
/* Rewrites credentials.json (mode 0600) with |op| applied. Exit status. */
int mp_cli_credentials_update(mp_ctx *ctx, enum mp_cli_creds_op op,
                              const char *url);
/* Resolves the stack to work on: |name| if given (any form
 * mp_cli_stack_parse accepts), else --stack, else the project's selected
 * stack. With |must_exist| a missing stack is `no stack named '<x>' found` (exit 6).
 * Needs the project and the store (opened here). *out: owned name. */
int mp_cli_stack(mp_ctx *ctx, const char *name, int must_exist, char **out);
/* Parses the stack reference |ref| — `<stack>`, `organization/<stack>` or
 * `organization/<project>/<stack>`, as Pulumi's diy backends do — into
 * the stack's name in *out (owned). Refuses another organization, a
 * project other than the current one (Pulumi's `provided project name
 * "<p>" doesn't match Pulumi.yaml`, exit 1) and an invalid name (exit
 * 2). Loads the project. Returns an exit status. */
int mp_cli_stack_parse(mp_ctx *ctx, const char *ref, char **out);
/* The path of Pulumi.<stack>.yaml beside the project. Owned. */
char *mp_cli_stack_config_path(const mp_ctx *ctx, const char *stack);
/* The stack reference for |stack| in the loaded project. */
mp_stack_ref mp_cli_ref(const mp_ctx *ctx, const char *stack);

/* Creates stack |name| (validated: letters, digits, `-`, `_`, `.`), sets
 * up its passphrase salt when PULUMI_CONFIG_PASSPHRASE(_FILE) is set (or
 * adopts the `encryptionsalt` already in its file), copies the config of
 * |copy_from| (may be NULL) and selects it unless |no_select|. Prints
 * `Created stack '<name>'`. Returns an exit status. */
int mp_cli_stack_create(mp_ctx *ctx, const char *name, const char *copy_from,
                        int no_select);
/* 1 if |name| is a valid stack name. */
int mp_cli_stack_name_valid(const char *name);

/* ---- secrets (secrets.c) ---- */

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

/* ---- the providers of a deployment (providers.c, stackref.c) ---- */

/* What serves each package: the engine's own package `pulumi`
 * (pulumi:pulumi:StackReference reads another stack of the same store),
 * `pulumi-nodejs` (dynamic providers: the SDK's provider from the
 * program's node_modules, through the plugin host), and everything else
 * through the plugin host (specs, built-ins, PATH). */
typedef struct mp_cli_providers {
  char *url;         /* the store's URL */
  char *project;     /* the current project, for stack names without one */
  char *program_dir; /* where the program's node_modules is found */
  mp_plugin_host *host; /* borrowed; may be NULL (then built-ins only) */
  mp_provider_factory builtins; /* when there is no host */
  /* Acquiring a missing plugin version (plugin_acquire.c): unless
   * PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION, into |cache|, from the
   * download URLs providers named (|urls|: "pkg@version" -> URL, under
   * |mu|); messages to |err|. */
  int acquire;
  char *cache;
  FILE *err;
  pthread_mutex_t mu;
  mp_strv urls; /* pairs: key, URL */
} mp_cli_providers;
/* Copies what the factory needs from |ctx| (store and project loaded). */
void mp_cli_providers_init(mp_cli_providers *set, const mp_ctx *ctx,
                           mp_plugin_host *host,
                           const mp_builtin_opts *builtin);
/* The factory; |set| must outlive the deployment. */
mp_provider_factory mp_cli_providers_factory(mp_cli_providers *set);
void mp_cli_providers_destroy(mp_cli_providers *set);
/* Downloads and installs |pkg| at |version| into the cache when it may
 * (plugin_acquire.c): 0 when it did, else an MP_E code with Pulumi's
 * "Could not automatically download and install resource plugin ..." in
 * |err|. Any thread; concurrent acquisitions of one plugin are safe (the
 * install's lock). */
int mp_cli_plugin_acquire(mp_cli_providers *set, const char *pkg,
                          const char *version, mp_err *err);
/* Remembers where |pkg| at |version| is downloaded from (the factory's
 * download_url). */
void mp_cli_plugin_note_url(void *ud, const char *pkg, const char *version,
                            const char *url);
/* The provider of package `pulumi` (stackref.c). Returns 0. */
int mp_cli_stackref_new(const mp_cli_providers *set, mp_provider **out);

/* ---- configuration (config_values.c) ---- */

/* Splits a user key (`name`, `ns:name`, with --path `ns:a.b[0]`) into the
 * full key ("<ns>:<name>", owned) and, with |path|, the path below it
 * (owned, NULL if none). Returns 0 or MP_EINVAL. */
int mp_cli_config_key(const mp_ctx *ctx, const char *key, int path,
                      char **full, char **rest, mp_err *err);
/* Decodes one stored config value: secure objects are decrypted with |pp|
 * (required if there are any) into SECRET strings; objects and arrays are
 * decoded recursively. Sets *out (owned). */
int mp_cli_config_decode(const mp_value *stored, mp_passphrase *pp,
                         mp_value **out, mp_err *err);
/* The configuration the engine gets: project defaults, then the stack's
 * file, secrets decrypted and wrapped. *out: OBJECT (owned). */
int mp_cli_config_build(mp_ctx *ctx, const char *stack, mp_value **out,
                        mp_err *err);
/* Encrypts |plain| into a `{secure: "v1:..."}` object (owned). */
int mp_cli_config_encrypt(mp_passphrase *pp, const char *plain, size_t len,
                          mp_value **out, mp_err *err);
/* Re-encrypts the secure values under |v| (in place) from |from| to |to|
 * (stack init --copy-config-from). */
int mp_cli_config_reencrypt(mp_value *v, mp_passphrase *from,
                            mp_passphrase *to, mp_err *err);
/* Applies `key=value` pairs (`-c`) to the stack's file as plain values.
 * Returns 0 or MP_EINVAL / MP_EIO. */
int mp_cli_config_apply_pairs(mp_ctx *ctx, const char *stack,
                              const mp_strv *pairs, mp_err *err);

/* ---- value rendering (render.c) ---- */

enum mp_render_flags {
  MP_RENDER_SHOW_SECRETS = 1 << 0,
  MP_RENDER_RAW_STRINGS = 1 << 1 /* top-level strings without quotes */
};

/* Appends a Pulumi-like rendering of |v| ("text", 42, [secret], objects on
 * several lines indented by |indent| spaces). */
void mp_cli_render_value(const mp_value *v, unsigned flags, int indent,
                         mp_buf *out);
/* JSON text of |v| with secrets masked as "[secret]" unless
 * MP_RENDER_SHOW_SECRETS. Pretty (two spaces) if |pretty|. */
void mp_cli_value_json(const mp_value *v, unsigned flags, int pretty,
                       mp_buf *out);

/* The display width of UTF-8 text |s|: its code points (the tree's box
 * characters are one column each). */
size_t mp_cli_text_width(const char *s);

#endif
