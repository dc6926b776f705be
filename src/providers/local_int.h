/* The file system side of the `local` provider (local_fs.c): paths,
 * what is at a path, reading and writing files. Only local*.c include
 * it. Relative paths are relative to the current directory, which the CLI
 * makes the program's folder for a deployment. */
#ifndef MP_PROVIDERS_LOCAL_INT_H
#define MP_PROVIDERS_LOCAL_INT_H

#include <stddef.h>
#include <sys/types.h>

#include "engine/err.h"
#include "engine/mem.h"

/* Files larger than this are not read. */
#define MP_LOCAL_MAX_FILE_BYTES ((size_t)1 << 30)

/* |path| cleaned lexically as Go's filepath.Clean does: no empty or `.`
 * parts, `..` folded into the part before it where there is one, no
 * trailing slash; "" becomes ".". Owned. */
char *mp__local_clean(const char *path);

/* The file |path| names, spelled one way: absolute and cleaned, with the
 * folder resolved through symbolic links when it exists. `out.txt`,
 * `./out.txt` and `<cwd>/out.txt` give the same. Owned. */
char *mp__local_canonical(const char *path);

/* 1 if |a| and |b| name the same file (mp__local_canonical). */
int mp__local_same_file(const char *a, const char *b);

/* 1 when |path|'s folder is reached through a symbolic link: then
 * *resolved is where the file really goes (owned). */
int mp__local_via_symlink(const char *path, char **resolved);

/* What is at |path| (not following a final symbolic link): 0 nothing,
 * 1 a regular file; anything else is refused with MP_EPLUGIN naming what
 * it is ("a symbolic link", "a FIFO", "a device", ...) and |why|. Errors
 * other than "not there" are MP_EPLUGIN too. */
int mp__local_inspect(const char *path, const char *why, mp_err *err);

/* Reads the regular file |path| whole into |b| (its mode in *mode) without
 * following a final symbolic link or blocking on a FIFO. Returns 0, 1
 * when nothing is there, or MP_EPLUGIN (not a regular file, too large, a
 * read error). */
int mp__local_read(const char *path, mp_buf *b, mode_t *mode, mp_err *err);

/* Writes |content| to |path| through a temporary file in the same folder
 * (made if missing), so readers see the old or the new file whole. With
 * |replace| the new file takes the place of the regular file there;
 * without it nothing may be there: a file that appeared meanwhile is left
 * alone and MP_EPLUGIN returned. */
int mp__local_write(const char *path, const char *content, size_t len,
                    mode_t mode, int replace, mp_err *err);

#endif
