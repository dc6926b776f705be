/* Project templates held in folders, in Pulumi's template format: a
 * folder with a Pulumi.yaml whose `template:` section describes it
 * (description, quickstart, config, important), found at a path, in a git
 * repository (template_git.c) or in ~/.pulumi/templates. Loaded, listed
 * and copied as Pulumi's workspace package does (templates.go). */
#ifndef MP_CLI_TEMPLATE_DIR_H
#define MP_CLI_TEMPLATE_DIR_H

#include <stddef.h>

#include "cli/templates.h"
#include "engine/err.h"
#include "engine/mem.h"

/* One value the template asks for (template.config.<key>). */
typedef struct mp_tpl_config {
  char *key;         /* as written: `name` or `ns:name` */
  char *description; /* NULL: none */
  char *def;         /* the default, NULL: none */
  int secret;
} mp_tpl_config;

typedef struct mp_tpl {
  char *name;                 /* the folder's base name (or built-in's) */
  char *dir;                  /* the folder; NULL for a built-in */
  const mp_template *builtin; /* the built-in template, or NULL */
  char *description;          /* template.description ("" if none) */
  char *quickstart;           /* template.quickstart, NULL: none */
  int important;              /* template.important */
  char *project_name;         /* Pulumi.yaml's name (may be ${PROJECT}) */
  char *project_desc;         /* its description, NULL: none */
  mp_tpl_config *config;      /* sorted by key */
  size_t nconfig;
} mp_tpl;

void mp_tpl_destroy(mp_tpl *t);
/* |t| from the built-in template |b|. */
void mp_tpl_from_builtin(const mp_template *b, mp_tpl *t);
/* Loads the template in folder |dir| from its Pulumi.yaml. Returns 0,
 * MP_ENOENT (no Pulumi.yaml) or MP_EINVAL (a Pulumi.yaml that is not a
 * template: the message names the file). */
int mp_tpl_load(const char *dir, mp_tpl *t, mp_err *err);
/* The templates at |path|, as Pulumi's TemplateRepository.Templates: the
 * folder itself when it holds a Pulumi.yaml (a file: its folder), else
 * each of its subfolders that does (not .git), in name order. Appends to
 * |*out| (grown with realloc; *n counts). Returns 0 or an error code. */
int mp_tpl_scan(const char *path, mp_tpl **out, size_t *n, mp_err *err);
/* The folder of the templates installed on this machine:
 * $PULUMI_TEMPLATE_PATH, else $PULUMI_HOME/templates, else
 * ~/.pulumi/templates. Owned. */
char *mp_tpl_home_dir(void);
/* Copies the files of |src| into |dst| (which exists), as Pulumi's
 * CopyTemplateFiles: every file and folder but .git and
 * .pulumi.template.yaml, ${PROJECT} in file names replaced by |project|,
 * and ${PROJECT}/${DESCRIPTION} in the text of each file that is not
 * binary (a NUL in its first 8000 bytes) replaced by |project| and |desc|
 * (in a .yaml file, written as YAML strings). An existing file is
 * refused unless |force|. The mode keeps the source's bits (at least
 * 0600). Returns 0 or an error code with |err|. */
int mp_tpl_copy(const char *src, const char *dst, int force,
                const char *project, const char *desc, mp_err *err);

#endif
