/* minipulumi new TEMPLATE: a new project from a built-in template
 * (templates.c), its first stack, and its dependencies installed, as
 * `pulumi new` does: the folder must be empty unless --force; the name,
 * description and stack are asked on a terminal unless --yes or given;
 * --generate-only writes the files and stops. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/stack_create.h"
#include "cli/templates.h"
#include "cli/workspace.h"
#include "engine/value.h"
#include "lang/ynode.h"
#include "engine/names.h"

static const mp_cmd_help help = {
    "minipulumi new [template] [flags]",
    "Create a new Pulumi project from a template: javascript, typescript or "
    "yaml.\n\n"
    "Writes the project into the current folder (or --dir), which must be "
    "empty unless\n--force; creates its first stack (dev unless --stack) and, "
    "for a Node.js template,\nruns `npm install`. --generate-only writes the "
    "files only."};

/* The folder's name without what a project name may not hold, or
 * "project" when that is no valid name either, as Pulumi derives the
 * default name (getValidProjectName). */
static char *default_project_name(const char *dir) {
  char real[PATH_MAX];
  const char *base = realpath(dir, real) ? strrchr(real, '/') + 1 : dir;
  char *name = mp_xstrdup(base);
  char *w = name;
  for (const char *p = name; *p; p++)
    if (mp_name_char(*p))
      *w++ = *p;
  *w = 0;
  if (mp_project_name_check(name, NULL) != 0) {
    free(name);
    name = mp_xstrdup("project");
  }
  return name;
}

static int is_empty_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 1;
  struct dirent *e;
  int empty = 1;
  while (empty && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = 0;
  closedir(d);
  return empty;
}

static int mkdir_p(const char *path) {
  char *p = mp_xstrdup(path);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0777) && errno != EEXIST) return free(p), -1;
      *s = '/';
    }
  int rc = mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
  free(p);
  return rc;
}

/* |text| with ${PROJECT} and ${DESCRIPTION} replaced. */
static char *fill(const char *text, const char *project, const char *desc) {
  mp_buf b;
  mp_buf_init(&b);
  while (*text) {
    if (!strncmp(text, "${PROJECT}", 10)) {
      mp_buf_puts(&b, project);
      text += 10;
    } else if (!strncmp(text, "${DESCRIPTION}", 14)) {
      mp_buf_puts(&b, desc);
      text += 14;
    } else {
      mp_buf_putc(&b, *text++);
    }
  }
  return mp_buf_detach(&b, NULL);
}

/* The template's Pulumi.yaml with its name and description set, written
 * by the YAML emitter: the description is the user's text, which may
 * hold anything (a colon, a newline, `#`, quotes), so it is quoted and
 * escaped as YAML needs rather than pasted in. Owned, or NULL with |err|
 * (text the emitter refuses, such as invalid UTF-8). */
static char *project_yaml(const char *text, const char *project,
                          const char *desc, mp_err *err) {
  mp_ynode *n = NULL;
  if (mp_ynode_parse("Pulumi.yaml", text, strlen(text), &n, err))
    return NULL;
  mp_value *doc = mp_ynode_value(n, MP_YNODE_TYPED);
  mp_ynode_free(n);
  mp_value_object_set(doc, "name",
                      mp_value_new_string(project, strlen(project)));
  mp_value_object_set(doc, "description",
                      mp_value_new_string(desc, strlen(desc)));
  /* the templates' own order: a project's keys, then a resource's */
  static const char *const order[] = {"name",       "description", "runtime",
                                      "options",    "resources",   "type",
                                      "properties", "outputs"};
  mp_buf out;
  mp_buf_init(&out);
  int rc = mp_ynode_emit(doc, order, MP_ARRAY_LEN(order),
                         MP_YNODE_FIRST_EVERYWHERE, &out, err);
  mp_value_free(doc);
  if (rc) {
    mp_buf_destroy(&out);
    return NULL;
  }
  return mp_buf_detach(&out, NULL);
}

static int write_files(mp_ctx *ctx, const mp_template *t, const char *dir,
                       const char *project, const char *desc) {
  for (const mp_template_file *f = t->files; f->path; f++) {
    char *path = mp_xasprintf("%s/%s", dir, f->path);
    char *text;
    if (!strcmp(f->path, "Pulumi.yaml")) {
      mp_err err;
      mp_err_clear(&err);
      text = project_yaml(f->text, project, desc, &err);
      if (text == NULL) {
        free(path);
        return mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "cannot write the project's description into "
                            "Pulumi.yaml: %s",
                            err.msg);
      }
    } else {
      text = fill(f->text, project, desc);
    }
    FILE *out = fopen(path, "w");
    int bad = !out || fputs(text, out) == EOF;
    if (out && fclose(out)) bad = 1;
    int status = bad ? mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write %s: %s",
                                    path, strerror(errno))
                     : 0;
    free(text);
    free(path);
    if (status) return status;
  }
  return 0;
}

/* The dependencies of a Node.js template, with Pulumi's lines around. */
static int npm_install(mp_ctx *ctx, const char *dir) {
  fprintf(ctx->out, "Installing dependencies...\n\n");
  int status = mp_cli_npm_install(ctx, dir);
  if (status)
    fprintf(ctx->err, "Run `npm install` in %s, then `%s up`.\n", dir,
            mp_prog_name());
  else
    fprintf(ctx->out, "Finished installing dependencies\n\n");
  return status;
}

/* *value, or the answer to "|question| (|*value|):" on a terminal. */
static void ask(mp_ctx *ctx, int may_ask, const char *question, char **value) {
  if (!may_ask) return;
  char *q = mp_xasprintf("%s (%s):", question, *value);
  char answer[256];
  if (!mp_cli_prompt(ctx, q, answer, sizeof(answer)) && *answer) {
    free(*value);
    *value = mp_xstrdup(answer);
  }
  free(q);
}

static void list_templates(mp_ctx *ctx) {
  fprintf(ctx->err, "Available templates:\n");
  for (size_t i = 0; mp_template_at(i); i++)
    fprintf(ctx->err, "    %-11s %s\n", mp_template_at(i)->name,
            mp_template_at(i)->description);
}

int mp_cmd_new(int argc, const char **argv, mp_ctx *ctx) {
  const char *dir_opt = NULL, *name_opt = NULL, *desc_opt = NULL;
  int yes = 0, force = 0, generate_only = 0;
  mp_strv pos, config;
  mp_strv_init(&pos);
  mp_strv_init(&config);
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "dir", &dir_opt, "path", "The location to place the generated project; if not specified, the current directory is used"),
      MP_OPT_STR_('n', "name", &name_opt, "name", "The project name; if not specified, a prompt will request it"),
      MP_OPT_STR_('d', "description", &desc_opt, "text", "The project description; if not specified, a prompt will request it"),
      MP_OPT_LIST_('c', "config", &config, "key=value", "Config to save (repeatable)"),
      MP_OPT_BOOL_('y', "yes", &yes, "Skip prompts and proceed with default values"),
      MP_OPT_BOOL_('f', "force", &force, "Forces content to be generated even if it would change existing files"),
      MP_OPT_BOOL_('g', "generate-only", &generate_only, "Generate the project only; do not create a stack or install dependencies"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 1, &pos);
  if (rc) {
    mp_strv_destroy(&pos);
    mp_strv_destroy(&config);
    return mp_args_exit_status(rc);
  }
  int status = 0;
  const mp_template *t = pos.len ? mp_template_find(pos.items[0]) : NULL;
  const char *base = ctx->cwd ? ctx->cwd : ".";
  char *dir = !dir_opt ? mp_xstrdup(base)
              : dir_opt[0] == '/' ? mp_xstrdup(dir_opt)
                                  : mp_xasprintf("%s/%s", base, dir_opt);
  char *project = NULL, *desc = NULL, *stack = NULL;
  if (!pos.len) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "no template given; run `%s new <template>`",
                          mp_prog_name());
    list_templates(ctx);
  } else if (!t) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "template '%s' not found (minipulumi has built-in "
                          "templates only)",
                          pos.items[0]);
    list_templates(ctx);
  } else if (mkdir_p(dir)) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot create %s: %s", dir,
                          strerror(errno));
  } else if (!force && !is_empty_dir(dir)) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "%s is not empty; rerun in an empty directory, pass "
                          "the path to an empty directory to --dir, or use "
                          "--force",
                          dir);
  }
  if (!status) {
    int may_ask = !yes && mp_cli_interactive(ctx);
    project = name_opt ? mp_xstrdup(name_opt) : default_project_name(dir);
    if (!name_opt) ask(ctx, may_ask, "project name", &project);
    desc = mp_xstrdup(desc_opt ? desc_opt : t->description);
    if (!desc_opt) ask(ctx, may_ask, "project description", &desc);
    stack = mp_xstrdup(ctx->stack ? ctx->stack : "dev");
    if (!ctx->stack && !generate_only) ask(ctx, may_ask, "stack name", &stack);
    mp_err err;
    if (mp_project_name_check(project, &err) != 0)
      status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "'%s' is not a valid project name: %s", project,
                            err.msg);
  }
  if (!status) status = write_files(ctx, t, dir, project, desc);
  if (!status) fprintf(ctx->out, "Created project '%s'\n\n", project);
  if (!status && !generate_only) {
    const char *saved_cwd = ctx->cwd;
    ctx->cwd = dir; /* the new project is the workspace from here on */
    status = mp_cli_stack_create(ctx, stack, NULL, 0);
    for (size_t i = 0; !status && i < config.len; i++) {
      char *kv = mp_xstrdup(config.items[i]), *eq = strchr(kv, '=');
      if (eq) *eq = 0;
      const char *args[] = {"config", "set", kv, eq ? eq + 1 : "", NULL};
      status = mp_cmd_config(4, args, ctx);
      free(kv);
    }
    ctx->cwd = saved_cwd;
    if (!status && t->npm) status = npm_install(ctx, dir);
  }
  if (!status) {
    /* -e/--emoji: Pulumi's sparkles after the line */
    fprintf(ctx->out, "Your new project is ready to go!%s\n\n",
            ctx->emoji ? " \xe2\x9c\xa8" : "");
    if (generate_only)
      fprintf(ctx->out, "To create a stack, run `%s%s%s%s stack init "
                        "<name>`\n",
              dir_opt ? "cd " : "", dir_opt ? dir_opt : "",
              dir_opt ? "`, then `" : "", mp_prog_name());
    else if (dir_opt)
      fprintf(ctx->out, "To perform an initial deployment, run `cd %s`, then, "
                        "run `%s up`\n",
              dir_opt, mp_prog_name());
    else
      fprintf(ctx->out,
              "To perform an initial deployment, run `%s up`\n",
              mp_prog_name());
  }
  free(project);
  free(desc);
  free(stack);
  free(dir);
  mp_strv_destroy(&pos);
  mp_strv_destroy(&config);
  return status;
}
