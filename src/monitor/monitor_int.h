/* Shared between the files of src/monitor (not part of its API). */
#ifndef MP_MONITOR_INT_H
#define MP_MONITOR_INT_H

#include "engine/registry.h"
#include "monitor/monitor.h"

/* What Construct and Call requests carry about the deployment: the
 * monitor endpoint, the stack config as strings ("<ns>:<key>" -> value,
 * secrets decrypted, other values as JSON) and which keys are secret. */
typedef struct mp__monitor_info {
  const char *endpoint;
  mp_strv keys, values, secret_keys;
} mp__monitor_info;

/* Fails (naming |what| the request was for) when there is no endpoint;
 * destroy |i| only after a success. */
int mp__monitor_info_init(mp__monitor_info *i, const mp_monitor_opts *o,
                          const char *what, mp_err *err);
void mp__monitor_info_destroy(mp__monitor_info *i);

/* construct.c: the packed ConstructRequest for the remote registration
 * |q|, whose providers map (own entries over its component parent's) is
 * |providers| (package, reference pairs). */
int mp__monitor_construct_request(const mp_monitor_opts *o,
                                  const Pulumirpc__RegisterResourceRequest *q,
                                  const mp_strv *providers, mp_buf *out,
                                  mp_err *err);
/* The registration's answer from the packed ConstructResponse |resp|;
 * |flags| (MP_PB_KEEP_*) say what the caller accepts. NULL with |err|. */
Pulumirpc__RegisterResourceResponse *
mp__monitor_construct_answer(const mp_buf *resp, unsigned flags, mp_err *err);
void mp__monitor_construct_answer_free(Pulumirpc__RegisterResourceResponse *r);

/* call.c: the packed CallRequest for |q|. */
int mp__monitor_call_request(const mp_monitor_opts *o,
                             const Pulumirpc__ResourceCallRequest *q,
                             mp_buf *out, mp_err *err);

/* packages.c: the packages registered by RegisterPackage. */
typedef struct mp__package {
  char *ref;
  char *name, *version, *download_url;
  /* Parameterized: the package's own name, version and parameter value;
   * |name| and |version| are then the base plugin's. */
  char *param_name, *param_version;
  mp_buf param_value;
  /* An extension (RegisterPackage's `extension`): the param_* fields are
   * the extension's, |name| and |version| the base package's, and |ref|
   * is the extension's reference (mp_extension_ref). */
  int extension;
  struct mp__package *next;
} mp__package;

/* The reference of the package |q| describes, registered if new. */
const char *mp__packages_register(mp__package **list,
                                  const Pulumirpc__RegisterPackageRequest *q);
const mp__package *mp__packages_find(const mp__package *list, const char *ref);
/* 1 with |out| filled (borrowing from |p|) when |p| is parameterized
 * (a replacement, not an extension). */
int mp__package_param(const mp__package *p, mp_provider_param *out);
/* 1 with |out| filled (ext_ref set) when |p| is an extension. */
int mp__package_ext(const mp__package *p, mp_provider_param *out);
void mp__packages_free(mp__package *list);

#endif
