/* minipulumi new [TEMPLATE|URL|PATH]: a new project from a template (a
 * built-in one, templates.c, or a folder in Pulumi's template format:
 * template_dir.c, found by new_source.c), its first stack, the
 * template's config and its dependencies installed, as Pulumi's
 * pkg/cmd/pulumi/newcmd/new.go runNew does: the folder must be empty
 * unless --force; the name, description, stack and config values are
 * asked on a terminal unless --yes or given; --generate-only writes the
 * files and stops. */
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
#include "cli/new_source.h"
#include "cli/stack_create.h"
#include "cli/template_dir.h"
#include "cli/template_git.h"
#include "cli/templates.h"
#include "cli/workspace.h"
#include "engine/value.h"
#include "lang/ynode.h"
#include "engine/names.h"

static const mp_cmd_help help = {
    "minipulumi new [template|url] [flags]",
    "Create a new Pulumi project and stack from a template.\n\n"
    "The template is a name (a folder of ~/.pulumi/templates, or the built-in "
    "javascript,\ntypescript or yaml), a path to a template folder (such as "
    "`./my-template`), or\nthe URL of a git repository "
    "(`https://github.com/<user>/<repo>`, with\n`/tree/<branch>/<folder>` "
    "for a branch and folder of it; ssh:// and git@ URLs too),\nfetched with "
    "the `git` command. A template folder holds a Pulumi.yaml whose\n"
    "`template:` section gives its description and the config values to ask "
    "for.\n\n"
    "Writes the project into the current folder (or --dir), which must be "
    "empty unless\n--force; creates its first stack (asked, dev by default), "
    "saves the config and, for\na Node.js project, runs `npm install`. "
    "--generate-only writes the files only.\nWith no template, a terminal "
    "offers the list to choose from.\n\n"
    "Stacks keep their secrets with a passphrase: --secrets-provider takes "
    "`passphrase`\n(or `default`), and refuses Pulumi's cloud key services."};

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

/* Pulumi's sanitizeTemplate: a template URL's credentials and query are
 * not kept in the project; a name or a path is kept as given. Owned. */
static char *template_tag(const char *arg, const char *name) {
  if (!arg) return mp_xstrdup(name);
  const char *scheme_end = strstr(arg, "://");
  if (!scheme_end) return mp_xstrdup(arg);
  const char *host = scheme_end + 3;
  const char *path = host + strcspn(host, "/?#");
  const char *at = memchr(host, '@', (size_t)(path - host));
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_append(&b, arg, (size_t)(host - arg));
  const char *from = at ? at + 1 : host;
  const char *query = strchr(path, '?');
  const char *frag = strchr(path, '#');
  if (query && frag && frag < query) query = NULL;
  mp_buf_append(&b, from, (size_t)((query ? query : path + strlen(path)) - from));
  if (query && frag) mp_buf_puts(&b, frag);
  return mp_buf_detach(&b, NULL);
}

/* Pulumi's new records where the project came from as the stack tag
 * pulumi:template, in the project's `pulumi:tags` config
 * (Project.AddConfigStackTags). A template that already sets
 * `pulumi:tags` keeps its own: Pulumi's code adds to a map it created
 * itself, never to one read from the template. */
static void add_template_tag(mp_value *doc, const char *tag) {
  mp_value *config = mp_value_object_get(doc, "config");
  if (config && config->kind != MP_VALUE_OBJECT) return;
  if (config && mp_value_object_get(config, "pulumi:tags")) return;
  mp_value *tags = mp_value_new_object();
  mp_value_object_set(tags, "pulumi:template",
                      mp_value_new_string(tag, strlen(tag)));
  mp_value *entry = mp_value_new_object();
  mp_value_object_set(entry, "value", tags);
  if (!config) {
    config = mp_value_new_object();
    mp_value_object_set(doc, "config", config);
  }
  mp_value_object_set(config, "pulumi:tags", entry);
}

/* The template's Pulumi.yaml with its name and description set, written
 * by the YAML emitter: the description is the user's text, which may
 * hold anything (a colon, a newline, `#`, quotes), so it is quoted and
 * escaped as YAML needs rather than pasted in. Owned, or NULL with |err|
 * (text the emitter refuses, such as invalid UTF-8). */
static char *project_yaml(const char *text, const char *project,
                          const char *desc, const char *tag, mp_err *err) {
  mp_ynode *n = NULL;
  if (mp_ynode_parse("Pulumi.yaml", text, strlen(text), &n, err))
    return NULL;
  mp_value *doc = mp_ynode_value(n, MP_YNODE_TYPED);
  mp_ynode_free(n);
  mp_value_object_set(doc, "name",
                      mp_value_new_string(project, strlen(project)));
  mp_value_object_set(doc, "description",
                      mp_value_new_string(desc, strlen(desc)));
  mp_value_object_del(doc, "template"); /* as Pulumi's new removes it */
  add_template_tag(doc, tag);
  /* the templates' own order: a project's keys, then a resource's */
  static const char *const order[] = {
      "name",      "description", "runtime",    "options", "config",
      "resources", "type",        "properties", "outputs"};
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
                       const char *project, const char *desc,
                       const char *tag) {
  for (const mp_template_file *f = t->files; f->path; f++) {
    char *path = mp_xasprintf("%s/%s", dir, f->path);
    char *text;
    if (!strcmp(f->path, "Pulumi.yaml")) {
      mp_err err;
      mp_err_clear(&err);
      text = project_yaml(f->text, project, desc, tag, &err);
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


/* A folder template's files copied into |dir|, then its Pulumi.yaml
 * rewritten with the name and description and without the template
 * section, as Pulumi's new saves the project. *npm: the project runs on
 * Node.js and has a package.json. */
static int copy_folder(mp_ctx *ctx, const mp_tpl *t, const char *dir,
                       int force, const char *project, const char *desc,
                       const char *tag, int *npm) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_tpl_copy(t->dir, dir, force, project, desc, &err) != 0)
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  char *path = mp_xasprintf("%s/Pulumi.yaml", dir);
  mp_ynode *n = NULL;
  char *text = NULL;
  int status = 0;
  if (mp_ynode_load(path, path, &n, &err) != 0) {
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  } else {
    const mp_ynode *rt = mp_ynode_get(n, "runtime");
    if (rt && rt->kind == MP_YNODE_MAP) rt = mp_ynode_get(rt, "name");
    char *pkg = mp_xasprintf("%s/package.json", dir);
    struct stat st;
    *npm = rt && rt->kind == MP_YNODE_SCALAR && !strcmp(rt->text, "nodejs") &&
           stat(pkg, &st) == 0;
    free(pkg);
    /* the template as copied (its ${...} already replaced) */
    mp_buf b;
    mp_buf_init(&b);
    FILE *f = fopen(path, "r");
    char chunk[4096];
    size_t got;
    while (f && (got = fread(chunk, 1, sizeof(chunk), f)) > 0)
      mp_buf_append(&b, chunk, got);
    if (f) fclose(f);
    char *orig = mp_buf_detach(&b, NULL);
    text = project_yaml(orig, project, desc, tag, &err);
    free(orig);
    if (text == NULL)
      status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "cannot write the project's name and "
                            "description into Pulumi.yaml: %s",
                            err.msg);
  }
  mp_ynode_free(n);
  FILE *out = status ? NULL : fopen(path, "w");
  if (!status && (!out || fputs(text, out) == EOF || fclose(out)))
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write %s: %m", path);
  free(text);
  free(path);
  return status;
}

/* Pulumi's ValidateSecretsProvider, with the cloud key services refused:
 * minipulumi keeps secrets with a passphrase only. */
static int check_secrets_provider(mp_ctx *ctx, const char *p) {
  size_t kind = strcspn(p, ":");
  if (!strncmp(p, "default", kind) && kind == 7) return 0;
  if (!strncmp(p, "passphrase", kind) && kind == 10) return 0;
  static const char *const cloud[] = {"awskms", "azurekeyvault", "gcpkms",
                                      "hashivault"};
  for (size_t i = 0; i < MP_ARRAY_LEN(cloud); i++)
    if (strlen(cloud[i]) == kind && !strncmp(p, cloud[i], kind))
      return mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "secrets provider '%s' is not supported: "
                          "minipulumi keeps secrets with a passphrase only; "
                          "use --secrets-provider=passphrase",
                          p);
  return mp_cli_error(ctx, MP_EXIT_CONFIG,
                      "unknown secrets provider type '%.*s' (supported "
                      "values: default,passphrase,awskms,azurekeyvault,"
                      "gcpkms,hashivault)",
                      (int)kind, p);
}

/* --list-templates: Pulumi's lines, to stdout. */
static int list_templates(mp_ctx *ctx) {
  mp_tpl *all = NULL;
  size_t n = 0;
  char *clone = NULL;
  int status = mp_new_templates(ctx, NULL, NULL, 1, &all, &n, &clone);
  mp_strv lines;
  mp_strv_init(&lines);
  mp_new_template_lines(all, n, &lines);
  if (!status) {
    fprintf(ctx->out, "\nAvailable Templates:\n");
    for (size_t i = 0; i < lines.len; i++)
      fprintf(ctx->out, "  %s\n", lines.items[i]);
  }
  mp_strv_destroy(&lines);
  for (size_t i = 0; i < n; i++) mp_tpl_destroy(&all[i]);
  free(all);
  return status;
}

/* One of |n| templates: the only one, or the one chosen on a terminal. */
static int choose(mp_ctx *ctx, mp_tpl *all, size_t n, const mp_tpl **out) {
  if (n == 0) return mp_cli_error(ctx, MP_EXIT_ERROR, "no templates");
  if (n == 1) {
    *out = &all[0];
    return 0;
  }
  if (!mp_cli_interactive(ctx))
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "template or url is required when running in "
                        "non-interactive mode");
  mp_strv lines;
  mp_strv_init(&lines);
  mp_new_template_lines(all, n, &lines);
  char *q = mp_xasprintf("Please choose a template (%zu total):", n);
  size_t pick = 0;
  int status = 0;
  if (mp_cli_select(ctx, q, (const char *const *)lines.items, lines.len, 0,
                    &pick) != 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "no template selected; please use `%s new` to "
                          "choose one",
                          mp_prog_name());
  /* the lines are sorted: find the template of the line chosen */
  for (size_t i = 0; !status && i < n; i++) {
    size_t len = strlen(all[i].name);
    if (!strncmp(lines.items[pick], all[i].name, len) &&
        lines.items[pick][len] == ' ')
      *out = &all[i];
  }
  free(q);
  mp_strv_destroy(&lines);
  return status;
}

/* The project's name: --name, else asked, by default the template's own
 * name or the folder's, as Pulumi's ValueOrSanitizedDefaultProjectName. */
static int project_name(mp_ctx *ctx, const mp_tpl *t, const char *dir,
                        const char *given, int may_ask, int yes,
                        char **out) {
  mp_err err;
  if (given) {
    *out = mp_xstrdup(given);
    return 0;
  }
  char *name = strcmp(t->project_name, "${PROJECT}")
                   ? mp_xstrdup(t->project_name)
                   : default_project_name(dir);
  if (yes && mp_project_name_check(name, &err) != 0) {
    int status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                              "'%s' is not a valid project name. %s", name,
                              err.msg);
    free(name);
    return status;
  }
  while (may_ask) {
    if (mp_new_ask(ctx, "Project name", 0, &name) != 0) {
      free(name);
      return mp_cli_error(ctx, MP_EXIT_ERROR, "no project name given");
    }
    if (mp_project_name_check(name, &err) == 0) break;
    fprintf(ctx->out, "Sorry, '%s' is not a valid project name. %s.\n", name,
            err.msg);
  }
  *out = name;
  return 0;
}

/* The next steps, after the project is ready. */
static void next_steps(mp_ctx *ctx, const char *dir_opt, int generate_only) {
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
    fprintf(ctx->out, "To perform an initial deployment, run `%s up`\n",
            mp_prog_name());
}

typedef struct new_args {
  const char *dir_opt, *name_opt, *desc_opt, *secrets;
  int yes, force, generate_only, offline, list, config_path;
  mp_strv pos, config;
} new_args;

static int run_new(mp_ctx *ctx, new_args *a) {
  int may_ask = !a->yes && mp_cli_interactive(ctx);
  mp_err err;
  if (!a->yes && !may_ask) return mp_cli_need_yes(ctx);
  if (a->name_opt && mp_project_name_check(a->name_opt, &err) != 0)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "'%s' is not a valid project name: %s", a->name_opt,
                        err.msg);
  int status = a->secrets ? check_secrets_provider(ctx, a->secrets) : 0;
  if (status) return status;
  const char *base = ctx->cwd ? ctx->cwd : ".";
  char *dir = !a->dir_opt ? mp_xstrdup(base)
              : a->dir_opt[0] == '/' ? mp_xstrdup(a->dir_opt)
                                     : mp_xasprintf("%s/%s", base, a->dir_opt);
  if (mkdir_p(dir))
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot create %s: %s", dir,
                          strerror(errno));
  else if (!a->force && !is_empty_dir(dir))
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "%s is not empty; rerun in an empty directory, pass "
                          "the path to an empty directory to --dir, or use "
                          "--force",
                          dir);
  mp_tpl *all = NULL;
  size_t n = 0;
  char *clone = NULL, *project = NULL, *desc = NULL, *stack = NULL;
  const mp_tpl *t = NULL;
  if (!status)
    status = mp_new_templates(ctx, a->pos.len ? a->pos.items[0] : NULL, dir,
                              a->offline, &all, &n, &clone);
  if (!status) status = choose(ctx, all, n, &t);
  if (!status && may_ask && (!a->name_opt || !a->desc_opt || !ctx->stack ||
                             t->nconfig)) {
    fprintf(ctx->out,
            "This command will walk you through creating a new Pulumi "
            "project.\n\nEnter a value or leave blank to accept the "
            "(default), and press <ENTER>.\nPress ^C at any time to "
            "quit.\n\n");
  }
  if (!status)
    status = project_name(ctx, t, dir, a->name_opt, may_ask, a->yes, &project);
  if (!status) {
    /* Pulumi's ValueOrDefaultProjectDescription */
    desc = mp_xstrdup(a->desc_opt ? a->desc_opt
                      : !t->project_desc ? ""
                      : strcmp(t->project_desc, "${DESCRIPTION}")
                          ? t->project_desc
                          : t->description);
    if (!a->desc_opt && may_ask &&
        mp_new_ask(ctx, "Project description", 0, &desc) != 0)
      status = mp_cli_error(ctx, MP_EXIT_ERROR, "no description given");
    if (!status && strlen(desc) > 256)
      status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "A project description must be 256 characters "
                            "or less");
  }
  int npm = 0;
  char *tag = status ? NULL
                     : template_tag(a->pos.len ? a->pos.items[0] : NULL,
                                    t->name);
  if (!status && t->builtin) {
    status = write_files(ctx, t->builtin, dir, project, desc, tag);
    npm = t->builtin->npm;
  } else if (!status) {
    status = copy_folder(ctx, t, dir, a->force, project, desc, tag, &npm);
  }
  free(tag);
  if (!status) fprintf(ctx->out, "Created project '%s'\n\n", project);
  if (!status && !a->generate_only) {
    const char *saved_cwd = ctx->cwd;
    ctx->cwd = dir; /* the new project is the workspace from here on */
    stack = mp_xstrdup(ctx->stack ? ctx->stack : "dev");
    if (!ctx->stack && may_ask && mp_new_ask(ctx, "Stack name", 0, &stack))
      status = mp_cli_error(ctx, MP_EXIT_ERROR, "no stack name given");
    if (!status) status = mp_cli_stack_create(ctx, stack, NULL, 0);
    if (!status) fprintf(ctx->out, "\n");
    if (!status)
      status = mp_new_config(ctx, t, project, &a->config, a->yes,
                             a->config_path);
    ctx->cwd = saved_cwd;
    if (!status && npm) status = npm_install(ctx, dir);
  }
  if (!status) {
    /* -e/--emoji: Pulumi's sparkles after the line */
    fprintf(ctx->out, "Your new project is ready to go!%s\n\n",
            ctx->emoji ? " \xe2\x9c\xa8" : "");
    next_steps(ctx, a->dir_opt, a->generate_only);
    if (t->quickstart) fprintf(ctx->out, "%s\n", t->quickstart);
  }
  for (size_t i = 0; i < n; i++) mp_tpl_destroy(&all[i]);
  free(all);
  if (clone) {
    mp_tpl_remove_tree(clone);
    free(clone);
  }
  free(project);
  free(desc);
  free(stack);
  free(dir);
  return status;
}

int mp_cmd_new(int argc, const char **argv, mp_ctx *ctx) {
  new_args a;
  memset(&a, 0, sizeof(a));
  mp_strv_init(&a.pos);
  mp_strv_init(&a.config);
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "dir", &a.dir_opt, "path", "The location to place the generated project; if not specified, the current directory is used"),
      MP_OPT_STR_('n', "name", &a.name_opt, "name", "The project name; if not specified, a prompt will request it"),
      MP_OPT_STR_('d', "description", &a.desc_opt, "text", "The project description; if not specified, a prompt will request it"),
      MP_OPT_LIST_('c', "config", &a.config, "key=value", "Config to save (repeatable)"),
      MP_OPT_BOOL_(0, "config-path", &a.config_path, "Config keys contain a path to a property in a map or list to set"),
      MP_OPT_BOOL_('y', "yes", &a.yes, "Skip prompts and proceed with default values"),
      MP_OPT_BOOL_('f', "force", &a.force, "Forces content to be generated even if it would change existing files"),
      MP_OPT_BOOL_('g', "generate-only", &a.generate_only, "Generate the project only; do not create a stack, save config, or install dependencies"),
      MP_OPT_BOOL_('o', "offline", &a.offline, "Use locally cached templates without making any network requests (refuses a git URL; names never need the network here)"),
      MP_OPT_BOOL_('l', "list-templates", &a.list, "List locally installed templates and exit"),
      MP_OPT_STR_(0, "secrets-provider", &a.secrets, "name", "The type of the provider that should be used to encrypt and decrypt secrets: passphrase (or default); the cloud key services are refused"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 1, &a.pos);
  int status = rc         ? mp_args_exit_status(rc)
               : a.list   ? list_templates(ctx)
                          : run_new(ctx, &a);
  mp_strv_destroy(&a.pos);
  mp_strv_destroy(&a.config);
  return status;
}
