/* The provider registry: configured provider instances by reference
 * ("<urn>::<id>"), loaded when a provider resource's step runs or, for
 * providers only known from the prior snapshot, on first use.
 *
 * Threads: every function may be called from any thread; a mutex guards
 * the tables (never held across a provider call except the one-time
 * configure of a lazily loaded instance). */
#ifndef MP_REGISTRY_H
#define MP_REGISTRY_H

#include "engine/err.h"
#include "engine/extension.h"
#include "engine/provider.h"
#include "engine/resource.h"

typedef struct mp_registry mp_registry;

/* A registry whose instances |factory| makes (copied; its |ud| must
 * outlive the registry). With |preview|, instances are configured for a
 * preview. */
mp_registry *mp_registry_new(int preview, mp_provider_factory factory);
void mp_registry_free(mp_registry *r);

/* Remembers a provider resource of the prior snapshot so that resources
 * referring to it can be served (deleted, refreshed) without the program
 * registering it. Copies what it needs. */
void mp_registry_add_known(mp_registry *r, const mp_resource *provider_state);

/* Creates and configures an instance for the provider resource |res|
 * (type pulumi:providers:<pkg>, its inputs as configuration) and serves it
 * under "<urn>::<id>" (replacing an earlier instance under that ref).
 * Returns 0 or an MP_E code. */
int mp_registry_load(mp_registry *r, const mp_resource *res, mp_err *err);

/* The configured instance for |ref| (borrowed; lives as long as |r|).
 * Loads a known provider on first use. NULL with |err| set when the
 * reference is unknown: "unknown provider '<ref>'". */
mp_provider *mp_registry_get(mp_registry *r, const char *ref, mp_err *err);

/* An unconfigured instance of |pkg| for CheckConfig/DiffConfig of a
 * provider resource with |inputs| (may be NULL): at their `version` (one
 * instance per package and version, cached), its plugin fetched from their
 * `pluginDownloadURL` if need be. NULL with |err| set when no plugin
 * serves them. */
mp_provider *mp_registry_unconfigured(mp_registry *r, const char *pkg,
                                      const mp_value *inputs, mp_err *err);

/* A new unconfigured instance for the CheckConfig of the provider
 * resource |urn| (of |pkg|, with |inputs|): the registry keeps it, and
 * mp_registry_load of that resource configures this same instance, as
 * Pulumi's registry does (Check loads the plugin, Create/Same configure
 * it), so that the plugin that is configured is the one that was checked.
 * NULL with |err| set when no plugin serves them. */
mp_provider *mp_registry_for_check(mp_registry *r, const char *urn,
                                   const char *pkg, const mp_value *inputs,
                                   mp_err *err);

/* The plugin version a provider resource asks for: its `version` input,
 * or for a parameterized package `__internal.version` (borrowed), or
 * NULL. Instances are made for that version. */
const char *mp_provider_version(const mp_value *inputs);

/* A provider resource's inputs keep what the engine needs of the plugin
 * under `__internal` (pkg/resource/deploy/providers/registry.go): the
 * download URL as `__internal.pluginDownloadURL`; the version stays at the
 * top as `version`, and setting it makes an `__internal` object too. The
 * plugin itself never sees `__internal` (mp_provider_config). */
#define MP_PROVIDER_INTERNAL_KEY "__internal"
void mp_provider_inputs_set_version(mp_value *inputs, const char *version);
void mp_provider_inputs_set_url(mp_value *inputs, const char *url);
/* Keeps a provider resource's envVarMappings option (an OBJECT of
 * strings, owned) in its inputs' __internal, as Pulumi's engine does. */
void mp_provider_inputs_set_env_vars(mp_value *inputs, mp_value *mappings);
/* Appends the envVarMappings that provider |inputs| keep to |out| as
 * pairs: the variable to read, the name the plugin sees it under (in key
 * order). Nothing when there are none. */
void mp_provider_env_map(const mp_value *inputs, mp_strv *out);
/* The download URL |inputs| ask for (`__internal.pluginDownloadURL`, or
 * the top-level key in a state without `__internal`, as older engines
 * wrote it), or NULL. Borrowed. */
const char *mp_provider_download_url(const mp_value *inputs);
/* |inputs| without `__internal` (owned; NULL for NULL): what CheckConfig,
 * DiffConfig and Configure are given. */
mp_value *mp_provider_config(const mp_value *inputs);

/* A parameterized package (RegisterPackage with a parameterization): the
 * package |name| at |version| is served by the plugin |plugin| at
 * |plugin_version| (NULL: any) once Parameterize gave it |value|. A
 * provider resource of the package keeps, as Pulumi's registry does, the
 * package's version as `version` and under `__internal` the plugin's
 * `name` and `version` and the value in base64 as `parameterization`
 * (registry_param.c). */
typedef struct mp_provider_param {
  const char *name, *version;
  const char *plugin, *plugin_version;
  const void *value;
  size_t len;
  /* An extension package (engine/extension.h): its reference. The plugin
   * then serves it on its own instance, loaded with the extension
   * (mp_registry_extend), not parameterized into it. NULL otherwise. */
  const char *ext_ref;
} mp_provider_param;
void mp_provider_inputs_set_param(mp_value *inputs, const mp_provider_param *p);
/* The plugin that serves provider resources of package |pkg| with
 * |inputs|: their `__internal.name`, else |pkg|. Borrowed. */
const char *mp_provider_plugin(const char *pkg, const mp_value *inputs);
/* Sends Parameterize to |p|, a new instance of the plugin, when |inputs|
 * (of a provider of package |pkg|) hold a parameterization; the plugin
 * must answer with the package's name. 0, or an MP_E code. */
int mp_provider_parameterize(mp_provider *p, const char *pkg,
                             const mp_value *inputs, mp_err *err);
/* Parameterize of |p| with the value form (package |pkg| at |version|,
 * the |len| bytes of |value|): the plugin must answer with |pkg|. */
int mp_provider_parameterize_value(mp_provider *p, const char *pkg,
                                   const char *version, const void *value,
                                   size_t len, mp_err *err);

/* ---- extension packages (engine/extension.h) ----
 * The registry knows the extensions of the prior snapshot and those the
 * program registered, and loads an extension into an instance the first
 * time a resource, function or schema of it needs that instance: the base
 * plugin's instance is parameterized with it (Parameterize, the value
 * form), once per instance and extension, as Pulumi's
 * ExtensionParameterizeStep and ensureProviderExtension do. */

/* Remembers extension |e| (copied). 1 if it was new. */
int mp_registry_add_extension(mp_registry *r, const mp_extension *e);
/* Loads extension |ext_ref| into |p| unless it was loaded already (NULL or
 * "": nothing to do). 0, MP_ESTATE when the registry does not know the
 * extension, or the plugin's error. Serialized: one Parameterize at a
 * time. */
int mp_registry_extend(mp_registry *r, mp_provider *p, const char *ext_ref,
                       mp_err *err);
/* mp_registry_get, then mp_registry_extend with |ext_ref| (a resource
 * state's extensionRef; NULL: none). */
mp_provider *mp_registry_get_for(mp_registry *r, const char *ref,
                                 const char *ext_ref, mp_err *err);

/* What a provider function's caller asks of the package's instance when
 * it names no provider: the package, and the plugin's version and
 * download URL (NULL: not asked), as a default provider's would be. */
typedef struct mp_invoke_pkg {
  const char *pkg, *version, *url;
  /* A parameterized package: |pkg| and |version| are its own, and this
   * says which plugin serves it. NULL otherwise. */
  const mp_provider_param *param;
  /* An extension package's function: |pkg| is the base package, whose
   * instance is loaded with this extension first. NULL otherwise. */
  const char *ext_ref;
} mp_invoke_pkg;
/* An owned copy of |w| (NULL for NULL), and its release. */
mp_invoke_pkg *mp_invoke_pkg_dup(const mp_invoke_pkg *w);
void mp_invoke_pkg_free(mp_invoke_pkg *w);

/* The instance that serves provider functions of |want| when the caller
 * names no provider: configured from the stack config keys `<pkg>:<key>`
 * in |config| (may be NULL), plus `version` and `pluginDownloadURL` as a
 * default provider's inputs hold them; made once per (pkg, version, url).
 * NULL with |err| set on failure. */
mp_provider *mp_registry_for_invoke(mp_registry *r, const mp_invoke_pkg *want,
                                    const mp_value *config, mp_err *err);

/* Asks every instance to cancel running operations. */
void mp_registry_cancel(mp_registry *r);

#endif
