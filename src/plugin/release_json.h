/* What a release server's JSON answer holds for a plugin download
 * (download.c): a GitHub release's asset URL and the latest release's
 * tag. Kept apart from the transfer so that the answer's handling can be
 * tested and fuzzed without a server (tests/fuzz/targets/fuzz_release_json.c). */
#ifndef MP_PLUGIN_RELEASE_JSON_H
#define MP_PLUGIN_RELEASE_JSON_H

#include <stddef.h>

#include "engine/err.h"
#include "engine/value.h"
#include "plugin/cache.h"

/* The JSON answer |body| (|len| bytes) of |what| ("github", "gitlab")
 * decoded into *doc (owned); MP_EINVAL saying it cannot be decoded. */
int mp_release_json_decode(const char *body, size_t len, const char *what,
                           mp_value **doc, mp_err *err);

/* The "url" of the entry of a GitHub release's "assets" whose "name" is
 * |asset| (owned, *url), or MP_EIO "plugin asset '<asset>' not found". */
int mp_release_json_asset(const mp_value *release, const char *asset,
                          char **url, mp_err *err);

/* The release's "tag_name" as a version; MP_EINVAL "invalid plugin
 * version <tag>: ..." when it is not one. */
int mp_release_json_tag(const mp_value *release, mp_semver *out, mp_err *err);

#endif
