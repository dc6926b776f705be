/* Before a refresh: the pending CREATE operations a killed update left
 * behind, resolved as Pulumi's refresh resolves them. A pending create
 * cannot be read (its ID is unknown), so the user says what happened:
 * `--import-pending-creates URN ID ...`, or on a terminal, for each one,
 * Pulumi's choice: clear (the create failed), skip, or import (it
 * succeeded: give its ID). An imported one becomes a resource with that ID
 * in the state, which the refresh then reads from its provider. */
#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"
#include "cli/operation.h"
#include "cli/secrets.h"
#include "cli/workspace.h"

/* Drops pending operation |i| of |s|. */
static void drop_pending(mp_snapshot *s, size_t i) {
  mp_resource_free(s->pending[i].res);
  memmove(&s->pending[i], &s->pending[i + 1],
          (s->npending - i - 1) * sizeof(*s->pending));
  s->npending--;
}

/* Pending create |i| completed with |id|: its resource joins the state.
 * The create of a create-before-delete replacement shares its URN with the
 * live prior copy; had it finished, that copy would have been marked for
 * deletion, so it is now (two live copies of a URN are not a state). */
static void complete(mp_snapshot *s, size_t i, const char *id) {
  mp_resource *r = s->pending[i].res;
  s->pending[i].res = NULL;
  free(r->id);
  r->id = mp_xstrdup(id);
  for (size_t k = 0; k < s->nres; k++)
    if (!s->res[k]->delete_ && !strcmp(s->res[k]->urn, r->urn))
      s->res[k]->delete_ = 1;
  mp_snapshot_append(s, r);
  drop_pending(s, i);
}

static long find_create(const mp_snapshot *s, const char *urn) {
  for (size_t i = 0; i < s->npending; i++)
    if (s->pending[i].type == MP_PENDING_CREATING &&
        !strcmp(s->pending[i].res->urn, urn))
      return (long)i;
  return -1;
}

/* Asks what to do with pending create |i|. Returns 1 when the snapshot
 * changed, 0 when skipped, or -1 when the prompt was given up. */
static int ask(mp_ctx *ctx, mp_snapshot *s, size_t i) {
  static const char *const options[] = {
      "clear (the CREATE failed; remove the pending CREATE)",
      "skip (do nothing)",
      ("import (the CREATE succeeded; provide a resource ID and complete the "
       "CREATE operation)")};
  for (;;) {
    fprintf(ctx->out, "Options for pending CREATE of %s\n",
            s->pending[i].res->urn);
    for (size_t k = 0; k < MP_ARRAY_LEN(options); k++)
      fprintf(ctx->out, "  %zu) %s\n", k + 1, options[k]);
    char answer[256];
    if (mp_cli_prompt(ctx, "Choose clear, skip or import:", answer,
                      sizeof(answer)))
      return -1;
    if (!strcmp(answer, "1") || !strcmp(answer, "clear")) {
      drop_pending(s, i);
      return 1;
    }
    if (!strcmp(answer, "2") || !strcmp(answer, "skip")) return 0;
    if (!strcmp(answer, "3") || !strcmp(answer, "import")) {
      char id[1024];
      if (mp_cli_prompt(ctx, "ID:", id, sizeof(id))) return -1;
      if (id[0] == '\0') continue;
      complete(s, i, id);
      return 1;
    }
  }
}

int mp_cli_pending_creates(mp_ctx *ctx, const mp_strv *imports, int ask_user) {
  if (imports->len == 0 && !ask_user) return 0;
  if (imports->len % 2)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "--import-pending-creates takes pairs: URN ID [URN "
                        "ID...]; got %zu values",
                        imports->len);
  char *stack = NULL;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (status) return status;
  mp_snapshot *snap = NULL;
  mp_crypter crypter;
  int has_crypter = 0;
  status = mp_cli_load_snapshot(ctx, stack, &snap, &crypter, &has_crypter);
  int changed = 0;
  for (size_t k = 0; !status && k + 1 < imports->len; k += 2) {
    long i = find_create(snap, imports->items[k]);
    if (i < 0) {
      fprintf(ctx->err,
              "warning: \"%s\" did not correspond to a pending create\n",
              imports->items[k]);
      continue;
    }
    complete(snap, (size_t)i, imports->items[k + 1]);
    changed = 1;
  }
  for (size_t i = 0; !status && ask_user && i < snap->npending;) {
    if (snap->pending[i].type != MP_PENDING_CREATING) {
      i++;
      continue;
    }
    int r = ask(ctx, snap, i);
    if (r < 0) {
      status = mp_cli_error(ctx, MP_EXIT_ERROR,
                            "no option selected for the pending CREATE; "
                            "nothing was changed");
      changed = 0;
    } else if (r == 0) {
      i++;
    } else {
      changed = 1;
    }
  }
  if (!status && changed) {
    mp_err err;
    mp_err_clear(&err);
    if (mp_store_replace(ctx->store, mp_cli_ref(ctx, stack), snap,
                         has_crypter ? &crypter : NULL, &err))
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  mp_snapshot_free(snap);
  free(stack);
  return status;
}
