/* What may come out of a plugin's archive (plugin/install.c): each entry
 * is judged before it is written, against the entries written before it,
 * so that nothing lands or points outside the plugin's folder. Paths are
 * the archive's, relative to that folder. docs/plugins.md. */
#ifndef MP_PLUGIN_ARCHIVE_GUARD_H
#define MP_PLUGIN_ARCHIVE_GUARD_H

#include <archive_entry.h>

#include "engine/map.h"

typedef struct mp_archive_guard {
  /* The symbolic links written so far: their path (normalized) to their
   * target (owned); NULL where a link was replaced by something else. */
  mp_map links;
} mp_archive_guard;

void mp_archive_guard_init(mp_archive_guard *g);
void mp_archive_guard_destroy(mp_archive_guard *g);

typedef enum mp_archive_verdict {
  MP_ARCHIVE_WRITE, /* write it (its mode already made safe) */
  MP_ARCHIVE_SKIP,  /* the plugin's folder itself: left as it is */
  MP_ARCHIVE_REFUSE /* |*why| says why; the whole archive is refused */
} mp_archive_verdict;

/* Judges |e| and, when it is written, remembers what it makes of the
 * folder (its links). Refused: an absolute path, a `..` that climbs out,
 * a path through a symbolic link, a hard link to outside or to a symbolic
 * link, a symbolic link that resolves outside through the links before it,
 * a device node, FIFO or socket. A regular file keeps its permission bits
 * without setuid, setgid and sticky; a folder gets 0700 (as Pulumi's
 * extraction makes them); the umask applies to both. */
mp_archive_verdict mp_archive_guard_check(mp_archive_guard *g,
                                          struct archive_entry *e,
                                          const char **why);

/* Once every entry is written: the path of a symbolic link that now
 * resolves outside (an earlier link whose path changed meaning through a
 * later one), or NULL. |*why| says how. */
const char *mp_archive_guard_final(const mp_archive_guard *g,
                                   const char **why);

#endif
