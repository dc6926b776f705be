/* Property values: the one value type the engine carries (inputs, outputs,
 * config, program values). See docs/sdk-contract.md, "Property values on
 * the wire", and tests/conformance/scenarios/S16-secrets.scn for the
 * encodings. */
#ifndef MP_VALUE_H
#define MP_VALUE_H

#include <stddef.h>

#include "engine/err.h"
#include "engine/mem.h"

/* Pulumi's magic constants (facts, not code). */
#define MP_SIG_KEY "4dabf18193072939515e22adb298388d"
#define MP_SIG_SECRET "1b47061264138c4ac30d75fd1eb44270"
#define MP_SIG_ASSET "c44067f5952c0a294b673a41bacd8c17"
#define MP_SIG_ARCHIVE "0def7320c3a5731c473e5ecbe6d01bc7"
#define MP_SIG_RESOURCE_REF "5cf8f73096256a8f31e491e813e4eb8e"
#define MP_SIG_OUTPUT "d0e6a833031e9bbcd3f4e8bde6ca49a4"
#define MP_SIG_BYTE_STRING "803fd3297a5875dc03ca845dda5d2a98"
#define MP_UNKNOWN_SENTINEL "04da6b54-80e4-46f7-96ec-b56ff0331ba9"

typedef enum mp_value_kind {
  MP_VALUE_NULL = 0,
  MP_VALUE_BOOL,
  MP_VALUE_NUMBER,
  MP_VALUE_STRING,
  MP_VALUE_ARRAY,
  MP_VALUE_OBJECT,
  MP_VALUE_ASSET,
  MP_VALUE_ARCHIVE,
  MP_VALUE_RESOURCE_REF,
  MP_VALUE_UNKNOWN, /* computed: not known until the resource exists */
  MP_VALUE_SECRET,
  MP_VALUE_OUTPUT
} mp_value_kind;

typedef struct mp_value mp_value;

typedef struct mp_value_entry {
  char *key;       /* owned, NUL-terminated; may contain NULs before key_len */
  size_t key_len;  /* length of |key| (a key may hold a NUL character) */
  mp_value *value; /* owned, never NULL */
} mp_value_entry;

/* A value is a tree; every node owns its children. Callers may read the
 * fields directly after switching on |kind|, but mutate only through the
 * functions below (objects keep their keys sorted and unique). */
struct mp_value {
  mp_value_kind kind;
  union {
    int boolean;
    double number;
    struct {
      char *ptr; /* NUL-terminated; may contain NULs before len */
      size_t len;
    } str;
    struct {
      mp_value **items;
      size_t len, cap;
    } arr;
    struct {
      mp_value_entry *items; /* sorted by key bytes (a shorter prefix
                                first, as strcmp), unique keys */
      size_t len, cap;
    } obj;
    struct {
      char *hash, *text, *path, *uri; /* each may be NULL; one of
                                         text/path/uri is set */
    } asset;
    struct {
      char *hash;
      mp_value *assets; /* an OBJECT of assets/archives, or NULL */
      char *path, *uri;
    } archive;
    struct {
      char *urn;
      char *id; /* NULL: no id (component); "" : unknown id */
      char *package_version; /* may be NULL */
    } ref;
    mp_value *secret; /* the wrapped value, owned, never NULL */
    struct {
      mp_value *value; /* NULL when the output is unknown */
      int secret;
      mp_strv deps; /* dependency URNs */
    } output;
  } u;
};

/* Constructors return owned values (free with mp_value_free). */
mp_value *mp_value_new_null(void);
mp_value *mp_value_new_bool(int b);
mp_value *mp_value_new_number(double n);
mp_value *mp_value_new_string(const char *s, size_t len);
mp_value *mp_value_new_cstring(const char *s);
mp_value *mp_value_new_array(void);
mp_value *mp_value_new_object(void);
mp_value *mp_value_new_unknown(void);
/* Takes ownership of |inner|. A secret of a secret collapses to one. */
mp_value *mp_value_new_secret(mp_value *inner);
/* Copies the strings; NULLs allowed. */
mp_value *mp_value_new_asset(const char *hash, const char *text,
                             const char *path, const char *uri);
/* Takes ownership of |assets| (an OBJECT or NULL); copies the strings. */
mp_value *mp_value_new_archive(const char *hash, mp_value *assets,
                               const char *path, const char *uri);
mp_value *mp_value_new_ref(const char *urn, const char *id,
                           const char *package_version);
/* Takes ownership of |value| (NULL = unknown); copies |deps|. */
mp_value *mp_value_new_output(mp_value *value, int secret,
                              const mp_strv *deps);

/* Frees |v| and everything under it; NULL is fine. */
void mp_value_free(mp_value *v);
/* Deep copy; NULL in, NULL out. */
mp_value *mp_value_dup(const mp_value *v);

/* Arrays: push takes ownership of |item|. */
void mp_value_array_push(mp_value *arr, mp_value *item);

/* Objects. set takes ownership of |v| and replaces an existing key (the old
 * value is freed). get returns a borrowed pointer, valid until the object
 * changes, or NULL. del returns 1 if the key existed. */
void mp_value_object_set(mp_value *obj, const char *key, mp_value *v);
mp_value *mp_value_object_get(const mp_value *obj, const char *key);
/* The same with a key of |len| bytes, which may hold NUL characters. */
void mp_value_object_setn(mp_value *obj, const char *key, size_t len,
                          mp_value *v);
mp_value *mp_value_object_getn(const mp_value *obj, const char *key,
                               size_t len);
int mp_value_object_del(mp_value *obj, const char *key);
/* Removes and returns the value at |key| (caller owns it), or NULL. */
mp_value *mp_value_object_take(mp_value *obj, const char *key);

enum mp_value_equal_flags {
  /* Compare through secret wrappers and known output values, as the engine
   * does when it diffs inputs itself. */
  MP_VALUE_EQ_IGNORE_SECRETS = 1 << 0
};

/* Deep equality. A NULL pointer equals an empty OBJECT and a NULL. */
int mp_value_equal(const mp_value *a, const mp_value *b, unsigned flags);

/* 1 if an UNKNOWN (or an unknown OUTPUT) appears anywhere under |v|. */
int mp_value_contains_unknowns(const mp_value *v);
/* 1 if a SECRET (or secret OUTPUT) appears anywhere under |v|. */
int mp_value_contains_secrets(const mp_value *v);
/* A deep copy with every SECRET replaced by its inner value and every
 * known OUTPUT by its value (unknown OUTPUT becomes UNKNOWN). */
mp_value *mp_value_strip_secrets(const mp_value *v);
/* A short name of the kind ("string", "object", ...). */
const char *mp_value_kind_name(mp_value_kind k);

/* ---- JSON (the checkpoint encoding) ---- */

/* Encrypts and decrypts secret payloads for the checkpoint. |ctx| is the
 * crypter's state. encrypt writes the "v1:<nonce>:<ct>" text of |plain|
 * into |out|; decrypt writes the plaintext. Both return 0 or an MP_E code
 * with |err| set. ready, when not NULL, waits until the crypter can be
 * used and says whether its key is right (0, or the error encrypt would
 * give): a deployment calls it before it writes anything. Used from the
 * thread that owns the store. */
typedef struct mp_crypter {
  int (*encrypt)(void *ctx, const char *plain, size_t len, mp_buf *out,
                 mp_err *err);
  int (*decrypt)(void *ctx, const char *cipher, size_t len, mp_buf *out,
                 mp_err *err);
  void *ctx;
  int (*ready)(void *ctx, mp_err *err);
} mp_crypter;

/* A crypter that needs no key: reading keeps each secret's ciphertext as
 * its value (a string), and writing that value back gives the same
 * ciphertext; any other secret cannot be written (MP_EINVAL). For
 * copying stored state as it is (`stack export` without the passphrase). */
mp_crypter mp_crypter_keep_ciphertext(void);

enum mp_value_json_flags {
  /* Write secrets as {sig, "plaintext": "<json>"} instead of ciphertext
   * (stack export --show-secrets); on read, plaintext is always accepted. */
  MP_JSON_SHOW_SECRETS = 1 << 0,
  /* Pretty-print with two-space indentation. */
  MP_JSON_PRETTY = 1 << 1
};

/* Appends the |len| bytes of |s| as one JSON string (quoted, escaped),
 * without making a value of it. */
void mp_json_put_string(mp_buf *out, const char *s, size_t len);
/* Appends the JSON text of |v| to |out|. Secrets go through |c| (which may
 * be NULL only if |v| holds no secrets or MP_JSON_SHOW_SECRETS is set).
 * Unknowns are written as the sentinel string. Returns 0 or an MP_E code. */
int mp_value_to_json(const mp_value *v, const mp_crypter *c, unsigned flags,
                     mp_buf *out, mp_err *err);
/* Parses JSON text into a value, decoding the signature objects; secret
 * ciphertext is decrypted with |c| (error if NULL when needed). The unknown
 * sentinel string becomes UNKNOWN. Sets *out on success. */
int mp_value_from_json(const char *text, size_t len, const mp_crypter *c,
                       mp_value **out, mp_err *err);

/* ---- property paths ---- */
/* Shown by tests/conformance/scenarios/S33-ignore-changes.scn. */

typedef enum mp_path_seg_kind {
  MP_PATH_KEY,     /* object key */
  MP_PATH_INDEX,   /* array index */
  MP_PATH_WILDCARD /* `*` or `[*]` */
} mp_path_seg_kind;

typedef struct mp_path_seg {
  mp_path_seg_kind kind;
  char *key;    /* MP_PATH_KEY */
  size_t index; /* MP_PATH_INDEX */
} mp_path_seg;

typedef struct mp_path {
  mp_path_seg *segs;
  size_t len;
} mp_path;

/* Parses `a.b[0]`, `a["x.y"]`, `a[*]`, `a.*`, `*` into |out| (caller storage;
 * release with mp_path_destroy). Returns 0 or MP_EINVAL naming the offset. */
int mp_path_parse(const char *s, mp_path *out, mp_err *err);
void mp_path_destroy(mp_path *p);
/* Formats |p| back to text (keys that need it are quoted). Owned result. */
char *mp_path_format(const mp_path *p);
/* The value at |p| under |root| (borrowed), or NULL. Wildcards match the
 * first element. */
const mp_value *mp_path_get(const mp_value *root, const mp_path *p);
/* Sets the value at |p|, creating intermediate objects; takes ownership of
 * |v| on success. No wildcards. Returns 0 or MP_EINVAL. */
int mp_path_set(mp_value *root, const mp_path *p, mp_value *v, mp_err *err);
/* Deletes the value at |p| (wildcards delete every match). Returns 1 if
 * something was deleted. */
int mp_path_delete(mp_value *root, const mp_path *p);
/* 1 if |pattern| is a prefix of |path|, `*` matching any one segment. */
int mp_path_covers(const mp_path *pattern, const mp_path *path);

/* Applies ignoreChanges: for each path copy the value at that path from
 * |olds| into |news| (or delete it from |news| when |olds| lacks it).
 * Paths that cannot be applied (an index on one side only, an array-length
 * mismatch under `*`) are appended to |invalid| and left as the program
 * sent them. Returns 0 or MP_EINVAL for an unparsable path. */
int mp_value_apply_ignore_changes(const mp_value *olds, mp_value *news,
                                  const mp_strv *paths, mp_strv *invalid,
                                  mp_err *err);

/* ---- detailed diff ---- */

typedef enum mp_diff_kind {
  MP_DIFF_ADD = 0,
  MP_DIFF_ADD_REPLACE,
  MP_DIFF_DELETE,
  MP_DIFF_DELETE_REPLACE,
  MP_DIFF_UPDATE,
  MP_DIFF_UPDATE_REPLACE
} mp_diff_kind;

typedef struct mp_diff_entry {
  char *path; /* property path text, e.g. `a.b[0]` */
  mp_diff_kind kind;
  int input_diff; /* 1 if computed against the old inputs */
} mp_diff_entry;

typedef struct mp_diff {
  mp_diff_entry *items; /* sorted by path */
  size_t len, cap;
} mp_diff;

void mp_diff_init(mp_diff *d);
void mp_diff_destroy(mp_diff *d);
void mp_diff_add(mp_diff *d, const char *path, mp_diff_kind kind,
                 int input_diff);
/* "add", "add-replace", "delete", ... as in Pulumi's JSON events. */
const char *mp_diff_kind_name(mp_diff_kind k);

/* Computes the detailed diff between |olds| and |news| (both OBJECTs or
 * NULL), descending into objects and arrays, one entry per leaf change.
 * flags: mp_value_equal_flags. Appends to |out|. |changed_keys| (may be
 * NULL) receives the changed top-level keys. */
void mp_value_diff(const mp_value *olds, const mp_value *news, unsigned flags,
                   mp_diff *out, mp_strv *changed_keys);

#endif
