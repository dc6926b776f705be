/* Reading a provider's Diff answer (engine/res_diff.h). */
#include "engine/res_diff.h"

#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"

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

void mp_res_diff_replace_on_changes(const mp_strv *roc, int init_errors,
                                    mp_res_diff *d) {
  if (roc->len == 0) return;
  mp_strv changed;
  mp_strv_init(&changed);
  mp_strv_copy(&changed, &d->diffs);
  for (size_t i = 0; i < d->detailed.len; i++)
    mp_strv_push(&changed, d->detailed.items[i].path);
  if (init_errors) mp_strv_push(&changed, "#initerror");
  for (size_t i = 0; i < roc->len; i++) {
    mp_path pat;
    if (mp_path_parse(roc->items[i], &pat, NULL) < 0) continue;
    for (size_t j = 0; j < changed.len; j++) {
      mp_path p;
      if (mp_path_parse(changed.items[j], &p, NULL) < 0) continue;
      if (mp_path_covers(&pat, &p)) {
        d->changed = d->replace = 1;
        size_t n;
        const char *top = changed.items[j];
        for (n = 0; top[n] && top[n] != '.' && top[n] != '['; n++) {
        }
        char *k = mp_xstrndup(top, n);
        if (!mp_strv_contains(&d->keys, k)) mp_strv_push(&d->keys, k);
        free(k);
      }
      mp_path_destroy(&p);
    }
    mp_path_destroy(&pat);
  }
  mp_strv_destroy(&changed);
}

static const char *short_name(const char *urn) {
  size_t n;
  const char *p = mp_urn_name(urn, &n);
  return p ? p : urn;
}

int mp_res_check_failures(const mp_resource *st, const mp_prov_resp *r,
                          mp_err *err) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < r->nfailures; i++) {
    const mp_check_failure *f = &r->failures[i];
    if (i) mp_buf_putc(&b, '\n');
    if (f->property && f->property[0]) {
      mp_buf tv;
      mp_buf_init(&tv);
      const mp_value *v = mp_value_object_get(st->inputs, f->property);
      /* A secret is never spelled out in a message. */
      if (v && mp_value_contains_secrets(v)) mp_buf_puts(&tv, "[secret]");
      else if (v) mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &tv, NULL);
      mp_buf_printf(&b,
                    "%s resource '%s': property %s value {%s} has a problem: "
                    "%s",
                    st->type, short_name(st->urn), f->property,
                    tv.data ? tv.data : "<nil>", f->reason);
      mp_buf_destroy(&tv);
    } else {
      mp_buf_printf(&b, "%s resource '%s' has a problem: %s", st->type,
                    short_name(st->urn), f->reason);
    }
  }
  mp_err_set(err, MP_EPLUGIN, "%s", b.data);
  mp_buf_destroy(&b);
  return MP_EPLUGIN;
}

/* A value as Go's %v prints it inside the import message: strings bare. */
static void plain_text(const mp_value *v, mp_buf *out) {
  if (v && v->kind == MP_VALUE_STRING) mp_buf_append(out, v->u.str.ptr, v->u.str.len);
  else if (v) mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, out, NULL);
}

char *mp_res_diff_import_replace_msg(const mp_res_diff *d,
                                     const mp_value *olds,
                                     const mp_value *news) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "previously-imported resources that still specify an ID "
                  "may not be replaced; please remove the `import` "
                  "declaration from your program;");
  for (size_t i = 0; i < d->keys.len; i++) {
    mp_buf oldt, newt;
    mp_buf_init(&oldt);
    mp_buf_init(&newt);
    plain_text(mp_value_object_get(olds, d->keys.items[i]), &oldt);
    plain_text(mp_value_object_get(news, d->keys.items[i]), &newt);
    mp_buf_printf(&b, "\n%s: {%s} => {%s}", d->keys.items[i],
                  oldt.data ? oldt.data : "", newt.data ? newt.data : "");
    mp_buf_destroy(&oldt);
    mp_buf_destroy(&newt);
  }
  return mp_buf_detach(&b, NULL);
}
