/* Semantic versions (semver.c), read as Pulumi's tolerant parser reads
 * them ("v1.2", "1.2.3-beta.1+build") and ordered by SemVer 2.0
 * precedence: plugin versions, package versions in schemas. */
#ifndef MP_ENGINE_SEMVER_H
#define MP_ENGINE_SEMVER_H

#include <stdint.h>

#include "engine/err.h"

typedef struct mp_semver {
  uint64_t major, minor, patch;
  char pre[64];   /* the pre-release, without its '-'; "" for a release */
  char build[64]; /* build metadata, without its '+'; ignored in order */
} mp_semver;

/* Parses |s| tolerantly: spaces around it and a leading 'v' go, missing
 * minor and patch numbers are 0. Returns 0, or MP_EINVAL with |err| saying
 * what is wrong with |s|. */
int mp_semver_parse(const char *s, mp_semver *out, mp_err *err);
/* <0, 0, >0 as |a| orders before, with, after |b| (SemVer 2.0 precedence:
 * a pre-release comes before its release; build metadata is ignored). */
int mp_semver_cmp(const mp_semver *a, const mp_semver *b);
/* "1.2.3-pre+build" (owned). */
char *mp_semver_format(const mp_semver *v);

#endif
