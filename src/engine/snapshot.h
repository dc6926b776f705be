/* A snapshot: the resources of a stack in dependency order, its pending
 * operations and its secrets provider; the deployment JSON of
 * `stack export` / `stack import` (docs/state-backends.md). */
#ifndef MP_SNAPSHOT_H
#define MP_SNAPSHOT_H

#include "engine/err.h"
#include "engine/extension.h"
#include "engine/mem.h"
#include "engine/resource.h"
#include "engine/value.h"

typedef struct mp_snapshot {
  mp_resource **res; /* owned, in checkpoint order */
  size_t nres, cap;
  mp_pending_op *pending; /* owned */
  size_t npending, pcap;
  char *secrets_type;  /* "passphrase" or NULL */
  char *secrets_state; /* JSON text of secrets_providers.state, or NULL */
  char *manifest_time; /* as read from an import, or NULL */
  char *manifest_version;
  /* `extensions`: the extensions its resources' extensionRef name
   * (engine/extension.h); a store may hold more, which export leaves
   * out. */
  mp_extensions extensions;
} mp_snapshot;

mp_snapshot *mp_snapshot_new(void);
void mp_snapshot_free(mp_snapshot *s);
/* Takes ownership of |r|. */
void mp_snapshot_append(mp_snapshot *s, mp_resource *r);
/* Takes ownership of |r|. */
void mp_snapshot_append_pending(mp_snapshot *s, mp_resource *r,
                                mp_pending_type type);

/* The integrity rules (docs/architecture.md) over |s|'s resources (pending
 * operations are not checked): urn and type present; a component has no
 * id; a custom resource has an id unless it is a pendingReplacement or
 * carries initErrors (a partially failed create); a provider reference
 * names an earlier provider resource with the same URN and id (exempt:
 * pendingReplacement entries); parent, dependencies, propertyDependencies,
 * deletedWith and replaceWith name earlier URNs; at most one copy of a URN
 * lacks `delete: true`. Returns 0, or MP_ESTATE with the first problem in
 * |err| naming the resource's URN and the reference, telling "refers to
 * missing/unknown X" from "X comes after it". Linear in the size of |s|. */
int mp_snapshot_verify(const mp_snapshot *s, mp_err *err);

/* The repair of a snapshot that fails mp_snapshot_verify
 * (snapshot_repair.c). mp_snapshot_toposort sorts |s| (post-order over
 * references) and appends the moved entries to |report| as Pulumi lists
 * them; returns 0 or MP_ESTATE (a cycle). mp_snapshot_prune_dangling then
 * removes references to missing resources from the sorted |s| (a missing
 * parent also takes its type out of the child's URN, and the children's
 * URNs follow), reporting each change as Pulumi does. */
int mp_snapshot_toposort(mp_snapshot *s, mp_buf *report, mp_err *err);
void mp_snapshot_prune_dangling(mp_snapshot *s, mp_buf *report);

/* 1 if some resource or pending operation of |s| has extensionRef |ref|. */
int mp_snapshot_uses_extension(const mp_snapshot *s, const char *ref);

enum mp_deployment_json_flags {
  MP_DEPLOY_JSON_SHOW_SECRETS = 1 << 0, /* plaintext secrets */
  MP_DEPLOY_JSON_PRETTY = 1 << 1
};

/* Writes `{"version": 3, "deployment": {...}}` to |out|. |version| is the
 * engine version for the manifest (magic = sha256 hex of it). */
int mp_snapshot_export(const mp_snapshot *s, const mp_crypter *c,
                       const char *version, unsigned flags, mp_buf *out,
                       mp_err *err);

/* Parses an untyped deployment (versions 1-3 accepted; 4 only without
 * unknown features). Secrets are decrypted with |c| (may be NULL if there
 * are none or they are plaintext). Sets *out on success. */
int mp_snapshot_import(const char *text, size_t len, const mp_crypter *c,
                       mp_snapshot **out, mp_err *err);

/* Serialises one resource as checkpoint JSON (ResourceV3 key order). */
int mp_resource_to_json(const mp_resource *r, const mp_crypter *c,
                        unsigned flags, mp_buf *out, mp_err *err);
int mp_resource_from_json(const char *text, size_t len, const mp_crypter *c,
                          mp_resource **out, mp_err *err);

#endif
