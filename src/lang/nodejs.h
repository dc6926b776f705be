/* The Node.js language host (`runtime: nodejs`): runs a program on
 * @pulumi/pulumi as a child process that talks to the engine over gRPC
 * (the ResourceMonitor of monitor/service.h and the Engine service),
 * launched as docs/sdk-contract.md, "Launching a Node.js program",
 * describes. */
#ifndef MP_LANG_NODEJS_H
#define MP_LANG_NODEJS_H

#include "engine/err.h"
#include "engine/mem.h"
#include "engine/value.h"
#include "lang/project.h"
#include "monitor/api.h"

/* Creates the host for |p| (runtime nodejs; |p| must outlive the source).
 * Nothing is checked until start(), which fails with a one-line message
 * naming the folder and `npm install` when the SDK is not installed.
 * Sets |*out| (free with s->vt->free). Returns 0 or MP_EINVAL (another
 * runtime). */
int mp_nodejs_source_new(const mp_project *p, mp_source **out, mp_err *err);

/* The program of a caller that serves pulumirpc.LanguageRuntime at
 * |client| ("127.0.0.1:PORT" or "localhost:PORT"; the Automation API's
 * inline program, `--client`): start() calls its Run with the engine's
 * and the monitor's address, the config and dry-run, instead of starting
 * node; the program's end is Run's answer. Any runtime. Sets |*out|.
 * Returns 0 or MP_EINVAL (an address that is not a local port). */
int mp_nodejs_client_source_new(const mp_project *p, const char *client,
                                mp_source **out, mp_err *err);

/* ---- a caller's language runtime (nodejs_client.c) ---- */

/* The port of |client| (see mp_nodejs_client_source_new). Returns 0 or
 * MP_EINVAL with a message naming the flag. */
int mp_nodejs_client_port(const char *client, int *port, mp_err *err);
/* Appends to |out| the packed pulumirpc.RunRequest for the deployment
 * |info|, run in |pwd|, with |addr| as the monitor's and the Engine's
 * address. Returns 0 or an MP_E code (bad config). */
int mp_nodejs_run_request(const mp_source_info *info, const char *pwd,
                          const char *addr, mp_buf *out, mp_err *err);
/* Reads a packed pulumirpc.RunResponse: |*error| (owned, NULL when none)
 * and |*bail|. Returns 0 or MP_EPROTO. */
int mp_nodejs_run_response(const mp_buf *body, char **error, int *bail);

/* ---- launching (nodejs_launch.c) ---- */

/* What the program is started with. */
typedef struct mp_nodejs_launch {
  char *run_script; /* .../node_modules/@pulumi/pulumi/cmd/run/index.js */
  char *pwd;        /* the folder the program runs in */
  char *entry;      /* "." (package.json decides) or a file under pwd */
  mp_strv argv;     /* node, node args, run script, flags, entry */
  mp_strv env;      /* the whole environment, NAME=value */
} mp_nodejs_launch;

/* Fills |l| for project |p| of the deployment |info|, with the engine's
 * gRPC address |addr| ("127.0.0.1:PORT"). Returns 0, or MP_ENOENT when
 * @pulumi/pulumi cannot be found from the program's folder (the message
 * says to run `npm install` there) or MP_EINVAL for bad config. */
int mp_nodejs_launch_init(mp_nodejs_launch *l, const mp_project *p,
                          const mp_source_info *info, const char *addr,
                          mp_err *err);
void mp_nodejs_launch_destroy(mp_nodejs_launch *l);

/* The file |rel| of a package ("@pulumi/pulumi/cmd/run/index.js") as Node
 * resolves it from |dir|: in the first node_modules on the way up to the
 * root that holds it. Owned path, or NULL. */
char *mp_nodejs_find_module_file(const char *dir, const char *rel);

/* The config as the SDK takes it: |*strings| an OBJECT "<ns>:<key>" → STRING and
 * |*secret_keys| an ARRAY of STRING (owned). */
int mp_nodejs_config_strings(const mp_value *config, mp_value **strings,
                             mp_value **secret_keys, mp_err *err);

/* PULUMI_CONFIG's and PULUMI_CONFIG_SECRET_KEYS's JSON texts for the
 * stack config |config| (OBJECT "<ns>:<key>" → value, secrets wrapped):
 * every value as a string (non-strings as JSON), secrets decrypted, and
 * the keys of the secret ones. Owned strings. Returns 0 or an MP_E code. */
int mp_nodejs_config_env(const mp_value *config, char **config_json,
                         char **secret_keys_json, mp_err *err);

#endif
