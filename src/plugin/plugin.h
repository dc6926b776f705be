/* The plugin host: provider plugins as processes (`pulumi-resource-<pkg>`)
 * that serve pulumirpc.ResourceProvider over gRPC, behind the engine's
 * provider interface (engine/provider.h), so that the decision code does
 * not know whether it talks to a built-in provider or a plugin.
 *
 * One host per CLI command. It owns a libuv loop on a thread of its own,
 * which carries every plugin connection and a pulumirpc.Engine server (the
 * address plugins get as their argument and send their Log calls to).
 * Provider methods run on the caller's thread (a step's worker) and block
 * on that loop through mp_rpc_call_sync (docs/rpc.md, "Threads").
 *
 * Lifetime: mp_plugin_host_new -> mp_plugin_host_factory (handed to the
 * deployment; instances are made on demand) -> mp_plugin_host_shutdown
 * after every deployment using the factory has returned and every
 * provider it made has been freed. */
#ifndef MP_PLUGIN_H
#define MP_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "engine/err.h"
#include "engine/log.h"
#include "engine/provider.h"

typedef struct mp_plugin_host mp_plugin_host; /* opaque; plugin/host.c */

/* A plugin named by the project: Pulumi.yaml `plugins.providers` entries
 * (`name`, `path`). |path| is the plugin binary, or a folder holding
 * `pulumi-resource-<name>`; relative to the project folder. */
typedef struct mp_plugin_spec {
  const char *name;
  const char *path;
  const char *version; /* may be NULL: serves any version asked */
} mp_plugin_spec;

/* How the host finds and starts plugins. Strings are copied. */
typedef struct mp_plugin_host_opts {
  const char *project_dir; /* resolves relative spec paths */
  const char *program_dir; /* a plugin's working folder */
  const char *project;     /* PULUMI_PROJECT */
  const char *stack;       /* PULUMI_STACK */
  const char *organization; /* PULUMI_ORGANIZATION; may be NULL */
  const char *config_json; /* PULUMI_CONFIG (a JSON object); may be NULL */
  const mp_plugin_spec *specs; /* Pulumi.yaml plugins.providers */
  size_t nspecs;
  /* Built-in packages, consulted first for a package no spec names. */
  mp_provider_factory builtins;
  /* Serves a plugin folder whose PulumiPlugin.yaml says `runtime: yaml`
   * (a Pulumi YAML component provider) in-process as the provider of
   * |pkg| (the CLI passes the embedded YAML host's,
   * lang/yaml_plugin.h). NULL: such a folder is refused as a runtime
   * minipulumi does not run. */
  int (*yaml_plugin)(const char *pkg, const char *dir, mp_provider **out,
                     mp_err *err);
  /* The folders searched after the specs, ':'-separated, as PATH (the
   * CLI passes $PATH); NULL: none. */
  const char *search_path;
  /* The plugin cache (the CLI passes $PULUMI_HOME/plugins, by default
   * ~/.pulumi/plugins) and minipulumi's own folder (~/.minipulumi/plugins),
   * both in Pulumi's layout (plugin/cache.h); the second also as a flat
   * folder of `pulumi-resource-<pkg>` files, for a package asked without
   * a version. NULL: none. */
  const char *cache_dir;
  const char *plugin_dir;
  /* Deadline of each resource call that has no timeout of its own, in
   * ms (the CLI passes MINIPULUMI_PLUGIN_TIMEOUT); 0: none. The
   * start and the setup calls (Handshake, GetPluginInfo, CheckConfig,
   * DiffConfig, Configure) have |setup_timeout_ms| (0: 60 s), or this
   * deadline when longer. */
  uint64_t call_timeout_ms;
  uint64_t setup_timeout_ms;
  /* Leveled logs and trace spans (launches, calls and their timings);
   * borrowed, may be NULL. With its |flow|, plugins are started with
   * --logtostderr and -v=N too. */
  mp_log *log;
} mp_plugin_host_opts;

/* Starts a host: its loop thread and its Engine server on 127.0.0.1.
 * No plugin is started yet. Returns 0 and sets |*out|, or MP_EIO (cannot
 * listen or start the thread; |err| says why). Any thread. */
int mp_plugin_host_new(const mp_plugin_host_opts *o, mp_plugin_host **out,
                       mp_err *err);

/* The factory to hand to the deployment (engine/provider.h): a package
 * named by a spec is served by that plugin; otherwise a built-in package
 * by the built-in provider; otherwise `pulumi-resource-<pkg>` found by
 * mp_plugin_find. A package served by no one gives MP_ENOENT with
 * Pulumi's text "no resource plugin 'pulumi-resource-<pkg>' found in the
 * workspace or on your $PATH", which fails only the resources needing
 * it. Each |make| launches a fresh plugin process (one per provider
 * instance, as Pulumi does). |h| must outlive every use. */
mp_provider_factory mp_plugin_host_factory(mp_plugin_host *h);

/* Where `pulumi-resource-<pkg>` is, searched in Pulumi's order: a spec of
 * the project naming |pkg| (and |version|, when both have one), then each
 * folder of PATH, then the cache folders: exactly |version|, or without
 * one the newest installed (a release before a pre-release). Sets |*path|
 * (owned) to an executable file, or to a plugin folder from source (one
 * holding PulumiPlugin.yaml: a spec's path, or a cache folder with no
 * executable, as Pulumi's plugin loader falls back to it). Returns 0, MP_EINVAL (|version| is not a
 * semantic version) or MP_ENOENT (the text above; with a version,
 * Pulumi's "... found in the workspace at version v<version> or on your
 * $PATH" and the folders looked in; a spec whose path is not an
 * executable file is named in the message instead). Any thread. */
int mp_plugin_find(mp_plugin_host *h, const char *pkg, const char *version,
                   char **path, mp_err *err);

/* Starts the plugin |argv| (argv[0] the executable; the engine address is
 * appended as the last argument) for package |pkg|, and returns it as an
 * unconfigured provider in |*out| (free with mp_provider_free, which ends
 * the process). The process runs in its own process group, in the program
 * folder, with PULUMI_CONFIG, PULUMI_PROJECT, PULUMI_STACK and
 * PULUMI_ORGANIZATION set, and dies with the host's thread
 * (PR_SET_PDEATHSIG). Its port is read from the first line of its stdout;
 * EOF or a line that is not a port fails with the plugin's stderr in the
 * message. Then Handshake (UNIMPLEMENTED: fall back to Configure's answer)
 * and GetPluginInfo. Later stdout and stderr lines and Engine.Log calls
 * become diagnostics (mp_prov_resp.warnings) of the call in flight for the
 * resource they name, else of the plugin's oldest call in flight, else of
 * its next call. Returns 0, MP_EIO (cannot start, no port, no answer) or
 * MP_EPROTO. Any thread. */
int mp_plugin_launch(mp_plugin_host *h, const char *pkg,
                     const char *const *argv, mp_provider **out, mp_err *err);

/* Ends every plugin process still running (connection closed, SIGINT to
 * its process group, SIGKILL 5 s later if it is still there, reaped),
 * stops the loop thread and frees |h|. NULL is fine. Not while a provider
 * call is running. */
void mp_plugin_host_shutdown(mp_plugin_host *h);

#endif
