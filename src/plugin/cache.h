/* The plugin cache, as Pulumi lays it out: `<dir>/<kind>-<name>-v<version>/`
 * holding `pulumi-<kind>-<name>`, with `<that folder>.partial` while an
 * install writes it and `<that folder>.lock` against two installs at
 * once. Versions are semantic versions, read as Pulumi's tolerant parser
 * reads them ("v1.2", "1.2.3-beta.1+build"). docs/plugins.md. */
#ifndef MP_PLUGIN_CACHE_H
#define MP_PLUGIN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/err.h"
#include "engine/semver.h"

/* ---- version ranges (plugin/semver_range.c) ---- */

/* Whether |v| is in |range| (plugin/semver_range.c), read as Pulumi's
 * semver library reads `plugin rm`'s VERSION: ">=1.0.0 <2.0.0" (spaces:
 * all hold), "1.x || >=3.0.0" (`||`: one group holds), operators <, <=,
 * >, >=, =, ==, != (none: =), `x` wildcards. Returns 1, 0, or MP_EINVAL
 * for a range it cannot read. */
int mp_semver_in_range(const char *range, const mp_semver *v, mp_err *err);

/* ---- what the cache holds (plugin/cache.c) ---- */

typedef struct mp_plugin_info {
  char *kind; /* "resource", "language", ... */
  char *name; /* "aws" */
  char *path; /* the plugin's folder */
  mp_semver version;
  uint64_t size;        /* bytes under the folder (with metadata) */
  int64_t install_time; /* the folder's change time, Unix seconds */
  int64_t last_used;    /* its access time */
} mp_plugin_info;

typedef struct mp_plugin_list {
  mp_plugin_info *items;
  size_t len;
} mp_plugin_list;

/* Appends the plugins installed in |dir| to |l| (zero it first): folders
 * named `<kind>-<name>-v<version>` of a known kind and a valid version,
 * whose `.partial` marker is absent. With |metadata|, sizes and times too.
 * A missing |dir| holds nothing. Returns 0 or MP_EIO. */
int mp_plugin_cache_scan(const char *dir, int metadata, mp_plugin_list *l,
                         mp_err *err);
void mp_plugin_list_destroy(mp_plugin_list *l);
/* Name ascending, then newest first (as `plugin ls` shows them). */
void mp_plugin_list_sort(mp_plugin_list *l);

/* The plugin of |kind| and |name| that serves |want|: exactly that version
 * (equal precedence), or, with |want| NULL, the newest, a release before
 * any pre-release (Pulumi's SelectCompatiblePlugin and
 * LegacySelectCompatiblePlugin). The first of equals in |l| wins. NULL:
 * none. */
const mp_plugin_info *mp_plugin_select(const mp_plugin_list *l,
                                       const char *kind, const char *name,
                                       const mp_semver *want);

/* Whether |kind| is one of Pulumi's plugin kinds (analyzer, language,
 * resource, converter, tool). */
int mp_plugin_kind_known(const char *kind);

/* Whether |name| is a plugin name as Pulumi's PluginNameRegexp has it
 * (letters, digits, '-', '_', '.'; starting with a letter, a digit or '-',
 * ending with a letter or a digit; no '/'; one letter or digit too), so
 * that it can go into a path. */
int mp_plugin_name_valid(const char *name);

/* 0 when |kind| is a plugin kind and |name| a plugin name; else MP_EINVAL
 * with Pulumi's "unrecognized plugin kind: <kind>" or a message naming the
 * bad name. Checked before any path is made from them. */
int mp_plugin_check_spec(const char *kind, const char *name, mp_err *err);

/* `<kind>-<name>-v<version>` (owned): the folder's name in the cache. */
char *mp_plugin_dir_name(const char *kind, const char *name,
                         const mp_semver *version);

/* Removes the plugin's folder and its `.partial` and `.lock` markers.
 * Returns 0 or MP_EIO. */
int mp_plugin_cache_remove(const mp_plugin_info *p, mp_err *err);

/* Removes |path| and everything under it (symbolic links are not
 * followed); a missing |path| is fine. Returns 0 or MP_EIO. */
int mp_plugin_rm_tree(const char *path, mp_err *err);

/* ---- installing (plugin/install.c) ---- */

/* Creates |path| and its parents (mode 0700). Returns 0 or MP_EIO. */
int mp_plugin_mkdir_p(const char *path, mp_err *err);

/* Installs |file| as the plugin |kind| |name| |version| into |cache_dir|
 * (created if missing), as Pulumi does: under an exclusive lock on
 * `<folder>.lock` (a second install of the same plugin waits, then finds
 * it installed), with `<folder>.partial` present while the folder is
 * written. |kind| and |name| are checked first (mp_plugin_check_spec).
 * |file| is told by its content: a program (`#!`, ELF) or another
 * executable becomes `pulumi-<kind>-<name>`; a tar, zip or 7-Zip archive,
 * compressed or not, is extracted; a compressed file holding no archive
 * is refused. An entry that would land or point outside the folder, or a
 * device node, FIFO or socket, refuses the whole archive, and nothing is
 * left installed (plugin/archive_guard.h, which also sets the modes). An
 * installed folder is kept unless |reinstall| (|*already| set to 1; may
 * be NULL). Returns 0, MP_EINVAL (a refused or unreadable file or a bad
 * kind or name) or MP_EIO. */
int mp_plugin_install_file(const char *cache_dir, const char *kind,
                           const char *name, const mp_semver *version,
                           const char *file, int reinstall, int *already,
                           mp_err *err);

#endif
