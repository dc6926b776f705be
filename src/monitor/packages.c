/* The packages a program registers (ResourceMonitor.RegisterPackage,
 * Pulumi's source_eval.go RegisterPackage): each distinct package gets a
 * reference that later RegisterResource, Invoke and Call requests name in
 * their packageRef field. The same description gets the same reference.
 * Loop thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor_int.h"

static int same_str(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

static int same(const mp__package *p,
                const Pulumirpc__RegisterPackageRequest *q) {
  const Pulumirpc__Parameterization *z =
      q->extension ? q->extension : q->parameterization;
  if (!p->extension != !q->extension) return 0;
  if (!same_str(p->name, q->name) || !same_str(p->version, q->version) ||
      !same_str(p->download_url, q->download_url))
    return 0;
  if ((z != NULL) != (p->param_name != NULL)) return 0;
  if (z == NULL) return 1;
  return same_str(p->param_name, z->name) &&
         same_str(p->param_version, z->version) &&
         p->param_value.len == z->value.len &&
         (z->value.len == 0 ||
          memcmp(p->param_value.data, z->value.data, z->value.len) == 0);
}

static char *opt(const char *s) { return s && s[0] ? mp_xstrdup(s) : NULL; }

const char *mp__packages_register(mp__package **list,
                                  const Pulumirpc__RegisterPackageRequest *q) {
  size_t n = 0;
  for (mp__package *p = *list; p; p = p->next, n++)
    if (same(p, q)) return p->ref;
  mp__package *p = mp_xcalloc(1, sizeof(*p));
  const Pulumirpc__Parameterization *z =
      q->extension ? q->extension : q->parameterization;
  /* Shaped as Pulumi's (a UUID); only its uniqueness matters. An
   * extension's is its content's hash, as Pulumi's: the state keeps it
   * (extensionRef), so that it is the same on every run. */
  p->ref = q->extension
               ? mp_extension_ref(z->name, z->version, z->value.data,
                                  z->value.len)
               : mp_xasprintf("00000000-0000-4000-8000-%012zx", n + 1);
  p->extension = q->extension != NULL;
  p->name = mp_xstrdup(q->name);
  p->version = opt(q->version);
  p->download_url = opt(q->download_url);
  mp_buf_init(&p->param_value);
  if (z) {
    p->param_name = mp_xstrdup(z->name ? z->name : "");
    p->param_version = opt(z->version);
    mp_buf_append(&p->param_value, z->value.data, z->value.len);
  }
  mp__package **tail = list;
  while (*tail) tail = &(*tail)->next;
  *tail = p;
  return p->ref;
}

const mp__package *mp__packages_find(const mp__package *list, const char *ref) {
  for (const mp__package *p = list; p; p = p->next)
    if (strcmp(p->ref, ref) == 0) return p;
  return NULL;
}

/* |out| describes |p|'s parameterization (its pointers borrowed). */
static void describe(const mp__package *p, mp_provider_param *out) {
  out->name = p->param_name;
  out->version = p->param_version;
  out->plugin = p->name;
  out->plugin_version = p->version;
  out->value = p->param_value.data;
  out->len = p->param_value.len;
}

int mp__package_ext(const mp__package *p, mp_provider_param *out) {
  memset(out, 0, sizeof(*out));
  if (p == NULL || !p->extension) return 0;
  describe(p, out);
  out->ext_ref = p->ref;
  return 1;
}

int mp__package_param(const mp__package *p, mp_provider_param *out) {
  memset(out, 0, sizeof(*out));
  if (p == NULL || p->param_name == NULL || p->extension) return 0;
  describe(p, out);
  return 1;
}

void mp__packages_free(mp__package *list) {
  while (list) {
    mp__package *p = list;
    list = p->next;
    free(p->ref);
    free(p->name);
    free(p->version);
    free(p->download_url);
    free(p->param_name);
    free(p->param_version);
    mp_buf_destroy(&p->param_value);
    free(p);
  }
}
