/* Shared between the files of src/plugin (not part of the public API). */
#ifndef MP_PLUGIN_INT_H
#define MP_PLUGIN_INT_H

#include <protobuf-c/protobuf-c.h>
#include <pthread.h>
#include <sys/types.h>
#include <uv.h>

#include "plugin/plugin.h"
#include "rpc/client.h"
#include "rpc/engine_service.h"
#include "rpc/server.h"

typedef struct mp__plugin mp__plugin;

/* A job for the host's loop thread (mp__host_run). */
typedef struct mp__task {
  void (*fn)(void *arg);
  void *arg;
  int wait; /* the poster waits for |done| (else the task is freed) */
  int done;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  struct mp__task *next;
} mp__task;

struct mp_plugin_host {
  /* options, owned copies */
  char *project_dir, *program_dir, *project, *stack, *organization,
      *config_json, *search_path, *cache_dir,
      *plugin_dir; /* the last three may be NULL */
  mp_plugin_spec *specs;
  size_t nspecs;
  mp_provider_factory builtins;
  int (*yaml_plugin)(const char *pkg, const char *dir, mp_provider **out,
                     mp_err *err);
  uint64_t call_timeout_ms;  /* resource calls; 0: none */
  uint64_t setup_timeout_ms; /* Handshake, Configure, ...; never 0 */
  mp_log *log;               /* borrowed; may be NULL */
  /* the loop thread */
  uv_loop_t loop;
  uv_thread_t thread;
  uv_async_t wake;
  pthread_mutex_t mu; /* guards tasks, stopping and plugins */
  mp__task *tasks, *tasks_tail;
  int stopping;
  mp__plugin *plugins; /* running plugins, for shutdown */
};

/* One call in flight on a plugin, for diagnostics routing. */
typedef struct mp__inflight {
  const char *urn; /* borrowed; "" for calls about no resource */
  mp_strv diags;
  struct mp__inflight *next;
} mp__inflight;

/* One plugin process and the provider in front of it. */
struct mp__plugin {
  mp_provider base;
  mp_plugin_host *h;
  char *bin;  /* the executable as launched */
  char *cwd;  /* its working folder; NULL: the program folder */
  char **tail; /* arguments after the engine address (NULL-ended), or NULL */
  mp_strv env_map; /* envVarMappings: pairs (variable read, name given) */
  char *name; /* its file name, as messages name the plugin */
  pid_t pid;
  int reaped, status; /* waitpid's status once reaped */
  int port;
  mp_rpc_client *client;
  mp_rpc_server *srv; /* this plugin's Engine server */
  mp_rpc_engine_service svc;
  uv_pipe_t out, err; /* stdout after the port line, stderr */
  int out_open, err_open;
  mp_buf out_line, err_line; /* partial lines */
  int closing_handles;
  /* capabilities (Handshake, then Configure) */
  int accept_secrets, accept_resources, accept_outputs, supports_preview;
  char *version;
  /* diagnostics routing; guarded by |mu| */
  pthread_mutex_t mu;
  mp__inflight *inflight; /* oldest first */
  mp_strv pending;        /* lines no call was in flight for */
  /* Constructs and Calls in flight (relay.c); host loop thread only. */
  struct mp__relay *relays;
  mp__plugin *next;       /* in h->plugins */
};

/* Whether the project's plugins.providers names |pkg| for |version|
 * (find.c). */
/* source.c: whether |path| is a plugin folder from source (it holds
 * PulumiPlugin.yaml), and the command that runs it as the plugin of |pkg|
 * (pushed on |argv|; the engine's address follows). */
int mp__plugin_is_source(const char *path);
/* The runtime a plugin folder's PulumiPlugin.yaml names ("nodejs",
 * "yaml"; owned), or NULL. */
char *mp__plugin_source_runtime(const char *dir);
/* The executable |file| in a folder of |search_path| (PATH's form), or
 * NULL (find.c). */
char *mp__plugin_on_path(const char *search_path, const char *file);
int mp__plugin_source_argv(const mp_plugin_host *h, const char *pkg,
                           const char *dir, mp_strv *argv, mp_err *err);
int mp__plugin_named_by_spec(const mp_plugin_host *h, const char *pkg,
                             const char *version);
/* The plugin of |pkg| at |version| found on disk (not the built-in)
 * launched into *out, its process given the variables of |env_map| (may
 * be NULL). host.c. */
int mp__plugin_make_found(mp_plugin_host *h, const char *pkg,
                          const char *version, const mp_strv *env_map,
                          mp_provider **out, mp_err *err);
/* |builtin| (taken) behind a provider that sends the resource types and
 * functions the built-in does not implement (mp_builtin_implements) to
 * the plugin of |pkg| at |version|, launched and configured with the
 * built-in's configuration on first use; without such a plugin, the
 * error names the type and the plugin to install. Returns |builtin|
 * itself for a package that implements every type. fallback.c. */
mp_provider *mp__plugin_fallback_new(mp_plugin_host *h, mp_provider *builtin,
                                     const char *pkg, const char *version);

/* Runs fn(arg) on the host's loop thread and waits for it. Not from the
 * loop thread. */
void mp__host_run(mp_plugin_host *h, void (*fn)(void *), void *arg);
/* Runs fn(arg) on the loop thread later; |arg| is the callee's. */
void mp__host_post(mp_plugin_host *h, void (*fn)(void *), void *arg);

/* A diagnostic line from |p| (stdout, stderr, Engine.Log) about |urn|
 * ("" or NULL: none); routed as plugin.h says. Any thread. */
void mp__plugin_diag(mp__plugin *p, const char *urn, const char *line);

/* Starts the process of |p| (p->bin, |argv|), its Engine server and
 * reads its port; on failure the process is gone. launch.c. */
int mp__plugin_start(mp__plugin *p, const char *const *argv, mp_err *err);
/* Ends the process of |p|: closes its connection, pipes and server, then
 * SIGINT to its group, SIGKILL after 5 s, reaped. launch.c. */
void mp__plugin_stop(mp__plugin *p);
/* "; the plugin exited with status N" / "...was killed by signal N" once
 * the plugin has ended (reaped, waiting up to |wait_ms| for it), else "".
 * Any thread. launch.c. */
const char *mp__plugin_exit_note(mp__plugin *p, uint64_t wait_ms, char *buf,
                                 size_t n);

/* Makes and starts a plugin (mp__plugin_start) for package |pkg|: argv,
 * the engine address, then |tail| (may be NULL), run in |cwd| (NULL: the
 * program folder); linked to |h| for shutdown. Sets *out. host.c. */
int mp__plugin_spawn(mp_plugin_host *h, const char *pkg,
                     const char *const *argv, const char *cwd,
                     const char *const *tail, const mp_strv *env_map,
                     mp__plugin **out, mp_err *err);

/* Unlinks |p| from its host, ends its process and frees it. host.c. */
void mp__plugin_release(mp__plugin *p);

/* Diagnostics routing of one call in flight: |in| listed from add to
 * remove; remove hands its lines to |r| (NULL: to the display). Any
 * thread. calls.c. */
void mp__plugin_inflight_add(mp__plugin *p, mp__inflight *in);
/* Ends the plugin's Constructs and Calls in flight with MP_ECANCELED, as
 * Pulumi's engine ends them when the deployment stops (the contexts of the
 * monitor's calls are cancelled): a component provider that never answers
 * must not hold the deployment. Host loop thread. */
void mp__plugin_relays_cancel(mp__plugin *p);
void mp__plugin_inflight_remove(mp__plugin *p, mp__inflight *in,
                                mp_prov_resp *r);
/* The error of a failed call: the plugin's own message when it answered
 * one, else what went wrong and how the process ended (waiting up to
 * |lost_wait_ms| for it to be reaped when the connection was lost).
 * Returns |rc|'s code, set in |err|. Any thread. calls.c. */
int mp__plugin_call_error(mp__plugin *p, int rc, const mp_rpc_reply *reply,
                          const mp_err *e, uint64_t lost_wait_ms,
                          mp_err *err);
/* Construct and Call, answered on the host's loop thread (relay.c). */
int mp__plugin_construct(mp_provider *prov, const mp_buf *req,
                         mp_provider_answer_cb done, void *ud, mp_err *err);
int mp__plugin_call(mp_provider *prov, const mp_buf *req,
                    mp_provider_answer_cb done, void *ud, mp_err *err);

/* The provider method table of a plugin. calls.c. */
extern const mp_provider_vtable mp__plugin_vtable;
/* The table's get_schema (schema.c). */
int mp__plugin_get_schema(mp_provider *prov, int version, const char *sub_name,
                          const char *sub_version, char **json,
                          mp_err *err);
/* Calls |path| ("/<service>/<method>") with |req| and waits; on success
 * *out is the answer unpacked as |d| (free with
 * protobuf_c_message_free_unpacked). |*unimpl| says whether the plugin
 * answered UNIMPLEMENTED. The plugin's output during the call goes to
 * |r|'s warnings. calls.c. */
int mp__plugin_rpc(mp__plugin *p, const char *path,
                   const ProtobufCMessage *req,
                   const ProtobufCMessageDescriptor *d, void *out,
                   uint64_t timeout_ms, mp_prov_resp *r, int *unimpl,
                   mp_err *err);
/* Handshake and GetPluginInfo, right after the start. calls.c. */
int mp__plugin_setup(mp__plugin *p, mp_err *err);

#endif
