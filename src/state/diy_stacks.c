/* Stacks of the DIY store: a stack exists while its checkpoint file does
 * (.pulumi/stacks/<project>/<stack>.json or .json.gz); listing reads the
 * folders of every project; rename rewrites every URN and moves the
 * history; remove deletes the history, and either keeps the checkpoint as
 * its .bak and the backups or (--remove-backups) deletes them, as
 * Pulumi's removeStack does. The stack a project has selected is kept in
 * .pulumi/minipulumi/selected/<project> (Pulumi keeps it outside the
 * folder, in ~/.pulumi/workspaces). */
#include "state/diy_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/names.h"
#include "engine/urn.h"

int mp__diy_stack_exists(mp_store *base, mp_stack_ref st, mp_err *err) {
  (void)err;
  mp_diy *s = mp__diy(base);
  char *plain = mp__diy_stack_path(s, st);
  char *path = mp__diy_find_checkpoint(s, plain);
  free(plain);
  free(path);
  return path != NULL;
}

int mp__diy_stack_create(mp_store *base, mp_stack_ref st, mp_err *err) {
  mp_diy *s = mp__diy(base);
  if (mp__store_check_new_stack(st, err) < 0 ||
      mp__store_check_new_name(st.name, err) < 0)
    return err->code;
  if (mp__diy_stack_exists(base, st, err))
    return mp__store_exists_err(st.name, err);
  diy_stack *m = mp__diy_model_new(s, st);
  int rc = mp__diy_flush(s, m, err);
  mp__diy_model_free(m);
  return rc;
}

/* ==== list ==== */

/* The stack name of checkpoint file |name|, or NULL (backups, temporary
 * files). Owned. */
static char *stack_of_file(const char *name) {
  size_t n = strlen(name);
  if (n > 5 && strcmp(name + n - 5, ".json") == 0)
    return mp_xstrndup(name, n - 5);
  if (n > 8 && strcmp(name + n - 8, ".json.gz") == 0)
    return mp_xstrndup(name, n - 8);
  return NULL;
}

/* The project of a legacy stack: its resources' URNs name it. */
static char *project_of(const diy_stack *m) {
  if (m->nres == 0)
    return NULL;
  cJSON *j = cJSON_ParseWithLength(m->res[0]->json, m->res[0]->len);
  const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "urn");
  char *out = NULL;
  mp_urn p;
  if (cJSON_IsString(u) &&
      mp_urn_parse(u->valuestring, strlen(u->valuestring), &p, NULL) == 0) {
    out = mp_xstrdup(p.project);
    mp_urn_destroy(&p);
  }
  cJSON_Delete(j);
  return out;
}

/* Adds stack |name|'s line. A checkpoint that cannot be read fails the
 * listing, as in Pulumi's ListStacks (only one removed meanwhile is left
 * out). */
static int add_info(mp_diy *s, const char *project, const char *name,
                    mp_stack_info **out, size_t *n, mp_err *err) {
  mp_stack_ref st = {project ? project : "", name};
  diy_stack *m;
  int rc = mp__diy_get(s, st, &m, err);
  if (rc == MP_ENOENT) {
    mp_err_clear(err);
    return 0;
  }
  if (rc < 0)
    return rc;
  mp_stack_info info = {0};
  info.project = s->legacy ? project_of(m) : NULL;
  if (info.project == NULL)
    info.project = mp_xstrdup(st.project);
  info.name = mp_xstrdup(name);
  info.resource_count = (int64_t)m->nres;
  info.last_update = mp__diy_history_last(s, st);
  *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
  (*out)[(*n)++] = info;
  return 0;
}

/* The stacks whose checkpoints are in folder |dir|. */
static int list_dir(mp_diy *s, const char *dir, const char *project,
                    mp_stack_info **out, size_t *n, mp_err *err) {
  mp_strv names;
  mp_strv_init(&names);
  char *last = NULL;
  int rc = mp__diy_list(s, dir, &names, err);
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    char *name = stack_of_file(names.items[i]);
    /* dev.json and dev.json.gz are one stack; a file whose name is no
     * stack name is no stack, as Pulumi's ListReferences skips it */
    if (name == NULL || (last && strcmp(last, name) == 0) ||
        mp_stack_name_check(name, NULL) != 0) {
      free(name);
      continue;
    }
    rc = add_info(s, project, name, out, n, err);
    free(last);
    last = name;
  }
  free(last);
  mp_strv_destroy(&names);
  return rc;
}

int mp__diy_stack_list(mp_store *base, const char *project, mp_stack_info **out,
                       size_t *n, mp_err *err) {
  mp_diy *s = mp__diy(base);
  char *stacks = mp_xasprintf("%s/.pulumi/stacks", s->root);
  size_t n0 = *n;
  int rc = 0;
  if (s->legacy) {
    rc = list_dir(s, stacks, project, out, n, err);
  } else if (project) {
    char *dir = mp_xasprintf("%s/%s", stacks, project);
    rc = list_dir(s, dir, project, out, n, err);
    free(dir);
  } else {
    mp_strv projects;
    mp_strv_init(&projects);
    rc = mp__diy_list(s, stacks, &projects, err);
    for (size_t i = 0; rc == 0 && i < projects.len; i++) {
      if (mp_project_name_check(projects.items[i], NULL) != 0)
        continue; /* no project's folder, as Pulumi skips it */
      char *dir = mp_xasprintf("%s/%s", stacks, projects.items[i]);
      rc = list_dir(s, dir, projects.items[i], out, n, err);
      free(dir);
    }
    mp_strv_destroy(&projects);
  }
  free(stacks);
  if (rc < 0) { /* nothing half-listed */
    for (size_t i = n0; i < *n; i++)
      mp_stack_info_destroy(&(*out)[i]);
    *n = n0;
  }
  return rc;
}

/* ==== selection ==== */

static char *selected_path(const mp_diy *s, const char *project) {
  return mp_xasprintf("%s/.pulumi/minipulumi/selected/%s", s->root, project);
}

/* The name in the selection file of |project| (owned), or NULL. */
static char *selected_raw(mp_store *base, const char *project) {
  mp_diy *s = mp__diy(base);
  char *path = selected_path(s, project);
  char *text;
  size_t len;
  mp_err ignored;
  int rc = mp__diy_read(s, path, &text, &len, &ignored);
  free(path);
  if (rc < 0)
    return NULL;
  text[strcspn(text, "\n")] = '\0';
  return text;
}

int mp__diy_selected_get(mp_store *base, const char *project, char **out,
                         mp_err *err) {
  *out = NULL;
  char *name = selected_raw(base, project);
  mp_stack_ref st = {project, name};
  if (name && *name && mp__diy_stack_exists(base, st, err) == 1)
    *out = name; /* a stack removed by another program is not selected */
  else
    free(name);
  return 0;
}

int mp__diy_selected_set(mp_store *base, const char *project, const char *name,
                         mp_err *err) {
  mp_stack_ref st = {project, name};
  if (name && mp__diy_stack_exists(base, st, err) == 0)
    return mp__store_no_stack(st, err);
  mp_diy *s = mp__diy(base);
  char *path = selected_path(s, project);
  int rc = 0;
  if (name == NULL) {
    rc = mp__diy_unlink(s, path, err);
  } else {
    char *body = mp_xasprintf("%s\n", name);
    rc = mp__diy_mkdirs_for(s, path, err);
    if (rc == 0)
      rc = mp__diy_write(s, path, body, strlen(body), 0, 0, err);
    free(body);
  }
  free(path);
  return rc;
}

/* Clears the selection of |st|'s project if it is |st|, else moves it to
 * |new_name| when not NULL. */
static int selection_follows(mp_store *base, mp_stack_ref st,
                             const char *new_name, mp_err *err) {
  char *cur = selected_raw(base, st.project);
  int rc = 0;
  if (cur && strcmp(cur, st.name) == 0)
    rc = mp__diy_selected_set(base, st.project, new_name, err);
  free(cur);
  return rc;
}

/* ==== secrets ==== */

int mp__diy_secrets_get(mp_store *base, mp_stack_ref st, char **type,
                        char **state, mp_err *err) {
  mp_diy *s = mp__diy(base);
  *type = *state = NULL;
  diy_stack *m;
  if (mp__diy_get(s, st, &m, err) < 0)
    return err->code;
  *type = mp_xstrdup(m->secrets_type);
  *state = mp_xstrdup(m->secrets_state);
  return 0;
}

int mp__diy_secrets_set(mp_store *base, mp_stack_ref st, const char *type,
                        const char *state, mp_err *err) {
  mp_diy *s = mp__diy(base);
  diy_stack *m;
  if (mp__diy_get(s, st, &m, err) < 0)
    return err->code;
  if (state) {
    cJSON *j = cJSON_Parse(state);
    cJSON_Delete(j);
    if (j == NULL)
      return mp_err_set(err, MP_EINVAL,
                        "the secrets provider state is not JSON");
  }
  free(m->secrets_type);
  free(m->secrets_state);
  m->secrets_type = mp_xstrdup(type);
  m->secrets_state = mp_xstrdup(state);
  int rc = s->tx == m ? 0 : mp__diy_flush(s, m, err); /* else at commit */
  return rc;
}

/* ==== remove / rename ==== */

/* Removes the checkpoint files of |st| (both forms) and their .bak; with
 * |keep| (Pulumi's removeStack without --remove-backups), each checkpoint
 * is renamed to its .bak instead, and the .bak files stay. */
static int remove_checkpoints(mp_diy *s, mp_stack_ref st, int keep,
                              mp_err *err) {
  char *plain = mp__diy_stack_path(s, st);
  static const char *const suffixes[] = {"", ".gz", ".bak", ".gz.bak"};
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < MP_ARRAY_LEN(suffixes); i++) {
    int is_bak = strstr(suffixes[i], ".bak") != NULL;
    if (keep && is_bak) continue;
    char *p = mp_xasprintf("%s%s", plain, suffixes[i]);
    if (keep) {
      /* a missing checkpoint form is no error */
      char *bak = mp_xasprintf("%s.bak", p);
      rc = mp__diy_exists(s, p) ? mp__diy_rename(s, p, bak, err) : 0;
      free(bak);
    } else {
      rc = mp__diy_unlink(s, p, err);
    }
    free(p);
  }
  free(plain);
  return rc;
}

int mp__diy_stack_remove(mp_store *base, mp_stack_ref st, int force,
                         mp_err *err) {
  mp_diy *s = mp__diy(base);
  diy_stack *m;
  if (mp__diy_get(s, st, &m, err) < 0)
    return err->code;
  int64_t n = (int64_t)m->nres;
  mp__diy_release(s, m);
  if (n > 0 && !(force & MP_STORE_RM_FORCE))
    return mp__store_not_empty(st, n, err);
  if (mp__diy_lock_check_free(s, st, err) < 0)
    return err->code;
  int backups = (force & MP_STORE_RM_BACKUPS) != 0;
  int rc = remove_checkpoints(s, st, !backups, err);
  /* the history always goes; the backups only when asked */
  static const char *const dirs[] = {"history", "backups"};
  for (size_t i = 0; rc == 0 && i < (backups ? 2u : 1u); i++) {
    char *dir = mp__diy_stack_dir(s, dirs[i], st);
    rc = mp__diy_remove_tree(s, dir, err);
    free(dir);
  }
  if (rc == 0)
    rc = mp__diy_tags_remove(s, st, err);
  if (rc == 0)
    rc = selection_follows(base, st, NULL, err);
  return rc;
}

/* Moves every URN of |m|'s entries to stack |new_name|. */
static int rename_entries(diy_stack *m, const char *new_name, mp_err *err) {
  diy_entry **lists[] = {m->res, m->pend};
  size_t counts[] = {m->nres, m->npend};
  for (size_t l = 0; l < 2; l++) {
    for (size_t i = 0; i < counts[l]; i++) {
      diy_entry *e = lists[l][i];
      char *json;
      if (mp__store_rename_entry(e->json, e->row, m->project, new_name, &json,
                                 NULL, err) < 0)
        return err->code;
      free(e->json);
      e->json = json;
      e->len = strlen(json);
    }
  }
  return 0;
}

int mp__diy_stack_rename(mp_store *base, mp_stack_ref st, const char *new_name,
                         mp_err *err) {
  mp_diy *s = mp__diy(base);
  if (mp__store_check_new_name(new_name, err) < 0)
    return err->code;
  mp_stack_ref to = {st.project, new_name};
  if (strcmp(new_name, st.name) == 0)
    return mp__diy_stack_exists(base, st, err) ? 0 : mp__store_no_stack(st, err);
  if (mp__diy_stack_exists(base, to, err))
    return mp__store_exists_err(new_name, err);
  diy_stack *m;
  if (mp__diy_get(s, st, &m, err) < 0)
    return err->code;
  int rc = mp__diy_lock_check_free(s, st, err);
  if (rc == 0 && m->sessions)
    rc = mp_err_set(err, MP_EBUSY, "stack '%s' is being updated", st.name);
  if (rc == 0)
    rc = rename_entries(m, new_name, err);
  if (rc == 0) {
    free(m->name);
    m->name = mp_xstrdup(new_name);
    rc = mp__diy_flush(s, m, err);
  }
  /* the model now names the new stack, or is half renamed: drop it */
  mp__diy_release(s, m);
  if (rc == 0)
    rc = remove_checkpoints(s, st, 0, err);
  if (rc == 0)
    rc = mp__diy_history_rename(s, st, new_name, err);
  if (rc == 0)
    rc = mp__diy_tags_rename(s, st, new_name, err);
  if (rc == 0)
    rc = selection_follows(base, st, new_name, err);
  return rc;
}
