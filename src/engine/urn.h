/* URNs (tests/conformance/scenarios/S02-default-provider-first.scn,
 * S71-explicit-provider.scn):
 *   urn:pulumi:<stack>::<project>::<qualified type>::<name>
 * plus provider references `<provider urn>::<id>` and default provider
 * names. */
#ifndef MP_URN_H
#define MP_URN_H

#include <stddef.h>

#include "engine/err.h"

#define MP_URN_PREFIX "urn:pulumi:"
#define MP_ROOT_STACK_TYPE "pulumi:pulumi:Stack"
#define MP_PROVIDER_TYPE_PREFIX "pulumi:providers:"

/* The parts of a parsed URN; each an owned, NUL-terminated string. */
typedef struct mp_urn {
  char *stack;
  char *project;
  char *qualified_type; /* parent chain joined with `$` */
  char *type;           /* the part after the last `$` */
  char *name;           /* everything after the third `::` */
} mp_urn;

/* Parses |s| (|len| bytes). Returns 0, or MP_EINVAL naming the part that
 * is wrong. |out| is caller storage; release with mp_urn_destroy. */
int mp_urn_parse(const char *s, size_t len, mp_urn *out, mp_err *err);
void mp_urn_destroy(mp_urn *u);
/* 1 if |s| is a syntactically valid URN. */
int mp_urn_valid(const char *s);

/* Builds a URN. |parent_urn| may be NULL or the root stack's URN (then the
 * type is not prefixed). Owned result. Returns NULL and sets |err| when
 * parent_urn is not a valid URN. */
char *mp_urn_new(const char *stack, const char *project,
                 const char *parent_urn, const char *type, const char *name,
                 mp_err *err);
/* The root stack URN: urn:pulumi:S::P::pulumi:pulumi:Stack::P-S. Owned. */
char *mp_urn_root_stack(const char *stack, const char *project);

/* Borrowed views into |urn| (no allocation): the name part / the resource
 * type (after the last `$`) / the qualified type. Return NULL if invalid.
 * *len receives the length. */
const char *mp_urn_name(const char *urn, size_t *len);
const char *mp_urn_type(const char *urn, size_t *len);
const char *mp_urn_qualified_type(const char *urn, size_t *len);

/* 1 if |type| is `pulumi:providers:<non-empty pkg>`. */
int mp_type_is_provider(const char *type);
/* The package of a type token (first `:` part; for provider types the part
 * after `pulumi:providers:`). Owned; NULL if the token has no `:`. */
char *mp_type_package(const char *type);

/* Provider references `<urn>::<id>`, split at the last `::`. */
typedef struct mp_provider_ref {
  char *urn;
  char *id;
} mp_provider_ref;

/* Parses |ref|: the URN part must be valid and of a provider type.
 * Returns 0 or MP_EINVAL. Release with mp_provider_ref_destroy. */
int mp_provider_ref_parse(const char *ref, mp_provider_ref *out, mp_err *err);
void mp_provider_ref_destroy(mp_provider_ref *r);
/* "<urn>::<id>"; an empty or NULL id becomes the unknown sentinel. Owned. */
char *mp_provider_ref_format(const char *urn, const char *id);

/* The default provider's name for a requested |version| (NULL or "" gives
 * "default") and optional |download_url|: default_1_2_3[_pre...][_build...]
 * [_<url as a QName>]. Owned. Returns NULL and sets |err| on a version that
 * is not semver. */
char *mp_default_provider_name(const char *version, const char *download_url,
                               mp_err *err);
/* urn:pulumi:S::P::pulumi:providers:<pkg>::<name>. Owned. */
char *mp_default_provider_urn(const char *stack, const char *project,
                              const char *pkg, const char *name);
/* 1 if |urn| names a default provider (provider type, name starts with
 * "default"). */
int mp_urn_is_default_provider(const char *urn);

/* 1 if |urn| matches the target pattern |pat|: `*` matches within one
 * URN part (no `:`), `**` matches anything (Pulumi's --target globs).
 * Time O(len(urn) * len(pat)), without backtracking, for any pattern. */
int mp_urn_glob(const char *pat, const char *urn);

#endif
