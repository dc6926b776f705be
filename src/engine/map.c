#include "engine/map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"

size_t mp_map_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ULL;
  }
  return (size_t)h;
}

void mp_map_init(mp_map *m) { memset(m, 0, sizeof(*m)); }

void mp_map_destroy(mp_map *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].key) free(m->slots[i].key);
  free(m->slots);
  memset(m, 0, sizeof(*m));
}

/* The slot of |key| (hash |h|), or the empty slot where it would go;
 * NULL when the map has no slots. Keys such as URNs share long prefixes,
 * so comparing the stored hashes first saves most string comparisons. */
static mp_map_slot *probe(const mp_map *m, const char *key, size_t h) {
  if (m->cap == 0) return NULL;
  size_t mask = m->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    mp_map_slot *s = &m->slots[i];
    if (s->key == NULL || (s->hash == h && strcmp(s->key, key) == 0))
      return s;
  }
}

static mp_map_slot *find(const mp_map *m, const char *key) {
  mp_map_slot *s = probe(m, key, mp_map_hash(key));
  return s && s->key ? s : NULL;
}

static void grow(mp_map *m) {
  size_t cap = m->cap ? m->cap * 2 : 16;
  mp_map_slot *old = m->slots;
  size_t oldcap = m->cap;
  m->slots = mp_xcalloc(cap, sizeof(*m->slots));
  m->cap = cap;
  m->len = 0;
  for (size_t i = 0; i < oldcap; i++) {
    if (old[i].key == NULL) continue;
    size_t j = old[i].hash & (cap - 1);
    while (m->slots[j].key) j = (j + 1) & (cap - 1);
    m->slots[j] = old[i];
    m->len++;
  }
  free(old);
}

void *mp_map_put(mp_map *m, const char *key, void *value) {
  size_t h = mp_map_hash(key);
  mp_map_slot *s = probe(m, key, h);
  if (s && s->key) {
    void *prev = s->value;
    s->value = value;
    return prev;
  }
  if ((m->len + 1) * 4 >= m->cap * 3) {
    grow(m);
    s = probe(m, key, h);
  }
  s->key = mp_xstrdup(key);
  s->value = value;
  s->hash = h;
  m->len++;
  return NULL;
}

void *mp_map_get(const mp_map *m, const char *key) {
  mp_map_slot *s = find(m, key);
  return s ? s->value : NULL;
}

int mp_map_has(const mp_map *m, const char *key) { return find(m, key) != NULL; }
