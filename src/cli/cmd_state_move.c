/* minipulumi state move [--source S] [--dest D] URN... [--include-parents]
 * [--yes]: moves resources, their children and (as copies) their providers
 * from one stack of the project to another, with Pulumi's plan, warnings
 * about the dependencies it breaks, confirmation and messages. The
 * destination is written first, so that a failure never loses track of a
 * resource. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "engine/urn.h"

/* One side of the move. */
typedef struct side {
  char *stack;
  mp_snapshot *snap;
  mp_crypter crypter;
  int has_crypter;
} side;

typedef struct mover {
  mp_ctx *ctx;
  side src, dst;
  unsigned char *moving; /* per source entry */
  mp_strv renames;       /* pairs: old URN or provider ref, new one */
  mp_buf broken_src, broken_dst; /* the warning lines */
  const char *dst_root;  /* the destination's root stack URN (borrowed) */
} mover;

static const char *renamed(const mover *m, const char *old) {
  for (size_t i = 0; i + 1 < m->renames.len; i += 2)
    if (!strcmp(m->renames.items[i], old)) return m->renames.items[i + 1];
  return NULL;
}

/* |urn| in the destination stack (same project). Owned. */
static char *to_dest(const mover *m, const char *urn) {
  mp_urn u;
  if (mp_urn_parse(urn, strlen(urn), &u, NULL)) return mp_xstrdup(urn);
  char *out = mp_xasprintf("urn:pulumi:%s::%s::%s::%s", m->dst.stack, u.project,
                           u.qualified_type, u.name);
  mp_urn_destroy(&u);
  return out;
}

static char *fq(const mover *m, const char *stack) {
  return mp_xasprintf("organization/%s/%s", m->ctx->project->name, stack);
}

static int is_root(const mp_resource *r) {
  return r->parent == NULL && !strcmp(r->type, "pulumi:pulumi:Stack");
}

static long find_live(const mp_snapshot *s, const char *urn) {
  for (size_t i = 0; i < s->nres; i++)
    if (!s->res[i]->delete_ && !strcmp(s->res[i]->urn, urn)) return (long)i;
  return -1;
}

/* 1 if |urn| is one of the source entries flagged in |set| (want = 1) or
 * not flagged (want = 0). */
static int in_set(const mover *m, const char *urn, int want) {
  long i = find_live(m->src.snap, urn);
  return i >= 0 && (m->moving[i] != 0) == want;
}

/* Drops from |r| the dependencies (plain, property, deletedWith,
 * replaceWith) on resources on the far side (|far| = 1: moving; 0:
 * staying), noting each in |log| as Pulumi lists them. */
static void break_deps(mover *m, mp_resource *r, int far, mp_buf *log) {
  mp_strv keep;
  mp_strv_init(&keep);
  for (size_t i = 0; i < r->dependencies.len; i++) {
    const char *d = r->dependencies.items[i];
    if (in_set(m, d, far)) mp_buf_printf(log, "  - %s has a dependency on %s\n", r->urn, d);
    else mp_strv_push(&keep, d);
  }
  mp_strv_destroy(&r->dependencies);
  r->dependencies = keep;
  for (size_t k = 0; k < r->property_dependencies.len; k++) {
    mp_propdep *pd = &r->property_dependencies.items[k];
    mp_strv pkeep;
    mp_strv_init(&pkeep);
    for (size_t i = 0; i < pd->urns.len; i++) {
      const char *d = pd->urns.items[i];
      if (in_set(m, d, far))
        mp_buf_printf(log, "  - %s (%s) has a property dependency on %s\n",
                      r->urn, pd->key, d);
      else mp_strv_push(&pkeep, d);
    }
    mp_strv_destroy(&pd->urns);
    pd->urns = pkeep;
  }
  if (r->deleted_with && in_set(m, r->deleted_with, far)) {
    mp_buf_printf(log, "  - %s is marked as deleted with %s\n", r->urn,
                  r->deleted_with);
    free(r->deleted_with);
    r->deleted_with = NULL;
  }
  mp_strv wkeep;
  mp_strv_init(&wkeep);
  for (size_t i = 0; i < r->replace_with.len; i++) {
    const char *d = r->replace_with.items[i];
    if (in_set(m, d, far)) mp_buf_printf(log, "  - %s is marked as replace with %s\n", r->urn, d);
    else mp_strv_push(&wkeep, d);
  }
  mp_strv_destroy(&r->replace_with);
  r->replace_with = wkeep;
}

static void swap_to_dest(const mover *m, char **urn) {
  if (*urn == NULL) return;
  const char *known = renamed(m, *urn);
  char *n = known ? mp_xstrdup(known) : to_dest(m, *urn);
  free(*urn);
  *urn = n;
}

/* Rewrites every URN |r| holds for the destination stack. */
static void rewrite(const mover *m, mp_resource *r) {
  swap_to_dest(m, &r->urn);
  swap_to_dest(m, &r->parent);
  swap_to_dest(m, &r->deleted_with);
  for (size_t i = 0; i < r->dependencies.len; i++)
    swap_to_dest(m, &r->dependencies.items[i]);
  for (size_t i = 0; i < r->replace_with.len; i++)
    swap_to_dest(m, &r->replace_with.items[i]);
  for (size_t k = 0; k < r->property_dependencies.len; k++)
    for (size_t i = 0; i < r->property_dependencies.items[k].urns.len; i++)
      swap_to_dest(m, &r->property_dependencies.items[k].urns.items[i]);
  if (r->provider && renamed(m, r->provider)) {
    char *n = mp_xstrdup(renamed(m, r->provider));
    free(r->provider);
    r->provider = n;
  }
}

/* Marks the resources to move: the URNs named (never a provider), with
 * --include-parents their parents, and every child of what moves. */
static int select_moving(mover *m, const mp_strv *urns, int parents) {
  mp_snapshot *s = m->src.snap;
  size_t found = 0;
  for (size_t a = 0; a < urns->len; a++) {
    int hit = 0;
    for (size_t i = 0; i < s->nres; i++) {
      if (s->res[i]->delete_ || strcmp(s->res[i]->urn, urns->items[a])) continue;
      if (mp_type_is_provider(s->res[i]->type))
        return mp_cli_error(m->ctx, MP_EXIT_ERROR,
                            "cannot move providers. Only resources can be "
                            "moved, and providers will be included "
                            "automatically");
      m->moving[i] = 1;
      hit = 1;
    }
    if (!hit)
      fprintf(m->ctx->out, "warning: Resource %s not found in source stack\n",
              urns->items[a]);
    found += (size_t)hit;
  }
  if (found == 0) {
    char *name = fq(m, m->src.stack);
    mp_cli_error(m->ctx, MP_EXIT_ERROR, "no resources found to move");
    fprintf(m->ctx->err,
            "To list the resource URNs in the stack, run `%s stack "
            "--show-urns --stack %s`.\n",
            mp_prog_name(), name);
    free(name);
    return MP_EXIT_ERROR;
  }
  for (size_t i = 0; parents && i < s->nres; i++) {
    const char *p = m->moving[i] ? s->res[i]->parent : NULL;
    long at;
    while (p && (at = find_live(s, p)) >= 0 && !is_root(s->res[at]) &&
           !mp_type_is_provider(s->res[at]->type)) {
      m->moving[at] = 1;
      p = s->res[at]->parent;
    }
  }
  for (int changed = 1; changed;) { /* children, to the last generation */
    changed = 0;
    for (size_t i = 0; i < s->nres; i++)
      if (!m->moving[i] && s->res[i]->parent && !mp_type_is_provider(s->res[i]->type) &&
          in_set(m, s->res[i]->parent, 1))
        m->moving[i] = changed = 1;
  }
  for (size_t i = 0; i < s->nres; i++)
    if (is_root(s->res[i])) m->moving[i] = 0;
  return 0;
}

/* Copies the providers of the moving resources into the destination (or
 * maps them onto equal ones already there). */
static int copy_providers(mover *m) {
  mp_snapshot *s = m->src.snap;
  for (size_t i = 0; i < s->nres; i++) {
    const mp_resource *p = s->res[i];
    if (m->moving[i] || !mp_type_is_provider(p->type)) continue;
    char *ref = mp_provider_ref_format(p->urn, p->id);
    int used = 0;
    for (size_t j = 0; j < s->nres && !used; j++)
      used = m->moving[j] && s->res[j]->provider && !strcmp(s->res[j]->provider, ref);
    if (!used) {
      free(ref);
      continue;
    }
    mp_resource *c = mp_resource_dup(p);
    break_deps(m, c, 0, &m->broken_dst);
    if (c->parent == NULL || !in_set(m, c->parent, 1)) {
      free(c->parent);
      c->parent = mp_xstrdup(m->dst_root);
    }
    rewrite(m, c);
    long there = find_live(m->dst.snap, c->urn);
    if (there >= 0) {
      const mp_resource *d = m->dst.snap->res[there];
      int same = (d->id && c->id && !strcmp(d->id, c->id)) ||
                 mp_value_equal(d->inputs, c->inputs, 0);
      if (!same) {
        int st = mp_cli_error(m->ctx, MP_EXIT_ERROR,
                              "provider %s already exists in destination stack",
                              c->urn);
        mp_resource_free(c);
        free(ref);
        return st;
      }
      mp_strv_push_take(&m->renames, ref);
      mp_strv_push_take(&m->renames, mp_provider_ref_format(d->urn, d->id));
      mp_resource_free(c);
      continue;
    }
    mp_strv_push_take(&m->renames, ref);
    mp_strv_push_take(&m->renames, mp_provider_ref_format(c->urn, c->id));
    mp_snapshot_append(m->dst.snap, c);
  }
  return 0;
}

/* Appends the moving resources, rewritten, to the destination. */
static int move_resources(mover *m) {
  mp_snapshot *s = m->src.snap;
  for (size_t i = 0; i < s->nres; i++) {
    if (!m->moving[i]) continue;
    mp_resource *c = mp_resource_dup(s->res[i]);
    if (!in_set(m, c->parent ? c->parent : "", 1)) {
      free(c->parent);
      c->parent = mp_xstrdup(m->dst_root);
    }
    break_deps(m, c, 0, &m->broken_dst);
    char *old = mp_xstrdup(c->urn);
    rewrite(m, c);
    mp_strv_push_take(&m->renames, old);
    mp_strv_push(&m->renames, c->urn);
    if (find_live(m->dst.snap, c->urn) >= 0) {
      int st = mp_cli_error(m->ctx, MP_EXIT_ERROR,
                            "resource %s already exists in destination stack",
                            c->urn);
      mp_resource_free(c);
      return st;
    }
    if (!m->dst.has_crypter &&
        (mp_value_contains_secrets(c->inputs) || mp_value_contains_secrets(c->outputs))) {
      mp_resource_free(c);
      return mp_cli_error(m->ctx, MP_EXIT_ERROR,
                          "destination stack has no secret manager. To move "
                          "resources either initialize the stack with a "
                          "secret manager, or run the minipulumi state move "
                          "command from the destination project directory");
    }
    mp_snapshot_append(m->dst.snap, c);
  }
  return 0;
}

/* The destination's root stack, made when it has none. */
static void ensure_root(mover *m) {
  for (size_t i = 0; i < m->dst.snap->nres; i++)
    if (is_root(m->dst.snap->res[i]) && !m->dst.snap->res[i]->delete_) {
      m->dst_root = m->dst.snap->res[i]->urn;
      return;
    }
  const char *proj = m->ctx->project->name;
  char *urn = mp_urn_root_stack(m->dst.stack, proj);
  mp_resource *r = mp_resource_new(urn, "pulumi:pulumi:Stack", 0);
  free(urn);
  mp_snapshot *d = m->dst.snap;
  mp_snapshot_append(d, r);
  memmove(&d->res[1], &d->res[0], (d->nres - 1) * sizeof(*d->res));
  d->res[0] = r;
  m->dst_root = r->urn;
}

/* The plan, the broken dependencies and, unless --yes, the question.
 * Returns 0 to go on, -1 when declined, or an exit status. */
static int confirm(mover *m, int yes) {
  char *from = fq(m, m->src.stack), *to = fq(m, m->dst.stack);
  FILE *o = m->ctx->out;
  fprintf(o, "Planning to move the following resources from %s to %s:\n\n",
          from, to);
  for (size_t i = 0; i < m->src.snap->nres; i++)
    if (m->moving[i]) fprintf(o, "  - %s\n", m->src.snap->res[i]->urn);
  fprintf(o, "\n");
  if (m->broken_src.len)
    fprintf(o, "The following resources remaining in %s have dependencies on "
               "resources moved to %s:\n\n%s",
            from, to, m->broken_src.data);
  if (m->broken_dst.len)
    fprintf(o, "%sThe following resources being moved to %s have dependencies "
               "on resources in %s:\n\n%s",
            m->broken_src.len ? "\n" : "", to, from, m->broken_dst.data);
  if (m->broken_src.len || m->broken_dst.len)
    fprintf(o, "\nIf you go ahead with moving these dependencies, it will be "
               "necessary to create the appropriate inputs and outputs in the "
               "program for the stack the resources are moved to.\n\n");
  free(from);
  free(to);
  if (yes) return 0;
  if (!mp_cli_interactive(m->ctx))
    return mp_cli_error(m->ctx, MP_EXIT_CONFIG,
                        "--yes must be passed in to proceed when running in "
                        "non-interactive mode");
  char answer[16];
  if (mp_cli_prompt(m->ctx, "Do you want to perform this move? [yes/no]",
                    answer, sizeof(answer)) == 0 &&
      (!strcmp(answer, "yes") || !strcmp(answer, "y")))
    return 0;
  fprintf(o, "Confirmation denied, not proceeding with the state move\n");
  return -1;
}

static int save(mover *m, side *s, mp_err *err) {
  return mp_store_replace(m->ctx->store, mp_cli_ref(m->ctx, s->stack), s->snap,
                          s->has_crypter ? &s->crypter : NULL, err);
}

/* Writes the destination, then the source; on a failed source write the
 * destination is put back. Returns an exit status. */
static int write_both(mover *m, mp_snapshot *dst_before, const mp_strv *moved) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_snapshot_verify(m->dst.snap, &err))
    return mp_cli_error(m->ctx, MP_EXIT_INTERNAL,
                        "failed to verify integrity of destination snapshot: "
                        "%s; nothing was moved",
                        err.msg);
  if (mp_snapshot_verify(m->src.snap, &err))
    return mp_cli_error(m->ctx, MP_EXIT_INTERNAL,
                        "failed to verify integrity of source snapshot: %s; "
                        "nothing was moved",
                        err.msg);
  if (save(m, &m->dst, &err))
    return mp_cli_error(m->ctx, MP_EXIT_ERROR,
                        "failed to save destination snapshot: %s\n\nNone of "
                        "the resources have been moved, it is safe to try "
                        "again",
                        err.msg);
  if (save(m, &m->src, &err) == 0) return 0;
  mp_err back;
  mp_err_clear(&back);
  mp_snapshot *after = m->dst.snap;
  m->dst.snap = dst_before;
  int restored = save(m, &m->dst, &back) == 0;
  m->dst.snap = after;
  if (restored)
    return mp_cli_error(m->ctx, MP_EXIT_ERROR,
                        "failed to save source snapshot: %s\n\nNone of the "
                        "resources have been moved.  Please fix the error and "
                        "try again",
                        err.msg);
  mp_cli_error(m->ctx, MP_EXIT_ERROR,
               "failed to save source snapshot: %s\n\nThe resources being "
               "moved have already been appended to the destination stack, "
               "but will still also be in the source stack.  Please remove "
               "the resources from the source stack manually using the "
               "following commands:",
               err.msg);
  for (size_t i = moved->len; i-- > 0;)
    fprintf(m->ctx->err, "    %s state delete --stack %s '%s'\n",
            mp_prog_name(), m->src.stack, moved->items[i]);
  return MP_EXIT_ERROR;
}

static int load_side(mp_ctx *ctx, const char *name, side *s) {
  int st = mp_cli_stack(ctx, name, 1, &s->stack);
  if (st == 0)
    st = mp_cli_load_snapshot(ctx, s->stack, &s->snap, &s->crypter,
                              &s->has_crypter);
  return st;
}

static int run_move(mover *m, const mp_strv *urns, int parents, int yes) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_snapshot_verify(m->dst.snap, &err))
    return mp_cli_error(m->ctx, MP_EXIT_ERROR,
                        "failed to verify integrity of destination snapshot: %s",
                        err.msg);
  if (mp_snapshot_verify(m->src.snap, &err))
    return mp_cli_error(m->ctx, MP_EXIT_ERROR,
                        "failed to verify integrity of source snapshot: %s",
                        err.msg);
  if (m->src.snap->nres == 0)
    return mp_cli_error(m->ctx, MP_EXIT_ERROR, "source stack has no resources");
  m->moving = mp_xcalloc(m->src.snap->nres + 1, 1);
  int st = select_moving(m, urns, parents);
  if (st) return st;
  mp_snapshot *dst_before = mp_snapshot_new();
  for (size_t i = 0; i < m->dst.snap->nres; i++)
    mp_snapshot_append(dst_before, mp_resource_dup(m->dst.snap->res[i]));
  ensure_root(m);
  st = copy_providers(m);
  if (st == 0) st = move_resources(m);
  if (st == 0) {
    /* What stays loses its dependencies on what moves. */
    mp_snapshot *s = m->src.snap;
    for (size_t i = 0; i < s->nres; i++)
      if (!m->moving[i]) break_deps(m, s->res[i], 1, &m->broken_src);
    st = confirm(m, yes);
  }
  if (st == 0) {
    mp_snapshot *s = m->src.snap;
    mp_strv moved;
    mp_strv_init(&moved);
    size_t w = 0;
    for (size_t i = 0; i < s->nres; i++) {
      if (m->moving[i]) {
        mp_strv_push(&moved, s->res[i]->urn);
        mp_resource_free(s->res[i]);
      } else {
        s->res[w++] = s->res[i];
      }
    }
    s->nres = w;
    memset(m->moving, 0, w);
    st = write_both(m, dst_before, &moved);
    mp_strv_destroy(&moved);
    if (st == 0) {
      char *from = fq(m, m->src.stack), *to = fq(m, m->dst.stack);
      fprintf(m->ctx->out, "Successfully moved resources from %s to %s\n",
              from, to);
      free(from);
      free(to);
    }
  }
  mp_snapshot_free(dst_before);
  return st < 0 ? 0 : st;
}

static const mp_cmd_help help = {
    "minipulumi state move [--source STACK] [--dest STACK] URN... [flags]",
    "Move resources from one stack to another\n\nThis command can be used to "
    "move resources from one stack to another. This can be useful when\n"
    "splitting a stack into multiple stacks or when merging multiple stacks "
    "into one. Children move\nwith their parents; the providers they use are "
    "copied."};

int mp_cmd_state_move(int argc, const char **argv, mp_ctx *ctx) {
  const char *source = NULL, *dest = NULL;
  int yes = 0, parents = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "source", &source, "STACK",
                  "the name of the stack to move resources from"),
      MP_OPT_STR_(0, "dest", &dest, "STACK",
                  "the name of the stack to move resources to"),
      MP_OPT_BOOL_('y', "yes", &yes, "automatically approve and perform the move"),
      MP_OPT_BOOL_(0, "include-parents", &parents,
                   "include the parents of the resources being moved"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  int st = 0;
  mover m;
  memset(&m, 0, sizeof(m));
  m.ctx = ctx;
  mp_strv_init(&m.renames);
  mp_buf_init(&m.broken_src);
  mp_buf_init(&m.broken_dst);
  if (rc) {
    st = mp_args_exit_status(rc);
  } else if (pos.len == 0) {
    st = mp_cli_error(ctx, MP_EXIT_CONFIG,
                      "requires at least 1 arg(s), only received 0");
  } else if (source == NULL && dest == NULL) {
    st = mp_cli_error(ctx, MP_EXIT_CONFIG,
                      "at least one of --source or --dest must be provided");
  } else if (!(st = load_side(ctx, source, &m.src)) &&
             !(st = load_side(ctx, dest, &m.dst))) {
    if (!strcmp(m.src.stack, m.dst.stack))
      st = mp_cli_error(ctx, MP_EXIT_ERROR,
                        "the source and destination stacks are the same "
                        "stack '%s'",
                        m.src.stack);
    else
      st = run_move(&m, &pos, parents, yes);
  }
  mp_snapshot_free(m.src.snap);
  mp_snapshot_free(m.dst.snap);
  free(m.src.stack);
  free(m.dst.stack);
  free(m.moving);
  mp_strv_destroy(&m.renames);
  mp_buf_destroy(&m.broken_src);
  mp_buf_destroy(&m.broken_dst);
  mp_strv_destroy(&pos);
  return st;
}
