/* The providers of a deployment (providers.c, stack_outputs.c,
 * plugin_acquire.c). */
#ifndef MP_CLI_PROVIDERS_H
#define MP_CLI_PROVIDERS_H

#include <pthread.h>
#include <stdio.h>

#include "cli/ctx.h"
#include "engine/provider.h"
#include "plugin/plugin.h"
#include "providers/builtin.h"

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
  const volatile sig_atomic_t *interrupt; /* the command's; ends a download */
  const mp_cli_http *http;                /* the command's (mp_ctx.http) */
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
/* The outputs of another stack of the store, for the provider of package
 * `pulumi` (stack_outputs.c): an mp_read_stack_fn (deploy/builtins.h)
 * whose |ud| is the deployment's mp_cli_providers. */
int mp_cli_read_stack_outputs(void *ud, const char *name, mp_value **out,
                              mp_err *err);

#endif
