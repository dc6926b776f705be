#include "engine/goal.h"

#include <stdlib.h>
#include <string.h>

mp_goal *mp_goal_new(const char *type, const char *name, int custom) {
  mp_goal *g = mp_xcalloc(1, sizeof(*g));
  g->type = mp_xstrdup(type);
  g->name = mp_xstrdup(name);
  g->custom = custom;
  g->inputs = mp_value_new_object();
  g->protect = -1;
  g->dbr = -1;
  g->retain_on_delete = -1;
  mp_propdeps_init(&g->propdeps);
  return g;
}

void mp_alias_destroy(mp_alias *a) {
  free(a->urn);
  free(a->name);
  free(a->type);
  free(a->stack);
  free(a->project);
  free(a->parent_urn);
  memset(a, 0, sizeof(*a));
}

void mp_goal_add_alias(mp_goal *g, const mp_alias *a) {
  g->aliases = mp_xreallocarray(g->aliases, g->naliases + 1, sizeof(*a));
  mp_alias *d = &g->aliases[g->naliases++];
  d->urn = mp_xstrdup(a->urn);
  d->name = mp_xstrdup(a->name);
  d->type = mp_xstrdup(a->type);
  d->stack = mp_xstrdup(a->stack);
  d->project = mp_xstrdup(a->project);
  d->parent_urn = mp_xstrdup(a->parent_urn);
  d->no_parent = a->no_parent;
}

void mp_goal_free(mp_goal *g) {
  if (g == NULL) return;
  free(g->type);
  free(g->name);
  free(g->parent);
  mp_value_free(g->inputs);
  for (int k = 0; k < MP_HOOK_KINDS; k++) mp_strv_destroy(&g->hooks[k]);
  free(g->provider);
  mp_strv_destroy(&g->dependencies);
  mp_propdeps_destroy(&g->propdeps);
  mp_strv_destroy(&g->ignore_changes);
  mp_strv_destroy(&g->replace_on_changes);
  mp_value_free(g->replacement_trigger);
  mp_strv_destroy(&g->additional_secret_outputs);
  mp_strv_destroy(&g->hide_diffs);
  mp_strv_destroy(&g->replace_with);
  for (size_t i = 0; i < g->naliases; i++) mp_alias_destroy(&g->aliases[i]);
  free(g->aliases);
  free(g->deleted_with);
  free(g->import_id);
  free(g->version);
  free(g->plugin_download_url);
  free(g->source_position);
  free(g->extension_ref);
  free(g->read_id);
  free(g);
}
