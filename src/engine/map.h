/* A string-keyed hash map of borrowed values (open addressing). Keys are
 * copied. Not thread-safe: one owner. */
#ifndef MP_MAP_H
#define MP_MAP_H

#include <stddef.h>

typedef struct mp_map_slot {
  char *key; /* NULL: empty */
  void *value;
  size_t hash; /* of |key|: probes compare it before the strings */
} mp_map_slot;

typedef struct mp_map {
  mp_map_slot *slots;
  size_t cap; /* power of two or 0 */
  size_t len;
} mp_map;

/* The hash of string |s| the map uses (FNV-1a), for a fixed table of
 * one's own (resource_json.c, snapshot_verify.c). */
size_t mp_map_hash(const char *s);

void mp_map_init(mp_map *m);
void mp_map_destroy(mp_map *m); /* frees keys, not values */
/* Inserts or replaces; returns the previous value or NULL. */
void *mp_map_put(mp_map *m, const char *key, void *value);
void *mp_map_get(const mp_map *m, const char *key);
int mp_map_has(const mp_map *m, const char *key);

#endif
