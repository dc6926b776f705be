/* The plugins a program needs, known before it runs: what Pulumi's
 * language hosts answer to GetRequiredPlugins / GetRequiredPackages, so
 * that the CLI installs the missing ones before the deployment starts
 * (cli/plugin_ensure.c; docs/plugins.md, "Acquisition").
 *
 * The list is a plain array anyone may fill: mp_project_required_plugins
 * fills it for a project (Pulumi.yaml `plugins.providers`, then its
 * runtime's own answer), and another source of package declarations can
 * append its own entries with mp_required_plugins_add. */
#ifndef MP_LANG_REQUIRED_H
#define MP_LANG_REQUIRED_H

#include <stddef.h>

#include "engine/err.h"
#include "lang/project.h"

/* One plugin. Strings owned by the list. */
typedef struct mp_required_plugin {
  char *kind;    /* "resource" (Pulumi's plugin kinds) */
  char *name;    /* "aws" */
  char *version; /* "6.1.0", without a leading 'v'; NULL: any version */
  char *server;  /* its pluginDownloadURL; NULL: Pulumi's default places */
} mp_required_plugin;

/* Zero it before the first add; mp_required_plugins_destroy frees it. */
typedef struct mp_required_plugins {
  mp_required_plugin *items;
  size_t len, cap;
} mp_required_plugins;

/* Appends a plugin, as Pulumi's PluginSet.Deduplicate keeps them: an exact
 * repeat is dropped, and so is an entry naming neither a version nor a
 * server when another entry of the same kind and name does (a later
 * specific entry replaces an earlier vague one). |version| may start with
 * 'v'; |version| and |server| may be NULL or "". The strings are copied. */
void mp_required_plugins_add(mp_required_plugins *l, const char *kind,
                             const char *name, const char *version,
                             const char *server);
void mp_required_plugins_destroy(mp_required_plugins *l);

/* Appends the plugins project |p| needs: Pulumi.yaml's
 * `plugins.providers` (name and version), then, for `runtime: yaml`, each
 * resource's package with its `options.version` and
 * `options.pluginDownloadURL` (an explicit provider `pulumi:providers:<pkg>`
 * names <pkg>; the engine's own package `pulumi` is left out), and for
 * `runtime: nodejs` every package.json under a node_modules folder below
 * the program folder whose `pulumi` section says `resource: true` (its
 * `name`, `version` and `server`, as Pulumi's Node.js host reads them).
 * Best effort, as Pulumi's hosts: a program that does not parse, or a
 * package.json that cannot be read, adds nothing (the run reports the
 * program's errors). Returns 0. */
int mp_project_required_plugins(mp_project *p, mp_required_plugins *out,
                                mp_err *err);

/* The runtimes' parts (required_yaml.c, required_nodejs.c). */
void mp__required_yaml(mp_project *p, mp_required_plugins *out);
void mp__required_nodejs(const char *program_dir, mp_required_plugins *out);

#endif
