/* Loading, checking and writing back a stack's snapshot for the `state`
 * subcommands (state_edit.h). */
#include "cli/state_edit.h"
#include "engine/prog_name.h"

#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "engine/text.h"
#include "engine/urn.h"

int mp_state_edit_open(mp_ctx *ctx, mp_state_edit *e) {
  memset(e, 0, sizeof(*e));
  e->ctx = ctx;
  int status = mp_cli_stack(ctx, NULL, 1, &e->stack);
  if (status) return status;
  status = mp_cli_load_snapshot(ctx, e->stack, &e->snap, &e->crypter,
                                &e->has_crypter);
  if (status) return status;
  mp_err err;
  mp_err_clear(&err);
  e->was_valid = mp_snapshot_verify(e->snap, &err) == 0;
  return 0;
}

void mp_state_edit_close(mp_state_edit *e) {
  mp_snapshot_free(e->snap);
  free(e->stack);
  memset(e, 0, sizeof(*e));
}

int mp_state_edit_confirm(mp_state_edit *e, int yes) {
  const char *skip = getenv("PULUMI_SKIP_CONFIRMATIONS");
  if (yes || (skip && (!strcmp(skip, "1") || !strcmp(skip, "true"))) ||
      !mp_cli_interactive(e->ctx))
    return 0;
  char answer[64];
  if (mp_cli_prompt(e->ctx,
                    "warning: This command will edit your stack's state "
                    "directly. Confirm? [yes/no]",
                    answer, sizeof(answer)) == 0 &&
      (!strcmp(answer, "yes") || !strcmp(answer, "y")))
    return 0;
  fprintf(e->ctx->out, "confirmation declined\n");
  return MP_EXIT_ERROR;
}

void mp_state_edit_hint(mp_state_edit *e) {
  const char *s = e->ctx->stack;
  fprintf(e->ctx->err,
          "To list the resource URNs in the stack, run `%s stack "
          "--show-urns%s%s`; to inspect the full state, run `%s stack "
          "export%s%s`.\n",
          mp_prog_name(), s ? " --stack " : "", s ? s : "", mp_prog_name(),
          s ? " --stack " : "", s ? s : "");
}


typedef struct near_urn {
  size_t dist, index;
} near_urn;

static int by_distance(const void *a, const void *b) {
  const near_urn *x = a, *y = b;
  if (x->dist != y->dist) return x->dist < y->dist ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Pulumi's not-found message with up to three URNs near |urn| (within a
 * quarter of its length, at least 2 edits). */
static int not_found(mp_state_edit *e, const char *urn) {
  size_t limit = strlen(urn) / 4 > 2 ? strlen(urn) / 4 : 2, n = 0;
  near_urn *near = mp_xcalloc(e->snap->nres + 1, sizeof(*near));
  for (size_t i = 0; i < e->snap->nres; i++) {
    size_t d = mp_text_distance(urn, e->snap->res[i]->urn, 1);
    if (d <= limit) near[n++] = (near_urn){d, i};
  }
  qsort(near, n, sizeof(*near), by_distance);
  fprintf(e->ctx->err,
          "error: No such resource \"%s\" exists in the current state\n", urn);
  if (n) fprintf(e->ctx->err, "Did you mean:\n");
  for (size_t i = 0; i < n && i < 3; i++)
    fprintf(e->ctx->err, "  %s\n", e->snap->res[near[i].index]->urn);
  free(near);
  mp_state_edit_hint(e);
  return MP_EXIT_ERROR;
}

int mp_state_edit_find(mp_state_edit *e, const char *urn, size_t *index) {
  if (!mp_urn_valid(urn)) {
    fprintf(e->ctx->err, "error: \"%s\" is not a valid resource URN\n", urn);
    mp_state_edit_hint(e);
    return MP_EXIT_ERROR;
  }
  size_t found = 0, at = 0;
  for (size_t i = 0; i < e->snap->nres; i++)
    if (!e->snap->res[i]->delete_ && !strcmp(e->snap->res[i]->urn, urn)) {
      found++;
      at = i;
    }
  if (found == 0) return not_found(e, urn);
  if (found > 1) {
    fprintf(e->ctx->err, "error: Resource URN ambiguously referred to "
                         "multiple resources. Did you mean:\n");
    for (size_t i = 0; i < e->snap->nres; i++)
      if (!strcmp(e->snap->res[i]->urn, urn))
        fprintf(e->ctx->err, "  %s\n",
                e->snap->res[i]->id ? e->snap->res[i]->id : "");
    return MP_EXIT_ERROR;
  }
  *index = at;
  return 0;
}

void mp_state_edit_remove(mp_state_edit *e, const unsigned char *drop) {
  size_t w = 0;
  for (size_t i = 0; i < e->snap->nres; i++) {
    if (drop[i]) {
      mp_resource_free(e->snap->res[i]);
      continue;
    }
    e->snap->res[w++] = e->snap->res[i];
  }
  e->snap->nres = w;
}

int mp_state_edit_save(mp_state_edit *e) {
  mp_err err;
  mp_err_clear(&err);
  if (e->was_valid && mp_snapshot_verify(e->snap, &err))
    return mp_cli_error(e->ctx, MP_EXIT_INTERNAL,
                        "state edit produced an invalid snapshot: %s; "
                        "nothing was written",
                        err.msg);
  if (mp_store_replace(e->ctx->store, mp_cli_ref(e->ctx, e->stack), e->snap,
                       e->has_crypter ? &e->crypter : NULL, &err))
    return mp_cli_fail(e->ctx, MP_EXIT_ERROR, &err);
  return 0;
}
