/* Pulumi YAML component providers: a plugin folder whose PulumiPlugin.yaml
 * says `runtime: yaml` and declares `components:`, served in-process by
 * the embedded YAML host (docs/plugins.md, "Pulumi YAML component
 * providers"). The plugin host makes one through this function (the CLI
 * hands it over, plugin/plugin.h `yaml_plugin`). */
#ifndef MP_LANG_YAML_PLUGIN_H
#define MP_LANG_YAML_PLUGIN_H

#include "engine/provider.h"

/* The provider of package |pkg| made of the plugin folder |dir|, as Pulumi
 * YAML's plugin serves it (pulumi-yaml pkg/server, pkg/pulumiyaml
 * GenerateSchema, RunComponentTemplate): GetPluginInfo answers the file's
 * `version`; GetSchema lists each component as `<name>:index:<key>`
 * (`isComponent`, its inputs typed as declared, its outputs of any type);
 * Construct (construct_here) registers the component with its inputs,
 * runs the component's body with the component as the parent of its
 * resources (named `<component>-<key>`), its inputs as config and
 * `pulumi.project`, `pulumi.stack` and `pulumi.organization` the
 * consuming program's, and answers its outputs. The file is read and
 * checked now (the `name`, each input's type). Sets |*out| (free with
 * mp_provider_free). Returns 0, MP_ENOENT or MP_EIO (the file), or
 * MP_EINVAL ("<folder>/PulumiPlugin.yaml:<line>:<col>: ..."). Any
 * thread. */
int mp_yaml_plugin_new(const char *pkg, const char *dir, mp_provider **out,
                       mp_err *err);

#endif
