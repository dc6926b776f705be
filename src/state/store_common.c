/* What both state store backends share (store_int.h): the embedded SQL
 * files, the messages, and encoding and decoding stored entries. */
#include "state/store_int.h"
#include "engine/prog_name.h"

#include <stdlib.h>
#include <string.h>

#include "engine/json_nul.h"
#include "engine/snapshot_json_int.h"

/* ==== embedded SQL ==== */

int mp__sql_file_number(const char *name) {
  return (name[0] >= '0' && name[0] <= '9') ? atoi(name) : 0;
}

int mp__sql_version(const mp_sql_file *files) {
  int v = 1;
  for (const mp_sql_file *f = files; f->name; f++)
    if (mp__sql_file_number(f->name) > v)
      v = mp__sql_file_number(f->name);
  return v;
}

const char *mp__sql_find(const mp_sql_file *files, int number,
                         const char *exact) {
  for (const mp_sql_file *f = files; f->name; f++) {
    if (exact ? strcmp(f->name, exact) == 0
              : mp__sql_file_number(f->name) == number)
      return f->text;
  }
  return NULL;
}

/* ==== messages ==== */

char *mp__store_label(mp_stack_ref st) {
  return mp_xasprintf("%s/%s", st.project, st.name);
}

int mp__store_no_stack(mp_stack_ref st, mp_err *err) {
  return mp_err_set(err, MP_ENOENT,
                    "no stack named '%s' in project '%s'; create it with "
                    "`%s stack init %s`",
                    st.name, st.project, mp_prog_name(), st.name);
}

int mp__store_check_new_stack(mp_stack_ref st, mp_err *err) {
  if (st.name == NULL || *st.name == '\0' || st.project == NULL ||
      *st.project == '\0')
    return mp_err_set(err, MP_EINVAL, "a stack needs a project and a name");
  return 0;
}

int mp__store_check_new_name(const char *new_name, mp_err *err) {
  if (new_name == NULL || *new_name == '\0' || strstr(new_name, "::"))
    return mp_err_set(err, MP_EINVAL, "invalid stack name '%s'",
                      new_name ? new_name : "");
  return 0;
}

int mp__store_exists_err(const char *name, mp_err *err) {
  return mp_err_set(err, MP_EINVAL, "stack '%s' already exists", name);
}

int mp__store_not_empty(mp_stack_ref st, int64_t n, mp_err *err) {
  return mp_err_set(err, MP_ESTATE,
                    "stack '%s' still has %lld resources; use --force to "
                    "remove it anyway",
                    st.name, (long long)n);
}

/* Starts with Pulumi's words, by which the Automation API raises its
 * ConcurrentUpdateError (sdk/nodejs/automation/errors.ts). */
int mp__store_busy(const char *label, const mp_lock_info *info, mp_err *err) {
  return mp_err_set(err, MP_EBUSY,
                    "the stack is currently locked by 1 lock(s): "
                    "'%s' is locked by process %lld on %s since %s "
                    "(operation %s); if that process is gone, run "
                    "`%s cancel` to break the lock",
                    label, (long long)info->pid, info->host, info->time,
                    info->operation, mp_prog_name());
}

int mp__store_lock_lost(const char *label, mp_err *err) {
  return mp_err_set(err, MP_EBUSY,
                    "the lock of stack '%s' was broken while this update "
                    "ran (by `%s cancel`?); stopping to avoid "
                    "conflicting writes",
                    label, mp_prog_name());
}

int mp__store_no_row(const char *what, const char *label, int64_t row,
                     mp_err *err) {
  return mp_err_set(err, MP_ESTATE, "%s: stack '%s' has no stored row %lld",
                    what, label, (long long)row);
}

/* ==== step writes ==== */

void mp__store_counts_to_array(const mp_update_counts *c, int64_t out[9]) {
  static const mp_update_counts none;
  mp_update_counts copy = c ? *c : none;
  int64_t *f[9];
  mp__store_counts_fields(&copy, f);
  for (size_t i = 0; i < 9; i++)
    out[i] = *f[i];
}

void mp__store_counts_fields(mp_update_counts *c, int64_t *out[9]) {
  int64_t *f[] = {&c->same, &c->create, &c->update,  &c->del,    &c->replace,
                  &c->read, &c->import, &c->refresh, &c->discard};
  memcpy(out, f, sizeof(f));
}

int mp__store_encode_changes(const mp_store_change *ch, size_t n,
                             const mp_crypter *c, mp_buf *json, mp_err *err) {
  for (size_t i = 0; i < n; i++) {
    if (ch[i].kind == MP_STORE_EXTENSION) {
      if (ch[i].ext == NULL)
        return mp_err_set(err, MP_EINVAL, "store change %zu has no extension",
                          i);
      mp_extension_to_json(ch[i].ext, &json[i]);
      continue;
    }
    int updates =
        ch[i].kind == MP_STORE_UPDATE || ch[i].kind == MP_STORE_UPDATE_NEW;
    int needs = updates || ch[i].kind == MP_STORE_INSERT_NEW ||
                ch[i].kind == MP_STORE_PENDING_ADD;
    if (!needs)
      continue;
    if (ch[i].res == NULL)
      return mp_err_set(err, MP_EINVAL, "store change %zu has no resource", i);
    if (updates && ch[i].res->row == 0)
      return mp_err_set(err, MP_EINVAL,
                        "resource '%s' is not stored yet; "
                        "insert it before updating it",
                        ch[i].res->urn);
    if (mp_resource_to_json(ch[i].res, c, 0, &json[i], err) < 0)
      return err->code;
  }
  return 0;
}

void mp__store_assign_rows(const mp_store_change *ch, size_t n,
                           const int64_t *rows) {
  for (size_t i = 0; i < n; i++) {
    if (ch[i].kind == MP_STORE_INSERT_NEW)
      ch[i].res->row = rows[i];
    if (ch[i].kind == MP_STORE_PENDING_ADD && ch[i].pending_row)
      *ch[i].pending_row = rows[i];
  }
}

int mp__store_parse_extension(const char *ref, const char *text, size_t len,
                              mp_snapshot *snap, mp_err *err) {
  if (!mp_snapshot_uses_extension(snap, ref)) return 0;
  mp_extension e;
  if (mp_extension_from_json(ref, text, len, &e, err) < 0) return err->code;
  mp_extensions_put(&snap->extensions, &e);
  mp_extension_destroy(&e);
  return 0;
}

static int parse_entry(const char *text, size_t len, int64_t row,
                       const mp_crypter *c, unsigned flags, mp_resource **out,
                       mp_err *err) {
  cJSON *j = text ? mp__cjson_parse(text, len, NULL) : NULL;
  if (j == NULL)
    return mp_err_set(err, MP_ESTATE, "stored resource row %lld is not JSON",
                      (long long)row);
  int rc = mp__resource_from_cjson(j, c, flags, out, err);
  cJSON_Delete(j);
  return rc;
}

int mp__store_read_resource(int64_t row, const char *text, size_t len,
                            const mp_crypter *c, unsigned flags,
                            mp_snapshot *snap, mp_err *err) {
  mp_resource *r;
  if (parse_entry(text, len, row, c, flags, &r, err) < 0)
    return err->code;
  r->row = row;
  mp_snapshot_append(snap, r);
  return 0;
}

int mp__store_read_pending(int64_t row, mp_pending_type t, const char *text,
                           size_t len, const mp_crypter *c, unsigned flags,
                           mp_snapshot *snap, mp_err *err) {
  mp_resource *r;
  if (parse_entry(text, len, row, c, flags, &r, err) < 0)
    return err->code;
  mp_snapshot_append_pending(snap, r, t);
  snap->pending[snap->npending - 1].row = row;
  return 0;
}

int mp__store_pending_type(const char *name, mp_pending_type *t, mp_err *err) {
  if (mp_pending_type_parse(name, t) < 0)
    return mp_err_set(err, MP_ESTATE,
                      "stored pending operation has an unknown type '%s'",
                      name ? name : "");
  return 0;
}
