/* Reading a provider's Diff answer (engine/res_diff.h). */
#include "engine/res_diff.h"

#include <string.h>

void mp_res_diff_init(mp_res_diff *d) {
  memset(d, 0, sizeof(*d));
  mp_diff_init(&d->detailed);
}

void mp_res_diff_destroy(mp_res_diff *d) {
  mp_strv_destroy(&d->keys);
  mp_strv_destroy(&d->diffs);
  mp_diff_destroy(&d->detailed);
}

int mp_res_diff_no_opinion(const mp_prov_resp *r) {
  return r->changes == MP_DIFF_CHANGES_UNKNOWN && r->replaces.len == 0;
}

void mp_res_diff_from_answer(const mp_prov_resp *r, mp_res_diff *d) {
  if (r->changes == MP_DIFF_CHANGES_SOME || r->replaces.len > 0)
    d->changed = 1;
  if (r->replaces.len > 0) {
    d->replace = 1;
    mp_strv_copy(&d->keys, &r->replaces);
  }
  d->dbr = r->delete_before_replace;
  mp_strv_copy(&d->diffs, &r->diffs);
  for (size_t i = 0; i < r->replaces.len; i++)
    if (!mp_strv_contains(&d->diffs, r->replaces.items[i]))
      mp_strv_push(&d->diffs, r->replaces.items[i]);
  if (r->has_detailed_diff) {
    d->has_detailed = 1;
    for (size_t i = 0; i < r->detailed_diff.len; i++)
      mp_diff_add(&d->detailed, r->detailed_diff.items[i].path,
                  r->detailed_diff.items[i].kind,
                  r->detailed_diff.items[i].input_diff);
  }
}

void mp_res_diff_compare(const mp_value *olds, const mp_value *news,
                         mp_res_diff *d) {
  mp_diff det;
  mp_diff_init(&det);
  mp_value_diff(olds, news, MP_VALUE_EQ_IGNORE_SECRETS, &det, &d->diffs);
  if (d->diffs.len > 0) {
    d->changed = 1;
    d->has_detailed = 1;
    for (size_t i = 0; i < det.len; i++)
      mp_diff_add(&d->detailed, det.items[i].path, det.items[i].kind, 1);
  }
  mp_diff_destroy(&det);
}

static mp_diff_kind inverse(mp_diff_kind k) {
  switch (k) {
  case MP_DIFF_ADD: return MP_DIFF_DELETE;
  case MP_DIFF_DELETE: return MP_DIFF_ADD;
  case MP_DIFF_ADD_REPLACE: return MP_DIFF_DELETE_REPLACE;
  case MP_DIFF_DELETE_REPLACE: return MP_DIFF_ADD_REPLACE;
  default: return k;
  }
}

void mp_res_diff_invert(mp_res_diff *d) {
  for (size_t i = 0; i < d->detailed.len; i++)
    d->detailed.items[i].kind = inverse(d->detailed.items[i].kind);
}
