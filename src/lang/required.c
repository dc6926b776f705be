/* The plugin list and the project's part of it (lang/required.h). */
#include "lang/required.h"

#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
#include "lang/lang_int.h"

static char *opt_dup(const char *s) { return s && *s ? mp_xstrdup(s) : NULL; }

static int same(const char *a, const char *b) {
  return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static int vague(const mp_required_plugin *p) {
  return p->version == NULL && p->server == NULL;
}

static void clear(mp_required_plugin *p) {
  free(p->kind);
  free(p->name);
  free(p->version);
  free(p->server);
}

void mp_required_plugins_add(mp_required_plugins *l, const char *kind,
                             const char *name, const char *version,
                             const char *server) {
  if (version && *version == 'v') version++;
  mp_required_plugin n = {mp_xstrdup(kind), mp_xstrdup(name), opt_dup(version),
                          opt_dup(server)};
  for (size_t i = 0; i < l->len; i++) {
    mp_required_plugin *e = &l->items[i];
    if (strcmp(e->kind, n.kind) != 0 || strcmp(e->name, n.name) != 0) continue;
    if (vague(&n) || (same(e->version, n.version) && same(e->server, n.server))) {
      clear(&n); /* nothing new */
      return;
    }
    if (vague(e)) { /* the specific entry takes the vague one's place */
      clear(e);
      *e = n;
      return;
    }
  }
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 8;
    l->items = mp_xrealloc(l->items, l->cap * sizeof(*l->items));
  }
  l->items[l->len++] = n;
}

void mp_required_plugins_destroy(mp_required_plugins *l) {
  for (size_t i = 0; i < l->len; i++) clear(&l->items[i]);
  free(l->items);
  memset(l, 0, sizeof(*l));
}

int mp_project_required_plugins(mp_project *p, mp_required_plugins *out,
                                mp_err *err) {
  (void)err;
  for (size_t i = 0; i < p->nplugins; i++)
    mp_required_plugins_add(out, "resource", p->plugins[i].name,
                            p->plugins[i].version, NULL);
  const char *rt = p->runtime ? p->runtime : "";
  if (strcmp(rt, "yaml") == 0)
    mp__required_yaml(p, out);
  else if (strcmp(rt, "nodejs") == 0)
    mp__required_nodejs(p->program_dir, out);
  return 0;
}
