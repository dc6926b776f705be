/* The provider interface (docs/plugins.md): one table of
 * functions with three kinds behind it — built-in providers compiled into
 * the binary, plugin processes spoken to over gRPC, and provider resources.
 *
 * Threads: every method is synchronous and may be called from any worker
 * thread, several at once; an implementation guards its own shared state.
 * configure is called once, before any resource method. */
#ifndef MP_PROVIDER_H
#define MP_PROVIDER_H

#include "engine/err.h"
#include "engine/mem.h"
#include "engine/value.h"

typedef struct mp_provider mp_provider;
struct mp_monitor; /* monitor/api.h: construct_here's */

typedef struct mp_check_failure {
  char *property; /* may be NULL */
  char *reason;
} mp_check_failure;

typedef enum mp_diff_changes {
  MP_DIFF_CHANGES_UNKNOWN = 0, /* no opinion: the engine compares inputs */
  MP_DIFF_CHANGES_NONE = 1,
  MP_DIFF_CHANGES_SOME = 2
} mp_diff_changes;

/* One request shape for every method; each method reads the fields its
 * comment below names. All pointers are borrowed for the call. */
typedef struct mp_prov_req {
  const char *urn;
  const char *name;
  const char *type;
  const char *id;
  const mp_value *olds; /* Check: old inputs; Diff/Update/Delete/Read: old
                           outputs (state); CheckConfig/DiffConfig: old
                           config (outputs for DiffConfig) */
  const mp_value *news; /* Check/Diff/Update/Create: new (checked) inputs;
                           CheckConfig/DiffConfig/Configure: new config;
                           Invoke: args */
  const mp_value *old_inputs; /* Diff/Update/Delete/Read: last inputs */
  const mp_strv *ignore_changes;
  const char *tok; /* Invoke: function token */
  double timeout;  /* seconds, 0 = provider default */
  int preview;     /* Create/Update: compute without changing the world */
  const unsigned char *random_seed; /* Check: 32 bytes or NULL */
} mp_prov_req;

/* One response shape; the caller initialises it with mp_prov_resp_init and
 * releases it with mp_prov_resp_destroy. */
typedef struct mp_prov_resp {
  /* Check/CheckConfig: checked inputs. Read: the read inputs. */
  mp_value *inputs;
  mp_check_failure *failures;
  size_t nfailures;
  /* Diff/DiffConfig */
  mp_diff_changes changes;
  mp_strv replaces;
  mp_strv stables;
  mp_strv diffs;
  int delete_before_replace;
  int has_detailed_diff;
  mp_diff detailed_diff;
  /* Create/Read: id ("" or NULL from Read = the resource is gone). */
  char *id;
  /* Create/Update/Read: outputs; Invoke: return value. */
  mp_value *outputs;
  /* Configure: capabilities. */
  int accept_secrets;
  int accept_resources;
  int supports_preview;
  /* A failed Create/Update/Read that still produced a resource (the
   * provider's init-failure detail): set |partial| with id/outputs/inputs
   * and the reasons; the method returns MP_EPLUGIN. */
  int partial;
  mp_strv init_errors;
  /* GetPluginInfo */
  char *version;
  /* Any resource method: messages for the user about the resource (what
   * a plugin sends through the engine's Log call or prints), shown as the
   * resource's diagnostics: warnings, except an entry that starts with
   * MP_PROV_INFO_PREFIX, shown (without it) as information. */
  mp_strv warnings;
} mp_prov_resp;

#define MP_PROV_INFO_PREFIX "info: "

void mp_prov_resp_init(mp_prov_resp *r);
void mp_prov_resp_destroy(mp_prov_resp *r);
void mp_prov_resp_add_failure(mp_prov_resp *r, const char *property,
                              const char *reason);

/* The method table. Each returns 0 or an MP_E code (MP_EPLUGIN for a
 * failure reported by the provider, with its text in |err|). A NULL entry
 * means the provider lacks the method and the engine applies Pulumi's fallback
 * (CheckConfig: news unchanged; DiffConfig: unknown; Check: news unchanged;
 * Diff: unknown; Read: echo). */
/* The answer of a provider call that does not wait (construct, call):
 * |resp| the packed answer, or NULL and |err| on a failure. */
typedef void (*mp_provider_answer_cb)(void *ud, const mp_buf *resp,
                                      const mp_err *err);

typedef struct mp_provider_vtable {
  int (*check_config)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                      mp_err *err);
  int (*diff_config)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                     mp_err *err);
  int (*configure)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err);
  int (*check)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
               mp_err *err);
  int (*diff)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
              mp_err *err);
  int (*create)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                mp_err *err);
  int (*read)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
              mp_err *err);
  int (*update)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                mp_err *err);
  int (*del)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
             mp_err *err);
  int (*invoke)(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                mp_err *err);
  int (*get_plugin_info)(mp_provider *p, const mp_prov_req *q,
                         mp_prov_resp *r, mp_err *err);
  /* Advisory: asks running operations to stop soon. */
  void (*cancel)(mp_provider *p);
  void (*free)(mp_provider *p);
  /* Component providers (docs/plugins.md, "Components, methods and
   * packages"): |req| is a packed pulumirpc ConstructRequest or
   * CallRequest, made by the monitor (copied: the caller keeps it). They
   * hold no thread while the provider works, since a Construct waits
   * for its children's own provider calls: 0 and |done| runs once,
   * later, on another thread, with the packed ConstructResponse or
   * CallResponse (NULL and the error on a failure); or an MP_E code, and
   * |done| never runs. Any thread. NULL: the provider has no components
   * or methods. */
  int (*construct)(mp_provider *p, const mp_buf *req,
                   mp_provider_answer_cb done, void *ud, mp_err *err);
  int (*call)(mp_provider *p, const mp_buf *req, mp_provider_answer_cb done,
              void *ud, mp_err *err);
  /* Parameterize: |req| a packed ParameterizeRequest, |resp| the packed
   * ParameterizeResponse. NULL: not parameterizable. */
  int (*parameterize)(mp_provider *p, const mp_buf *req, mp_buf *resp,
                      mp_err *err);
  /* GetSchema: sets |*json| (owned) to the package schema the provider
   * describes itself with, at schema |version| (0); |sub_name| and
   * |sub_version| (NULL: none) name the package a parameterized instance
   * serves, as Pulumi's loader asks after Parameterize. NULL: no schema
   * (a built-in provider); a plugin that does not implement it answers
   * MP_ENOENT. */
  int (*get_schema)(mp_provider *p, int version, const char *sub_name,
                    const char *sub_version, char **json, mp_err *err);
  /* An in-process component provider (a Pulumi YAML plugin folder,
   * docs/plugins.md "Pulumi YAML component providers"): Construct made
   * on the deployment's loop thread, in place of |construct| on a
   * worker, registering the component and its children straight with
   * the deployment's monitor |m| (monitor/api.h; opaque here), as the
   * embedded YAML host registers a program's resources. |req| is the
   * packed ConstructRequest (borrowed for the call). Returns 0, and
   * |done| runs once, later, with the packed ConstructResponse or NULL
   * and the error; or an MP_E code, and |done| never runs. Loop thread.
   * NULL: the provider constructs through |construct|. */
  int (*construct_here)(mp_provider *p, struct mp_monitor *m,
                        const mp_buf *req,
                        void (*done)(void *ud, const mp_buf *resp,
                                     const mp_err *err),
                        void *ud, mp_err *err);
} mp_provider_vtable;

/* Every provider struct starts with this header. */
struct mp_provider {
  const mp_provider_vtable *vt;
  char *pkg; /* package name, owned */
};

/* Where provider instances come from. |make| makes an unconfigured
 * instance of package |pkg| (|version| may be NULL) in *out; it returns 0,
 * MP_ENOENT when it serves no such package (|err| names the missing
 * plugin), or another MP_E code. It may be called from any thread. The
 * deployment's caller chooses the factory (the CLI passes the built-in
 * one, providers/builtin.h), so the engine links no provider. */
typedef struct mp_provider_factory {
  int (*make)(void *ud, const char *pkg, const char *version,
              mp_provider **out, mp_err *err);
  void *ud; /* borrowed by |make|; outlives every use of the factory */
  /* Optional: told, before |make|, where the plugin of |pkg| at |version|
   * comes from when it must be downloaded (a provider resource's
   * `pluginDownloadURL` input). Any thread. */
  void (*download_url)(void *ud, const char *pkg, const char *version,
                       const char *url);
  /* Optional: |make| for a provider resource whose inputs map environment
   * variables (envVarMappings): |env_map| holds pairs, the variable to
   * read, then the name the plugin's process sees its value under. NULL:
   * such a provider resource is refused. */
  int (*make_env)(void *ud, const char *pkg, const char *version,
                  const mp_strv *env_map, mp_provider **out, mp_err *err);
} mp_provider_factory;

/* Frees |p| through its table; NULL is fine. */
void mp_provider_free(mp_provider *p);

#endif
