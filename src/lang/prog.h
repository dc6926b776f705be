/* The Pulumi YAML program as the host runs it: resources, variables,
 * config and outputs, the dependency graph, and the evaluator. */
#ifndef MP_LANG_PROG_H
#define MP_LANG_PROG_H

#include "monitor/api.h"
#include "lang/expr.h"
#include "lang/lang_int.h"

typedef enum mp__nstate {
  MP_N_WAIT,    /* some dependency is not done */
  MP_N_INVOKE,  /* evaluation waits for an fn::invoke answer */
  MP_N_RUNNING, /* registration or read in flight */
  MP_N_DONE,
  MP_N_BROKEN   /* the engine answered FAIL or SKIP (continue-on-error) */
} mp__nstate;

/* A resource declaration. Option fields hold -1 when unset. */
typedef struct mp__yres {
  char *key;   /* the name under `resources:` */
  char *name;  /* the registered name (`name:` or the key) */
  char *type;  /* the resolved type token */
  char *pkg;   /* the package of |type| (for default providers) */
  char *written_type;      /* |type| as the program writes it */
  int type_line, type_col; /* where */
  /* The package's schema says it is a component (`isComponent`): it is
   * registered remote, and its provider's Construct makes it (schema.c). */
  int remote;
  /* The schema's output properties that have a constant value (`const`),
   * name -> value: Pulumi YAML sends them with the inputs (schema.c). */
  mp_value *constants; /* OBJECT or NULL */
  /* The input properties its schema marks `secret`: the host sends them
   * secret, as Pulumi YAML does (schemas.c). */
  mp_strv secret_props;
  int line, col;
  int is_provider, default_provider, is_get;
  /* pulumi:pulumi:StackReference: read, its id the `name` property (the
   * key when absent), as Pulumi YAML does; |read_id| that id once built */
  int is_stack_ref;
  char *read_id;
  /* The properties its schema marks `replaceOnChanges` (schemas.c),
   * added to the option's, as Pulumi YAML adds them. */
  mp_strv schema_replace_on;
  /* The packageRef of the extension package whose schema has its type
   * (schemas.c), borrowed from the program's pkg_refs; NULL: none. */
  const char *ext_ref;
  mp__yexpr *props;       /* OBJECT or NULL */
  mp__yexpr *get_id;      /* `get:` */
  mp__yexpr *get_state;
  /* options */
  long parent, provider, deleted_with; /* resource index or -1 */
  long *depends_on, *replace_with;
  size_t ndepends_on, nreplace_with;
  long *providers; /* `providers`: provider resources, one per package */
  size_t nproviders;
  mp__yexpr *protect, *retain, *dbr, *version, *import_id, *ignore,
      *replace_on, *aso, *timeouts, *aliases, *plugin_url, *hide_diffs,
      *env_vars, *trigger;
  /* state */
  char *urn, *id;   /* id NULL: unknown (preview) */
  mp_value *outputs; /* OBJECT, or NULL when all outputs are unknown */
} mp__yres;

typedef struct mp__yvar {
  char *name;
  int line, col;
  mp__yexpr *expr;
  mp_value *value; /* when done */
  mp_strv deps;    /* resource URNs the value depends on */
} mp__yvar;

typedef struct mp__ycfg {
  char *short_key; /* "size" for the project's namespace, else full key */
  char *full_key;  /* "proj:size" */
  mp_value *value;
} mp__ycfg;

typedef struct mp__yout {
  char *key;
  mp__yexpr *expr;
} mp__yout;

/* A graph node: resource |idx| (is_res) or variable |idx|. */
typedef struct mp__gnode {
  int is_res;
  size_t idx;
  size_t *deps; /* node indices */
  size_t ndeps;
  mp__nstate state;
} mp__gnode;

/* Owner: the loop thread. */
typedef struct mp__prog {
  const mp_project *proj;
  const char *file; /* program file display name */
  mp__yres *res;
  size_t nres;
  mp__yvar *vars;
  size_t nvars;
  mp__ycfg *cfg;
  size_t ncfg;
  mp__yout *outs;
  size_t nouts;
  mp__gnode *nodes; /* resources first, then variables */
  size_t nnodes;
  long *default_providers; /* per resource: its package's default or -1 */
  /* `pulumi: requiredVersion:`, the Pulumi CLI version range the program
   * needs (pulumi-yaml PulumiDecl), or NULL. It may refer to config and
   * `pulumi.*` only: it is checked before anything is registered. */
  mp__yexpr *required_version;
  /* run */
  const char *stack, *organization;
  int dry_run;
  /* The parameterized packages registered (pkgrefs.c): pairs of the
   * package's name (its types' namespace; an extension's own name) and
   * its packageRef. */
  mp_strv pkg_refs;
  /* Resource references the program reads through (`${a.ref.value}`),
   * read as Pulumi YAML reads them, with the engine's
   * pulumi:pulumi:getResource: URN -> its answer {urn, id, state}
   * (OBJECT, owned, or NULL), and the URNs asked and not yet answered. */
  mp_value *hydrated;
  mp_strv hydrating;
} mp__prog;

/* Registers the parameterized packages |p|'s project declares (RegisterPackage),
 * before anything else is registered. 0 or an MP_E code. */
int mp__prog_register_packages(mp__prog *p, mp_monitor *m, mp_err *err);
/* The packageRef of package |ns| (the namespace of its types), or NULL
 * when it was not registered. Borrowed. */
const char *mp__prog_package_ref(const mp__prog *p, const char *ns);

/* The packages' schemas of one run (schemas.c): one question per package,
 * plugin version and download URL whose types are resolved by schema. */
typedef struct mp__yschema {
  char *pkg, *version, *url; /* version, url: NULL when not asked */
  char *ref;                 /* a parameterized package's packageRef */
  mp_value *resources;       /* the schema's `resources`, or NULL: none */
  mp_value *provider;        /* the schema's `provider`, or NULL: none */
  mp_value *functions;       /* the schema's `functions`, or NULL: none */
} mp__yschema;
typedef struct mp__yschemas {
  mp__yschema *items;
  size_t n;
} mp__yschemas;
/* The questions the resources and fn::invoke functions of |p| need (|q|
 * owned; mp__schemas_free). */
void mp__schemas_plan(const mp__prog *p, mp__yschemas *q);
/* Question |i| answered with the schema text |json| (NULL: no schema). */
void mp__schemas_answer(mp__yschemas *q, size_t i, const char *json);
/* Resolves the types of |p|'s resources through the answers: the schema's
 * token, and components marked remote; marks the fn::invoke calls whose
 * function's schema returns no object (invoke_unwrap). Returns 0 or MP_EINVAL
 * ("<file>:<line>:<col>: error resolving type of resource ...") for a type
 * the package's schema lacks. */
int mp__schemas_apply(mp__prog *p, const mp__yschemas *q, mp_err *err);
void mp__schemas_free(mp__yschemas *q);

/* Builds |p| from the program document and checks it statically
 * (references, cycles, types, options, config against |config|, the stack
 * config OBJECT). Returns 0 or MP_EINVAL with file:line:col. */
int mp__prog_analyze(mp__prog *p, const mp_project *proj,
                     const mp_value *config, mp_err *err);
void mp__prog_destroy(mp__prog *p);
/* Checks |p|'s required version range against the Pulumi CLI version
 * |version| with |in_range| (mp_source_info). 0 when it holds or there is
 * none, else MP_EINVAL ("<file>:<line>:<col>: Pulumi CLI version ... does
 * not satisfy the version range ..."). */
int mp__prog_check_version(mp__prog *p, const char *version,
                           int (*in_range)(const char *range,
                                           const char *version, mp_err *err),
                           mp_err *err);

/* A component's body ended: on success its URN, its outputs (OBJECT)
 * and, per output, the URNs it depends on (OBJECT of ARRAYs of strings),
 * all borrowed for the call; on failure NULL and the |error| text. */
typedef void (*mp__body_end)(void *ud, const char *urn, const mp_value *outputs,
                             const mp_value *output_deps, const char *error);
/* Runs |proj|'s program (a Pulumi YAML component's body: its `program` the
 * component's node, its config the component's inputs as "<project>:<key>")
 * against |m| as a program is run, except that |root| (taken) is
 * registered in the stack's place and parents the body's resources, whose
 * names get |name_prefix| (may be NULL), and the end goes to |on_end|
 * (later, once), not to the monitor; |proj| and |root| are then taken
 * (freed once the body is over). Returns 0, or an MP_E code (then
 * |on_end| never runs and |proj| and |root| are the caller's).
 * Loop thread. */
int mp__body_start(mp_project *proj, mp_monitor *m, const mp_source_info *info,
                   Pulumirpc__RegisterResourceRequest *root,
                   const char *name_prefix, mp__body_end on_end, void *ud,
                   mp_err *err);

/* The state of one evaluation. */
typedef struct mp__evalctx {
  mp__prog *p;
  mp_strv *deps;   /* receives the URNs of referenced resources */
  int pending;     /* set: an fn::invoke is in flight */
  /* Called to start an invoke of |x| (an fn::invoke whose arguments are
   * known); returns 0 or an MP_E code with |err| set. */
  int (*start_invoke)(void *ud, mp__yexpr *x, const mp_value *args,
                      const char *token, const char *provider,
                      mp_err *err);
  /* Called to read the resource |urn| of a reference (getResource; the
   * answer goes into p->hydrated); NULL where no call can be made.
   * Returns 0 or an MP_E code with |err| set. */
  int (*start_get_resource)(void *ud, const char *urn, mp_err *err);
  void *ud;
} mp__evalctx;

/* Evaluates |x|. Returns an owned value, or NULL with either c->pending
 * set (try again when the invoke answers) or |err| set (MP_EINVAL,
 * "<file>:<line>:<col>: ..."). */
mp_value *mp__eval(mp__evalctx *c, mp__yexpr *x, mp_err *err);

/* The provider reference "<urn>::<id>" of resource |r| (owned). */
char *mp__prog_provider_ref(const mp__yres *r);

/* Builds the RegisterResourceRequest (or, for `get:`, the
 * ReadResourceRequest) of resource |idx| under |stack_urn|. Returns 0 with
 * |*reg| or |*read| set (free with mp__request_free / mp__read_free), 1 when
 * an fn::invoke is pending, or MP_EINVAL with |err| set. */
int mp__request_build(mp__evalctx *c, size_t idx, const char *stack_urn,
                      Pulumirpc__RegisterResourceRequest **reg,
                      Pulumirpc__ReadResourceRequest **read, mp_err *err);
/* The stack's registration (type pulumi:pulumi:Stack, parent ""). */
Pulumirpc__RegisterResourceRequest *mp__request_stack(const char *project,
                                                      const char *stack);
void mp__request_free(Pulumirpc__RegisterResourceRequest *req);
void mp__read_free(Pulumirpc__ReadResourceRequest *req);

#endif
