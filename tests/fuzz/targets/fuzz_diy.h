/* What the targets of the file:// backend's files share: a fresh backend
 * folder for each input (meta.yaml version 1, project "proj"), a file
 * written into it, and the store opened on it. */
#ifndef MP_FUZZ_DIY_H
#define MP_FUZZ_DIY_H

#include <stddef.h>
#include <stdint.h>

#include "state/store.h"

/* The stack every input is about: proj/dev. */
extern const mp_stack_ref fuzz_diy_stack;

/* Empties the backend folder and writes its meta.yaml; returns the
 * folder (borrowed). */
const char *fuzz_diy_reset(void);
/* Writes |data| at |rel| under the backend folder (folders made). */
void fuzz_diy_put(const char *rel, const uint8_t *data, size_t size);
/* A valid empty checkpoint of proj/dev, so that the stack exists. */
void fuzz_diy_put_empty_stack(void);
/* The store on the folder (opened afresh: the store keeps what it read). */
mp_store *fuzz_diy_open(void);

#endif
