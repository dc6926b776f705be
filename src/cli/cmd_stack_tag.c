/* minipulumi stack tag get|ls|rm|set: the stack's tags, in Pulumi's words
 * (pkg/cmd/pulumi/stack_tag.go). Tags are kept by the store; as with
 * Pulumi's DIY backends, only the tags a user sets are kept (Pulumi Cloud
 * adds pulumi:project and others itself; a self-managed store does not). */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/command_table.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/workspace.h"

/* The stack (-s or the selected one) and its tags; exit status. */
static int load(mp_ctx *ctx, char **stack, mp_stack_tag **tags, size_t *n) {
  *tags = NULL;
  *n = 0;
  int status = mp_cli_stack(ctx, NULL, 1, stack);
  if (status)
    return status;
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_tags_get(ctx->store, mp_cli_ref(ctx, *stack), tags, n, &err)) {
    free(*stack);
    *stack = NULL;
    mp_stack_tags_free(*tags, *n);
    *tags = NULL;
    *n = 0;
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  return 0;
}

static int save(mp_ctx *ctx, const char *stack, const mp_stack_tag *tags,
                size_t n) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_tags_set(ctx->store, mp_cli_ref(ctx, stack), tags, n, &err))
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  return 0;
}

/* Parses a subcommand with no flags of its own and |nargs| arguments into
 * |pos|, then loads the stack's tags. 0 to go on (the caller frees |pos|,
 * *stack and *tags), else the exit status with nothing left to free. */
static int begin(mp_ctx *ctx, const mp_cmd_help *help, int argc,
                 const char **argv, int nargs, mp_strv *pos, char **stack,
                 mp_stack_tag **tags, size_t *n) {
  mp_strv_init(pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, help, opts, argc, argv, nargs, nargs, pos);
  if (rc)
    return mp_args_exit_status(rc);
  int status = load(ctx, stack, tags, n);
  if (status)
    mp_strv_destroy(pos);
  return status;
}

static const mp_cmd_help get_help = {"minipulumi stack tag get <name> [flags]",
                                     "Get a single stack tag value"};

static int cmd_get(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  char *stack;
  mp_stack_tag *tags;
  size_t n;
  int status = begin(ctx, &get_help, argc, argv, 1, &pos, &stack, &tags, &n);
  if (status)
    return status;
  const char *value = NULL;
  for (size_t i = 0; i < n && !value; i++)
    if (!strcmp(tags[i].name, pos.items[0]))
      value = tags[i].value;
  if (value)
    fprintf(ctx->out, "%s\n", value);
  else
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "stack tag '%s' not found for stack '%s'",
                          pos.items[0], stack);
  free(stack);
  mp_stack_tags_free(tags, n);
  mp_strv_destroy(&pos);
  return status;
}

static const mp_cmd_help ls_help = {"minipulumi stack tag ls [flags]",
                                    "List all stack tags"};

static void print_table(mp_ctx *ctx, const mp_stack_tag *tags, size_t n) {
  int w = 4;
  for (size_t i = 0; i < n; i++)
    if ((int)strlen(tags[i].name) > w)
      w = (int)strlen(tags[i].name);
  fprintf(ctx->out, "%-*s  VALUE\n", w, "NAME");
  for (size_t i = 0; i < n; i++)
    fprintf(ctx->out, "%-*s  %s\n", w, tags[i].name, tags[i].value);
}

static int cmd_ls(int argc, const char **argv, mp_ctx *ctx) {
  int json = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_BOOL_('j', "json", &json, "Emit output as JSON"),
                         MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &ls_help, opts, argc, argv, 0, 0, &pos);
  if (rc)
    return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  char *stack;
  mp_stack_tag *tags;
  size_t n;
  int status = load(ctx, &stack, &tags, &n);
  if (status)
    return status;
  if (json) {
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < n; i++)
      cJSON_AddStringToObject(o, tags[i].name, tags[i].value);
    mp_cli_cjson_emit(ctx->out, o, 2);
  } else {
    print_table(ctx, tags, n);
  }
  mp_stack_tags_free(tags, n);
  free(stack);
  return 0;
}

static const mp_cmd_help rm_help = {"minipulumi stack tag rm <name> [flags]",
                                    "Remove a stack tag"};

static int cmd_rm(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  char *stack;
  mp_stack_tag *tags;
  size_t n;
  int status = begin(ctx, &rm_help, argc, argv, 1, &pos, &stack, &tags, &n);
  if (status)
    return status;
  /* removing a tag that is not there is not an error (Pulumi's) */
  for (size_t i = 0; i < n; i++) {
    if (strcmp(tags[i].name, pos.items[0]))
      continue;
    free(tags[i].name);
    free(tags[i].value);
    memmove(&tags[i], &tags[i + 1], (n - i - 1) * sizeof(*tags));
    n--;
    break;
  }
  status = save(ctx, stack, tags, n);
  free(stack);
  mp_stack_tags_free(tags, n);
  mp_strv_destroy(&pos);
  return status;
}

/* Pulumi's ValidateStackTags (pkg/backend/stack.go): the rules Pulumi
 * Cloud enforces, so that a tag set here is one Pulumi takes. */
static int validate(mp_ctx *ctx, const char *name, const char *value) {
  if (!*name)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "invalid stack tag \"\"");
  if (strlen(name) > 40)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "stack tag \"%s\" is too long (max length 40 "
                        "characters)", name);
  if (name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789-_.:")])
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "stack tag names may only contain alphanumerics, "
                        "hyphens, underscores, periods, or colons");
  if (strlen(value) > 256)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "stack tag \"%s\" value is too long (max length 256 "
                        "characters)", name);
  return 0;
}

static const mp_cmd_help set_help = {
    "minipulumi stack tag set <name> <value> [flags]", "Set a stack tag"};

static int cmd_set(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  char *stack;
  mp_stack_tag *tags;
  size_t n;
  int status = begin(ctx, &set_help, argc, argv, 2, &pos, &stack, &tags, &n);
  if (status)
    return status;
  const char *name = pos.items[0], *value = pos.items[1];
  status = validate(ctx, name, value);
  if (status == 0) {
    size_t i = 0;
    while (i < n && strcmp(tags[i].name, name))
      i++;
    if (i == n) {
      tags = mp_xreallocarray(tags, n + 1, sizeof(*tags));
      tags[n++].name = mp_xstrdup(name);
    } else {
      free(tags[i].value);
    }
    tags[i].value = mp_xstrdup(value);
    status = save(ctx, stack, tags, n);
  }
  free(stack);
  mp_stack_tags_free(tags, n);
  mp_strv_destroy(&pos);
  return status;
}

static const mp_command subs[] = {
    {"get", cmd_get, "Get a single stack tag value", {NULL}},
    {"ls", cmd_ls, "List all stack tags", {NULL}},
    {"rm", cmd_rm, "Remove a stack tag", {NULL}},
    {"set", cmd_set, "Set a stack tag", {NULL}},
};

static const mp_cmd_group group = {
    "stack tag",
    {"minipulumi stack tag <subcommand> [flags]",
     "Manage stack tags\n\nStacks have associated metadata in the form of "
     "tags. Each tag consists of a name\nand value. The `get`, `ls`, `rm`, "
     "and `set` commands can be used to manage tags."},
    subs,
    MP_ARRAY_LEN(subs),
    NULL};

int mp_cmd_stack_tag(int argc, const char **argv, mp_ctx *ctx) {
  return mp_cmd_group_run(ctx, &group, argc, argv);
}
