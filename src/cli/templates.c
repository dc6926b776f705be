/* The built-in project templates of `minipulumi new`: one per language
 * minipulumi runs, each a random pet and an output, ready for `up`. The
 * texts hold ${PROJECT} and ${DESCRIPTION}, replaced as in Pulumi's
 * templates. The Node.js ones pin @pulumi/random to the version the
 * built-in random provider claims, so no plugin download is needed. */
#include "cli/templates.h"

#include <string.h>

static const mp_template_file yaml_files[] = {
    {"Pulumi.yaml",
     "name: ${PROJECT}\n"
     "description: ${DESCRIPTION}\n"
     "runtime: yaml\n"
     "resources:\n"
     "  pet:\n"
     "    type: random:RandomPet\n"
     "    properties:\n"
     "      length: 2\n"
     "outputs:\n"
     "  petName: ${pet.id}\n"},
    {NULL, NULL}};

#define NODE_PACKAGE(main_file, dev)                                         \
  "{\n"                                                                      \
  "  \"name\": \"${PROJECT}\",\n"                                            \
  "  \"main\": \"" main_file "\",\n" dev                                     \
  "  \"dependencies\": {\n"                                                  \
  "    \"@pulumi/pulumi\": \"3.270.0\",\n"                                   \
  "    \"@pulumi/random\": \"4.21.2\"\n"                                     \
  "  }\n"                                                                    \
  "}\n"

static const mp_template_file typescript_files[] = {
    {"Pulumi.yaml",
     "name: ${PROJECT}\n"
     "description: ${DESCRIPTION}\n"
     "runtime:\n"
     "  name: nodejs\n"
     "  options:\n"
     "    typescript: true\n"},
    {"package.json",
     NODE_PACKAGE("index.ts", "  \"devDependencies\": {\n"
                              "    \"@types/node\": \"^20\",\n"
                              "    \"typescript\": \"^5\"\n"
                              "  },\n")},
    {"tsconfig.json",
     "{\n"
     "  \"compilerOptions\": {\n"
     "    \"strict\": true,\n"
     "    \"outDir\": \"bin\",\n"
     "    \"target\": \"es2020\",\n"
     "    \"module\": \"commonjs\",\n"
     "    \"moduleResolution\": \"node\",\n"
     "    \"sourceMap\": true,\n"
     "    \"skipLibCheck\": true\n"
     "  },\n"
     "  \"files\": [\"index.ts\"]\n"
     "}\n"},
    {"index.ts",
     "import * as random from \"@pulumi/random\";\n"
     "\n"
     "// A random pet name: replace it with your own resources.\n"
     "const pet = new random.RandomPet(\"pet\", { length: 2 });\n"
     "\n"
     "export const petName = pet.id;\n"},
    {".gitignore", "/bin/\n/node_modules/\n"},
    {NULL, NULL}};

static const mp_template_file javascript_files[] = {
    {"Pulumi.yaml",
     "name: ${PROJECT}\n"
     "description: ${DESCRIPTION}\n"
     "runtime:\n"
     "  name: nodejs\n"},
    {"package.json", NODE_PACKAGE("index.js", "")},
    {"index.js",
     "\"use strict\";\n"
     "const random = require(\"@pulumi/random\");\n"
     "\n"
     "// A random pet name: replace it with your own resources.\n"
     "const pet = new random.RandomPet(\"pet\", { length: 2 });\n"
     "\n"
     "exports.petName = pet.id;\n"},
    {".gitignore", "/node_modules/\n"},
    {NULL, NULL}};

static const mp_template templates[] = {
    {"javascript", "A minimal JavaScript Pulumi program", 1, javascript_files},
    {"typescript", "A minimal TypeScript Pulumi program", 1, typescript_files},
    {"yaml", "A minimal Pulumi YAML program", 0, yaml_files},
};

const mp_template *mp_template_find(const char *name) {
  for (size_t i = 0; i < sizeof(templates) / sizeof(*templates); i++)
    if (!strcmp(templates[i].name, name)) return &templates[i];
  return NULL;
}

const mp_template *mp_template_at(size_t i) {
  return i < sizeof(templates) / sizeof(*templates) ? &templates[i] : NULL;
}
