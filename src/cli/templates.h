/* The built-in templates of `minipulumi new` (templates.c). */
#ifndef MP_CLI_TEMPLATES_H
#define MP_CLI_TEMPLATES_H

#include <stddef.h>

typedef struct mp_template_file {
  const char *path; /* relative to the project folder; NULL ends a list */
  const char *text; /* with ${PROJECT} and ${DESCRIPTION} to replace */
} mp_template_file;

typedef struct mp_template {
  const char *name;
  const char *description; /* the project's default description */
  int npm;                 /* its dependencies come from `npm install` */
  const mp_template_file *files;
} mp_template;

/* The template named |name|, or NULL. */
const mp_template *mp_template_find(const char *name);
/* The i-th template in name order, or NULL past the last. */
const mp_template *mp_template_at(size_t i);

#endif
