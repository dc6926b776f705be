/* Snapshot containers: an ordered list of resource states plus pending
 * operations and the secrets provider
 * (tests/conformance/scenarios/S52-pending-operations.scn). */
#include "engine/snapshot.h"

#include <stdlib.h>
#include <string.h>

mp_snapshot *mp_snapshot_new(void) {
  return mp_xcalloc(1, sizeof(mp_snapshot));
}

void mp_snapshot_free(mp_snapshot *s) {
  if (s == NULL)
    return;
  for (size_t i = 0; i < s->nres; i++)
    mp_resource_free(s->res[i]);
  free(s->res);
  for (size_t i = 0; i < s->npending; i++)
    mp_resource_free(s->pending[i].res);
  free(s->pending);
  free(s->secrets_type);
  free(s->secrets_state);
  free(s->manifest_time);
  free(s->manifest_version);
  mp_extensions_destroy(&s->extensions);
  free(s);
}

void mp_snapshot_append(mp_snapshot *s, mp_resource *r) {
  if (s->nres == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    s->res = mp_xreallocarray(s->res, s->cap, sizeof(*s->res));
  }
  s->res[s->nres++] = r;
}

void mp_snapshot_append_pending(mp_snapshot *s, mp_resource *r,
                                mp_pending_type type) {
  if (s->npending == s->pcap) {
    s->pcap = s->pcap ? s->pcap * 2 : 4;
    s->pending = mp_xreallocarray(s->pending, s->pcap, sizeof(*s->pending));
  }
  mp_pending_op *op = &s->pending[s->npending++];
  op->res = r;
  op->type = type;
  op->row = 0;
}

int mp_snapshot_uses_extension(const mp_snapshot *s, const char *ref) {
  for (size_t i = 0; i < s->nres; i++)
    if (s->res[i]->extension_ref && strcmp(s->res[i]->extension_ref, ref) == 0)
      return 1;
  for (size_t i = 0; i < s->npending; i++)
    if (s->pending[i].res->extension_ref &&
        strcmp(s->pending[i].res->extension_ref, ref) == 0)
      return 1;
  return 0;
}
