/* A DIY stack in memory: the entries of its checkpoint, each kept as the
 * JSON text Pulumi's ResourceV3 reads, and the versioned checkpoint they
 * make (apitype.VersionedCheckpoint around apitype.CheckpointV3):
 *   {"version":3,"checkpoint":{"stack","config","latest":{"manifest",
 *    "secrets_providers","resources","pending_operations","metadata"}}}
 * Version 4 with "features" when an entry needs one, as stack export. */
#include "state/diy_int.h"

#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/snapshot_json_int.h"

/* ==== entries ==== */

void mp__diy_entry_free(diy_entry *e) {
  if (e == NULL)
    return;
  free(e->json);
  free(e);
}

unsigned mp__diy_features_of(const cJSON *res) {
  unsigned f = 0;
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "refreshBeforeUpdate")))
    f |= DIY_FEAT_REFRESH_BEFORE_UPDATE;
  if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(res, "replaceWith")))
    f |= DIY_FEAT_REPLACE_WITH;
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "taint")))
    f |= DIY_FEAT_TAINT;
  if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(res, "extensionRef")))
    f |= DIY_FEAT_EXTENSION;
  return f;
}

unsigned mp__diy_features_of_resource(const mp_resource *r) {
  return (r->refresh_before_update ? DIY_FEAT_REFRESH_BEFORE_UPDATE : 0) |
         (r->replace_with.len ? DIY_FEAT_REPLACE_WITH : 0) |
         (r->taint ? DIY_FEAT_TAINT : 0) |
         (r->extension_ref ? DIY_FEAT_EXTENSION : 0);
}

diy_stack *mp__diy_model_new(mp_diy *s, mp_stack_ref st) {
  diy_stack *m = mp_xcalloc(1, sizeof(*m));
  m->id = ++s->next_id;
  m->project = mp_xstrdup(st.project);
  m->name = mp_xstrdup(st.name);
  m->next_row = 1;
  return m;
}

static void free_entries(diy_entry **a, size_t n) {
  for (size_t i = 0; i < n; i++)
    mp__diy_entry_free(a[i]);
  free(a);
}

void mp__diy_model_free(diy_stack *m) {
  if (m == NULL)
    return;
  free_entries(m->res, m->nres);
  free_entries(m->pend, m->npend);
  free_entries(m->old_res, m->old_nres);
  free_entries(m->old_pend, m->old_npend);
  mp__diy_model_unbury(m);
  free(m->grave);
  free(m->byrow);
  free(m->old_byrow);
  free(m->project);
  free(m->name);
  free(m->secrets_type);
  free(m->secrets_state);
  cJSON_Delete(m->config);
  cJSON_Delete(m->metadata);
  cJSON_Delete(m->extensions);
  cJSON_Delete(m->old_extensions);
  free(m);
}

int64_t mp__diy_model_add(diy_stack *m, char *json, size_t len, int64_t ord,
                          int pending, mp_pending_type type,
                          unsigned features) {
  diy_entry *e = mp_xcalloc(1, sizeof(*e));
  e->row = m->next_row++;
  e->ord = ord;
  e->json = json;
  e->len = len;
  e->pending = pending;
  e->type = type;
  e->features = features;
  if ((size_t)e->row >= m->byrow_cap) {
    size_t cap = m->byrow_cap ? m->byrow_cap : 16;
    while (cap <= (size_t)e->row)
      cap *= 2;
    m->byrow = mp_xreallocarray(m->byrow, cap, sizeof(*m->byrow));
    memset(m->byrow + m->byrow_cap, 0, (cap - m->byrow_cap) * sizeof(*m->byrow));
    m->byrow_cap = cap;
  }
  m->byrow[e->row] = e;
  if (pending) {
    if (m->npend == m->pcap) {
      m->pcap = m->pcap ? m->pcap * 2 : 16;
      m->pend = mp_xreallocarray(m->pend, m->pcap, sizeof(*m->pend));
    }
    m->pend[m->npend++] = e;
  } else {
    if (m->nres == m->rcap) {
      m->rcap = m->rcap ? m->rcap * 2 : 16;
      m->res = mp_xreallocarray(m->res, m->rcap, sizeof(*m->res));
    }
    if (m->nres > 0 && m->res[m->nres - 1]->ord > ord)
      m->unsorted = 1;
    m->res[m->nres++] = e;
  }
  return e->row;
}

diy_entry *mp__diy_model_get(const diy_stack *m, int64_t row) {
  if (row <= 0 || row >= m->next_row || m->byrow == NULL)
    return NULL;
  return m->byrow[row];
}

static void remove_from(diy_entry **a, size_t *n, const diy_entry *e) {
  for (size_t i = *n; i-- > 0;) {
    if (a[i] == e) {
      memmove(&a[i], &a[i + 1], (*n - i - 1) * sizeof(*a));
      (*n)--;
      return;
    }
  }
}

void mp__diy_model_remove(diy_stack *m, int64_t row) {
  diy_entry *e = mp__diy_model_get(m, row);
  if (e == NULL)
    return;
  if (e->pending)
    remove_from(m->pend, &m->npend, e);
  else
    remove_from(m->res, &m->nres, e);
  m->byrow[row] = NULL;
  mp__diy_model_bury(m, e, 1);
}

static int by_ord(const void *a, const void *b) {
  const diy_entry *x = *(diy_entry *const *)a, *y = *(diy_entry *const *)b;
  return (x->ord > y->ord) - (x->ord < y->ord);
}

void mp__diy_model_sort(diy_stack *m) {
  if (!m->unsorted)
    return;
  if (m->nres)
    qsort(m->res, m->nres, sizeof(*m->res), by_ord);
  m->unsorted = 0;
}

/* ==== parse ==== */

static char *print_compact(const cJSON *j, size_t *len) {
  mp_buf b;
  mp_buf_init(&b);
  mp__json_print(j, 0, &b);
  return mp_buf_detach(&b, len);
}

static int parse_latest(diy_stack *m, const cJSON *latest, const char *path,
                        mp_err *err) {
  const cJSON *sp = cJSON_GetObjectItemCaseSensitive(latest, "secrets_providers");
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(sp, "type");
  if (cJSON_IsString(t)) {
    m->secrets_type = mp_xstrdup(t->valuestring);
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(sp, "state");
    if (state)
      m->secrets_state = print_compact(state, NULL);
  }
  const cJSON *md = cJSON_GetObjectItemCaseSensitive(latest, "metadata");
  if (cJSON_IsObject(md))
    m->metadata = cJSON_Duplicate(md, 1);
  const cJSON *ext = cJSON_GetObjectItemCaseSensitive(latest, "extensions");
  if (cJSON_IsObject(ext))
    m->extensions = cJSON_Duplicate(ext, 1);
  const cJSON *res = cJSON_GetObjectItemCaseSensitive(latest, "resources"), *it;
  int64_t ord = 0;
  cJSON_ArrayForEach(it, res) {
    if (!cJSON_IsObject(it))
      return mp_err_set(err, MP_ESTATE,
                        "'%s': resource #%lld is not a JSON object", path,
                        (long long)ord + 1);
    size_t len;
    char *json = print_compact(it, &len);
    mp__diy_model_add(m, json, len, ord++, 0, MP_PENDING_CREATING,
                      mp__diy_features_of(it));
  }
  const cJSON *ops = cJSON_GetObjectItemCaseSensitive(latest, "pending_operations");
  cJSON_ArrayForEach(it, ops) {
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(it, "resource");
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(it, "type");
    mp_pending_type type;
    if (!cJSON_IsObject(r) || !cJSON_IsString(ty) ||
        mp_pending_type_parse(ty->valuestring, &type) < 0)
      return mp_err_set(err, MP_ESTATE,
                        "'%s': a pending operation has no resource or an "
                        "unknown type",
                        path);
    size_t len;
    char *json = print_compact(r, &len);
    mp__diy_model_add(m, json, len, 0, 1, type, 0);
  }
  return 0;
}

int mp__diy_model_parse(mp_diy *s, mp_stack_ref st, const char *text,
                        size_t len, const char *path, diy_stack **out,
                        mp_err *err) {
  *out = NULL;
  cJSON *root = cJSON_ParseWithLength(text, len);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "version");
  const cJSON *chk = cJSON_GetObjectItemCaseSensitive(root, "checkpoint");
  int rc = 0;
  if (root == NULL)
    rc = mp_err_set(err, MP_ESTATE,
                    "'%s' is not JSON; restore it from its .bak file", path);
  else if (!cJSON_IsNumber(v) || !cJSON_IsObject(chk))
    rc = mp_err_set(err, MP_ESTATE,
                    "'%s' is not a Pulumi checkpoint (no \"version\" and "
                    "\"checkpoint\")",
                    path);
  else if (v->valuedouble < 1 || v->valuedouble > 4)
    rc = mp_err_set(err, MP_ESTATE,
                    "'%s' is a checkpoint of version %g; this minipulumi "
                    "reads versions 1 to 4",
                    path, v->valuedouble);
  diy_stack *m = NULL;
  if (rc == 0) {
    m = mp__diy_model_new(s, st);
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(chk, "config");
    if (cJSON_IsObject(cfg))
      m->config = cJSON_Duplicate(cfg, 1);
    const cJSON *latest = cJSON_GetObjectItemCaseSensitive(chk, "latest");
    if (cJSON_IsObject(latest))
      rc = parse_latest(m, latest, path, err);
  }
  cJSON_Delete(root);
  if (rc < 0) {
    mp__diy_model_free(m);
    return rc;
  }
  *out = m;
  return 0;
}

/* ==== print ==== */

static void put_features(mp_buf *b, unsigned f) {
  /* Sorted by name, as Pulumi writes them; each with its DIY_FEAT_ bit. */
  static const struct {
    const char *name;
    unsigned bit;
  } names[] = {{"extensionParameterization", DIY_FEAT_EXTENSION},
               {"refreshBeforeUpdate", DIY_FEAT_REFRESH_BEFORE_UPDATE},
               {"replaceWith", DIY_FEAT_REPLACE_WITH},
               {"taint", DIY_FEAT_TAINT}};
  mp_buf_puts(b, ",\"features\":[");
  int first = 1;
  for (size_t i = 0; i < MP_ARRAY_LEN(names); i++) {
    if (!(f & names[i].bit))
      continue;
    mp_buf_printf(b, "%s\"%s\"", first ? "" : ",", names[i].name);
    first = 0;
  }
  mp_buf_putc(b, ']');
}

static void put_string(mp_buf *b, const char *s) {
  cJSON *j = cJSON_CreateString(s);
  mp__json_print(j, 0, b);
  cJSON_Delete(j);
}

static void put_manifest(mp_buf *b) {
  char magic[65];
  mp_sha256_hex(MP_VERSION, strlen(MP_VERSION), magic);
  char *now = mp_now_rfc3339();
  mp_buf_printf(b, "\"manifest\":{\"time\":\"%s\",\"magic\":\"%s\",\"version\":",
                now, magic);
  put_string(b, MP_VERSION);
  mp_buf_putc(b, '}');
  free(now);
}

/* 1 if a resource entry of |m| has extensionRef |ref|. */
static int uses_extension(const diy_stack *m, const char *ref) {
  char *needle = mp_xasprintf("\"extensionRef\":\"%s\"", ref);
  int hit = 0;
  for (size_t i = 0; i < m->nres && !hit; i++)
    hit = (m->res[i]->features & DIY_FEAT_EXTENSION) &&
          strstr(m->res[i]->json, needle) != NULL;
  for (size_t i = 0; i < m->npend && !hit; i++)
    hit = strstr(m->pend[i]->json, needle) != NULL;
  free(needle);
  return hit;
}

/* `extensions`: those the resources refer to, as Pulumi's MapExtensions
 * keeps them. */
static void put_extensions(mp_buf *b, const diy_stack *m) {
  int first = 1;
  const cJSON *it;
  cJSON_ArrayForEach(it, m->extensions) {
    if (!uses_extension(m, it->string)) continue;
    mp_buf_puts(b, first ? ",\"extensions\":{" : ",");
    put_string(b, it->string);
    mp_buf_putc(b, ':');
    mp__json_print(it, 0, b);
    first = 0;
  }
  if (!first) mp_buf_putc(b, '}');
}

void mp__diy_snap_init(diy_snap *sn) {
  memset(sn, 0, sizeof(*sn));
  mp_buf_init(&sn->head);
  mp_buf_init(&sn->tail);
}

void mp__diy_snap_destroy(diy_snap *sn) {
  mp_buf_destroy(&sn->head);
  mp_buf_destroy(&sn->tail);
  free(sn->res);
  free(sn->pend);
}

static void snap_entries(diy_snap_entry **a, size_t *cap, diy_entry **from,
                         size_t n) {
  if (n > *cap) {
    *cap = n;
    *a = mp_xreallocarray(*a, n, sizeof(**a));
  }
  for (size_t i = 0; i < n; i++) {
    (*a)[i].json = from[i]->json;
    (*a)[i].len = from[i]->len;
    (*a)[i].type = from[i]->type;
  }
}

void mp__diy_snap_take(diy_snap *sn, const diy_stack *m,
                       const char *qualified) {
  mp_buf *b = &sn->head;
  mp_buf_reset(b);
  unsigned f = 0;
  for (size_t i = 0; i < m->nres; i++)
    f |= m->res[i]->features;
  mp_buf_printf(b, "{\"version\":%d", f ? 4 : 3);
  if (f)
    put_features(b, f);
  mp_buf_puts(b, ",\"checkpoint\":{\"stack\":");
  put_string(b, qualified);
  if (m->config) {
    mp_buf_puts(b, ",\"config\":");
    mp__json_print(m->config, 0, b);
  }
  mp_buf_puts(b, ",\"latest\":{");
  put_manifest(b);
  if (m->secrets_type) {
    mp_buf_puts(b, ",\"secrets_providers\":{\"type\":");
    put_string(b, m->secrets_type);
    if (m->secrets_state)
      mp_buf_printf(b, ",\"state\":%s", m->secrets_state);
    mp_buf_putc(b, '}');
  }
  snap_entries(&sn->res, &sn->rcap, m->res, m->nres);
  sn->nres = m->nres;
  snap_entries(&sn->pend, &sn->pcap, m->pend, m->npend);
  sn->npend = m->npend;
  b = &sn->tail;
  mp_buf_reset(b);
  mp_buf_puts(b, ",\"metadata\":");
  if (m->metadata)
    mp__json_print(m->metadata, 0, b);
  else
    mp_buf_puts(b, "{}");
  put_extensions(b, m);
  mp_buf_puts(b, "}}}");
}

void mp__diy_snap_print(const diy_snap *sn, mp_buf *b) {
  mp_buf_append(b, sn->head.data, sn->head.len);
  if (sn->nres) {
    mp_buf_puts(b, ",\"resources\":[");
    for (size_t i = 0; i < sn->nres; i++) {
      if (i)
        mp_buf_putc(b, ',');
      mp_buf_append(b, sn->res[i].json, sn->res[i].len);
    }
    mp_buf_putc(b, ']');
  }
  if (sn->npend) {
    mp_buf_puts(b, ",\"pending_operations\":[");
    for (size_t i = 0; i < sn->npend; i++) {
      mp_buf_printf(b, "%s{\"resource\":", i ? "," : "");
      mp_buf_append(b, sn->pend[i].json, sn->pend[i].len);
      mp_buf_printf(b, ",\"type\":\"%s\"}",
                    mp_pending_type_name(sn->pend[i].type));
    }
    mp_buf_putc(b, ']');
  }
  mp_buf_append(b, sn->tail.data, sn->tail.len);
}

void mp__diy_model_print(const diy_stack *m, const char *qualified,
                         mp_buf *b) {
  diy_snap sn;
  mp__diy_snap_init(&sn);
  mp__diy_snap_take(&sn, m, qualified);
  mp__diy_snap_print(&sn, b);
  mp__diy_snap_destroy(&sn);
}

void mp__diy_model_bury(diy_stack *m, void *p, int is_entry) {
  if (!m->printing) {
    if (is_entry)
      mp__diy_entry_free(p);
    else
      free(p);
    return;
  }
  if (m->ngrave == m->gcap) {
    m->gcap = m->gcap ? m->gcap * 2 : 16;
    m->grave = mp_xreallocarray(m->grave, m->gcap, sizeof(*m->grave));
  }
  m->grave[m->ngrave].p = p;
  m->grave[m->ngrave++].is_entry = is_entry;
}

void mp__diy_model_unbury(diy_stack *m) {
  m->printing = 0;
  for (size_t i = 0; i < m->ngrave; i++) {
    if (m->grave[i].is_entry)
      mp__diy_entry_free(m->grave[i].p);
    else
      free(m->grave[i].p);
  }
  m->ngrave = 0;
}
