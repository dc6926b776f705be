/* minipulumi import TYPE NAME ID | --file FILE: adopts existing cloud
 * objects into the stack, as Pulumi's `import` does. The command runs an
 * update whose program registers the resources to import, each with the
 * `import` option (deploy/import_source.h), and targets only them, so that
 * nothing else in the stack changes and an import takes the inputs its
 * provider read. With
 * --generate-code (the default) it then prints the YAML resource block to
 * copy into the program (or writes it to --out). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/import_code_ts.h"
#include "cli/import_refs.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/operation.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "deploy/import_source.h"
#include "engine/urn.h"
#include "lang/ynode.h"

static void list_add(mp_import_list *l, const char *type, const char *name,
                     const char *id) {
  l->items = mp_xrealloc(l->items, (l->len + 1) * sizeof(*l->items));
  l->items[l->len].type = mp_xstrdup(type);
  l->items[l->len].name = mp_xstrdup(name);
  l->items[l->len].id = mp_xstrdup(id);
  l->items[l->len].urn = NULL;
  mp_strv_init(&l->items[l->len].props);
  l->len++;
}

/* Adds the comma-separated names of |csv| to |out| (Pulumi's string
 * slice flag). */
static void split_names(const char *csv, mp_strv *out) {
  const char *p = csv;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n) mp_strv_push_take(out, mp_xstrndup(p, n));
    p += n + (e != NULL);
  }
}

static void list_destroy(mp_import_list *l) {
  for (size_t i = 0; i < l->len; i++) {
    free(l->items[i].type);
    free(l->items[i].name);
    free(l->items[i].id);
    free(l->items[i].urn);
    mp_strv_destroy(&l->items[i].props);
  }
  free(l->items);
}

/* Pulumi's import file: {"resources": [{"type", "name", "id",
 * "properties"?}, ...]}. */
static int read_file(mp_ctx *ctx, const char *path, mp_import_list *l) {
  mp_buf b;
  mp_buf_init(&b);
  FILE *f = fopen(path, "rb");
  if (!f)
    return mp_cli_error(ctx, MP_EXIT_CONFIG, "could not read import file '%s': %s",
                        path, strerror(errno));
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) mp_buf_append(&b, chunk, n);
  fclose(f);
  cJSON *doc = cJSON_ParseWithLength(b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
  const cJSON *res = doc ? cJSON_GetObjectItemCaseSensitive(doc, "resources") : NULL;
  int status = 0;
  if (!cJSON_IsArray(res)) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "could not read import file '%s': expected a JSON "
                          "object with a \"resources\" list",
                          path);
  } else {
    const cJSON *r;
    size_t i = 0;
    cJSON_ArrayForEach(r, res) {
      const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "type");
      const cJSON *nm = cJSON_GetObjectItemCaseSensitive(r, "name");
      const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
      if (!cJSON_IsString(t) || !cJSON_IsString(nm) || !cJSON_IsString(id)) {
        status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                              "import file '%s': resource %zu needs string "
                              "fields \"type\", \"name\" and \"id\"",
                              path, i);
        break;
      }
      const cJSON *props = cJSON_GetObjectItemCaseSensitive(r, "properties");
      const cJSON *p;
      int bad = props && !cJSON_IsArray(props);
      if (props && !bad)
        cJSON_ArrayForEach(p, props) bad |= !cJSON_IsString(p);
      if (bad) {
        status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                              "import file '%s': resource %zu: \"properties\" "
                              "must be a list of property names",
                              path, i);
        break;
      }
      list_add(l, t->valuestring, nm->valuestring, id->valuestring);
      cJSON_ArrayForEach(p, props) mp_strv_push(&l->items[l->len - 1].props,
                                                p->valuestring);
      i++;
    }
  }
  cJSON_Delete(doc);
  return status;
}

/* |v| with every `${` of its strings written `$${`, which Pulumi YAML
 * reads as a literal `${` and not as an expression (owned). */
static mp_value *escape_interpolations(const mp_value *v) {
  if (v->kind == MP_VALUE_STRING) {
    mp_buf b;
    mp_buf_init(&b);
    for (size_t i = 0; i < v->u.str.len; i++) {
      if (v->u.str.ptr[i] == '$' && i + 1 < v->u.str.len &&
          v->u.str.ptr[i + 1] == '{')
        mp_buf_putc(&b, '$');
      mp_buf_putc(&b, v->u.str.ptr[i]);
    }
    mp_value *out = mp_value_new_string(b.data ? b.data : "", b.len);
    mp_buf_destroy(&b);
    return out;
  }
  if (v->kind == MP_VALUE_ARRAY) {
    mp_value *out = mp_value_new_array();
    for (size_t i = 0; i < v->u.arr.len; i++)
      mp_value_array_push(out, escape_interpolations(v->u.arr.items[i]));
    return out;
  }
  if (v->kind == MP_VALUE_OBJECT) {
    mp_value *out = mp_value_new_object();
    for (size_t i = 0; i < v->u.obj.len; i++)
      mp_value_object_set(out, v->u.obj.items[i].key,
                          escape_interpolations(v->u.obj.items[i].value));
    return out;
  }
  return mp_value_dup(v);
}

/* The live (not `delete`) entry of |urn| in |snap|, or NULL. */
static const mp_resource *live_entry(const mp_snapshot *snap, const char *urn) {
  for (size_t k = 0; k < snap->nres; k++)
    if (!snap->res[k]->delete_ && !strcmp(snap->res[k]->urn, urn))
      return snap->res[k];
  return NULL;
}

/* The code of the imported resources in the program's language, with the
 * inputs the import read (the state's): TypeScript for a Node.js project,
 * as Pulumi prints it there (import_code_ts.c), else YAML. */
static int generated_code(mp_ctx *ctx, const char *stack,
                          const mp_import_list *l, const mp_strv *urns,
                          mp_buf *out) {
  mp_snapshot *snap = NULL;
  mp_crypter crypter;
  int has = 0;
  int status = mp_cli_load_snapshot(ctx, stack, &snap, &crypter, &has);
  if (status) return status;
  const char *rt = ctx->project && ctx->project->runtime ? ctx->project->runtime : "";
  if (strcmp(rt, "nodejs") == 0) {
    mp_import_code_res *res = mp_xcalloc(l->len + 1, sizeof(*res));
    mp_value **props = mp_xcalloc(l->len + 1, sizeof(*props));
    size_t n = 0;
    for (size_t i = 0; i < l->len; i++) {
      const mp_resource *r = live_entry(snap, urns->items[i]);
      if (r == NULL) continue;
      props[n] = r->inputs ? mp_value_strip_secrets(r->inputs) : NULL;
      res[n] = (mp_import_code_res){l->items[i].name, l->items[i].type, props[n]};
      n++;
    }
    mp_import_code_ts(res, n, l->protect, out);
    for (size_t i = 0; i < n; i++) mp_value_free(props[i]);
    free(props);
    free(res);
    mp_snapshot_free(snap);
    return 0;
  }
  /* YAML: the block of the imported resources (type, properties, options,
   * as Pulumi writes them). The YAML library writes it, quoting whatever
   * needs it, so that the block pasted into the program reads back as the
   * same resources. */
  mp_value *resources = mp_value_new_object();
  for (size_t i = 0; i < l->len; i++) {
    const mp_resource *r = live_entry(snap, urns->items[i]);
    if (r == NULL) continue;
    mp_value *block = mp_value_new_object();
    const char *type = l->items[i].type;
    mp_value_object_set(block, "type", mp_value_new_string(type, strlen(type)));
    mp_value *props = r->inputs ? mp_value_strip_secrets(r->inputs) : NULL;
    if (props && props->kind == MP_VALUE_OBJECT && props->u.obj.len)
      mp_value_object_set(block, "properties", escape_interpolations(props));
    mp_value_free(props);
    if (l->protect) {
      mp_value *opts = mp_value_new_object();
      mp_value_object_set(opts, "protect", mp_value_new_bool(1));
      mp_value_object_set(block, "options", opts);
    }
    mp_value_object_set(resources, l->items[i].name, block);
  }
  mp_value *doc = mp_value_new_object();
  mp_value_object_set(doc, "resources", resources);
  mp_err err;
  mp_err_clear(&err);
  /* a resource's fields in Pulumi's order */
  static const char *const order[] = {"type", "properties", "options"};
  if (mp_ynode_emit(doc, order, MP_ARRAY_LEN(order), MP_YNODE_FIRST_EVERYWHERE,
                    out, &err))
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  mp_value_free(doc);
  mp_snapshot_free(snap);
  return status;
}

static const mp_cmd_help help = {
    "minipulumi import [TYPE NAME ID] [--file FILE] [flags]",
    "Import resources into an existing stack.\n\nEach resource (TYPE NAME ID, "
    "or the \"resources\" of an import file: [{\"type\", \"name\",\n\"id\"}]) "
    "is read from its provider by ID and added to the stack's state, "
    "protected unless\n--protect=false; nothing else in the stack changes. "
    "Then the YAML resource block to copy into\nthe program is printed "
    "(--generate-code=false: not; --out FILE: written there)."};

int mp_cmd_import(int argc, const char **argv, mp_ctx *ctx) {
  mp_op_flags f;
  mp_strv pos;
  mp_op_flags_init(&f);
  mp_strv_init(&pos);
  const char *file = NULL, *out_path = NULL, *from = NULL;
  const char *parent_spec = NULL, *provider_spec = NULL;
  mp_strv props; /* --properties, each maybe name1,name2 */
  mp_strv_init(&props);
  char *parent = NULL, *provider = NULL;
  mp_snapshot *existing = NULL;
  int protect = 1, generate = 1;
  const mp_opt opts[] = {
      MP_OPT_STR_('f', "file", &file, "FILE", "import the resources this JSON file lists"),
      MP_OPT_STR_('o', "out", &out_path, "FILE", "write the generated code to this file"),
      MP_OPT_BOOL_(0, "generate-code", &generate, "print the code to copy into the program (TypeScript for a Node.js project, else YAML)"),
      MP_OPT_BOOL_(0, "protect", &protect, "mark the imported resources protected (default true)"),
      MP_OPT_BOOL_('y', "yes", &f.yes, "import without asking after the preview"),
      MP_OPT_BOOL_(0, "skip-preview", &f.skip_preview, "do not preview before importing"),
      MP_OPT_BOOL_(0, "preview-only", &f.preview_only, "only show what the import would do"),
      MP_OPT_STR_('m', "message", &f.message, "MSG", "the update's message"),
      MP_OPT_BOOL_(0, "diff", &f.diff, "show the resources' properties"),
      MP_OPT_BOOL_('j', "json", &f.json, "print JSON events"),
      MP_OPT_INT_('p', "parallel", &f.parallel, "N", "at most N provider calls at once"),
      MP_OPT_STR_(0, "from", &from, "CONVERTER",
                  "import from another tool's state (not available: no "
                  "converters)"),
      MP_OPT_BOOL_(0, "suppress-outputs", &f.suppress_outputs,
                   "don't show the stack's outputs"),
      MP_OPT_STR_(0, "parent", &parent_spec, "name=urn",
                  "the parent resource of the imported one: its variable "
                  "name and URN"),
      MP_OPT_STR_(0, "provider", &provider_spec, "name=urn",
                  "the provider resource to import with: its variable name "
                  "and URN"),
      MP_OPT_LIST_(0, "properties", &props, "name1,name2",
                   "the properties of what is read to use as the imported "
                   "resource's inputs (default: all)"),
      /* the operation's flags Pulumi's import shares with up */
      MP_OPT_STR_(0, "config-file", &f.config_file, "file",
                  "use this file for the stack's configuration instead of "
                  "Pulumi.<stack>.yaml"),
      MP_OPT_BOOL_('d', "debug", &f.output.debug,
                   "Print detailed debugging output during resource "
                   "operations"),
      MP_OPT_BOOL_(0, "suppress-permalink", &f.output.suppress_permalink,
                   "Suppress display of the state permalink (there is none)"),
      MP_OPT_BOOL_(0, "suppress-progress", &f.suppress_progress,
                   "don't redraw the table in place; print one line per "
                   "step"),
      MP_OPT_STR_(0, "exec-kind", &f.exec_kind, "kind",
                  "how the command was started (auto.local, auto.inline, "
                  "cli)"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  mp_import_list l = {0};
  int status = 0;
  char *stack = NULL;
  if (rc) {
    status = mp_args_exit_status(rc);
  } else if (from) {
    /* Pulumi runs the converter plugin `pulumi-converter-<from>` */
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--from %s: converters are not available in "
                          "minipulumi; import the resources with TYPE NAME "
                          "ID or --file FILE",
                          from);
  } else if (file && (pos.len || parent_spec || provider_spec || props.len)) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "an inline resource may not be specified in "
                          "conjunction with an import file");
  } else if (!file && pos.len != 3) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "an inline resource must be specified as TYPE NAME "
                          "ID, or use --file FILE");
  } else if (file) {
    status = read_file(ctx, file, &l);
  } else {
    list_add(&l, pos.items[0], pos.items[1], pos.items[2]);
    for (size_t i = 0; i < props.len; i++)
      split_names(props.items[i], &l.items[0].props);
  }
  if (!status && l.len == 0)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG, "no resources to import");
  if (!status) status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (!status)
    status = mp_cli_import_refs(ctx, stack, parent_spec, provider_spec,
                                &parent, &provider, &existing);
  for (size_t i = 0; !status && i < l.len; i++) {
    mp_err err;
    mp_err_clear(&err);
    char *type = NULL;
    if (mp_yaml_resolve_type(l.items[i].type, &type, &err)) {
      status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
      break;
    }
    free(l.items[i].type);
    l.items[i].type = type;
    mp_strv_push_take(&f.targets, mp_urn_new(stack, ctx->project->name,
                                             parent, type, l.items[i].name,
                                             NULL));
    l.items[i].urn = mp_xstrdup(f.targets.items[f.targets.len - 1]);
  }
  if (!status) {
    l.protect = protect;
    l.parent = parent;
    l.provider = provider;
    l.existing = existing;
    f.import = &l;
    status = mp_cli_operation(ctx, MP_DEPLOY_UPDATE, 0, &f);
  }
  if (!status && generate && !f.preview_only && !f.json) {
    mp_buf code;
    mp_buf_init(&code);
    status = generated_code(ctx, stack, &l, &f.targets, &code);
    if (!status && out_path) {
      FILE *o = fopen(out_path, "wb");
      if (!o || fwrite(code.data, 1, code.len, o) != code.len || fclose(o))
        status = mp_cli_error(ctx, MP_EXIT_ERROR, "could not write '%s': %s",
                              out_path, strerror(errno));
    } else if (!status) {
      fprintf(ctx->out,
              "Please copy the following code into your Pulumi application. "
              "Not doing so\nwill cause Pulumi to report that an update will "
              "happen on the next update command.\n\n");
      if (protect)
        fprintf(ctx->out,
                "Please note that the imported resources are marked as "
                "protected. To destroy them\nyou will need to remove the "
                "`protect` option and run `%s up` *before*\nthe "
                "destroy will take effect.\n\n",
                mp_prog_name());
      fputs(code.data ? code.data : "", ctx->out);
    }
    mp_buf_destroy(&code);
  }
  free(stack);
  free(parent);
  free(provider);
  mp_snapshot_free(existing);
  list_destroy(&l);
  mp_strv_destroy(&props);
  mp_strv_destroy(&pos);
  mp_op_flags_destroy(&f);
  return status;
}
