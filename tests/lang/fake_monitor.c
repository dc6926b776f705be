/* A recording fake of the monitor entry points of monitor/api.h. */
#include "lang/fake_monitor.h"

#include <stdlib.h>
#include <string.h>

#include "engine/value_pb.h"

typedef enum { Q_REG, Q_READ, Q_INVOKE, Q_SCHEMA } qkind;

struct fake_pending {
  qkind kind;
  size_t index; /* into regs / reads / invokes */
  void *cb;
  void *ud;
};

/* Deep copy through the wire format. */
#define COPY_MSG(type, fn, msg)                                             \
  do {                                                                      \
    size_t n_ = protobuf_c_message_get_packed_size(&(msg)->base);           \
    uint8_t *b_ = mp_xmalloc(n_ + 1);                                       \
    protobuf_c_message_pack(&(msg)->base, b_);                              \
    copy = fn##__unpack(NULL, n_, b_);                                      \
    free(b_);                                                               \
  } while (0)

static void on_timer(uv_timer_t *t);

static void enqueue(mp_monitor *m, qkind kind, size_t index, void *cb,
                    void *ud) {
  m->queue = mp_xreallocarray(m->queue, m->nqueue + 1, sizeof(*m->queue));
  m->queue[m->nqueue++] = (fake_pending){kind, index, cb, ud};
  uv_timer_start(&m->timer, on_timer, 0, 0);
}

/* The qualified type of |parent|'s URN (segment 3 of "::"). */
static char *qualified_type(const char *parent, const char *type) {
  if (parent == NULL || parent[0] == '\0')
    return mp_xstrdup(type);
  const char *p = parent;
  for (int i = 0; i < 2 && p; i++) {
    p = strstr(p, "::");
    if (p)
      p += 2;
  }
  const char *end = p ? strstr(p, "::") : NULL;
  if (end == NULL || strncmp(p, "pulumi:pulumi:Stack", 19) == 0)
    return mp_xstrdup(type);
  return mp_xasprintf("%.*s$%s", (int)(end - p), p, type);
}

static char *make_urn(mp_monitor *m, const char *parent, const char *type,
                      const char *name) {
  char *q = qualified_type(parent, type);
  char *urn = mp_xasprintf("urn:pulumi:%s::%s::%s::%s", m->stack, m->project,
                           q, name);
  free(q);
  return urn;
}

static void answer_reg(mp_monitor *m, fake_pending *q) {
  const Pulumirpc__RegisterResourceRequest *req = m->regs[q->index];
  mp_strv_push_take(&m->events, mp_xasprintf("ans:%s", req->name));
  mp_register_cb cb = (mp_register_cb)q->cb;
  if (m->fail_name && strcmp(req->name, m->fail_name) == 0) {
    mp_err e;
    mp_err_set(&e, MP_EPLUGIN, "create of '%s' failed: boom", req->name);
    cb(q->ud, NULL, &e);
    return;
  }
  Pulumirpc__RegisterResourceResponse resp =
      PULUMIRPC__REGISTER_RESOURCE_RESPONSE__INIT;
  resp.urn = make_urn(m, req->parent, req->type, req->name);
  char *id = mp_xasprintf("id-%s", req->name);
  if (req->custom && !m->preview)
    resp.id = id;
  resp.object = req->object;
  if (m->unknown_name && strcmp(req->name, m->unknown_name) == 0) {
    resp.unknown = 1;
    resp.object = NULL;
  }
  cb(q->ud, &resp, NULL);
  free(resp.urn);
  free(id);
}

static void answer_read(mp_monitor *m, fake_pending *q) {
  const Pulumirpc__ReadResourceRequest *req = m->reads[q->index];
  mp_strv_push_take(&m->events, mp_xasprintf("ans:%s", req->name));
  Pulumirpc__ReadResourceResponse resp =
      PULUMIRPC__READ_RESOURCE_RESPONSE__INIT;
  resp.urn = make_urn(m, req->parent, req->type, req->name);
  resp.properties = req->properties;
  ((mp_read_cb)q->cb)(q->ud, &resp, NULL);
  free(resp.urn);
}

/* Returns the arguments plus {"tok": <token>}; "test:index:fail" fails. */
static void answer_invoke(mp_monitor *m, fake_pending *q) {
  const Pulumirpc__ResourceInvokeRequest *req = m->invokes[q->index];
  Pulumirpc__ResourceInvokeResponse resp =
      PULUMIRPC__RESOURCE_INVOKE_RESPONSE__INIT;
  Pulumirpc__CheckFailure f = PULUMIRPC__CHECK_FAILURE__INIT;
  Pulumirpc__CheckFailure *fs[1] = {&f};
  mp_value *ret = NULL;
  if (strcmp(req->tok, "test:index:fail") == 0) {
    f.reason = "no such thing";
    resp.failures = fs;
    resp.n_failures = 1;
  } else {
    mp_value_from_pb_struct(req->args, &ret, NULL);
    mp_value_object_set(ret, "tok", mp_value_new_cstring(req->tok));
    mp_value_to_pb_struct(ret, MP_PB_KEEP_SECRETS, &resp.return_, NULL);
  }
  ((mp_invoke_cb)q->cb)(q->ud, &resp, NULL);
  mp_value_pb_struct_free(resp.return_);
  mp_value_free(ret);
}

/* Answers what was queued before this iteration; later requests wait. */
static void on_timer(uv_timer_t *t) {
  mp_monitor *m = t->data;
  size_t n = m->nqueue;
  fake_pending *batch = m->queue;
  m->queue = NULL;
  m->nqueue = 0;
  for (size_t i = 0; i < n; i++) {
    if (batch[i].kind == Q_REG)
      answer_reg(m, &batch[i]);
    else if (batch[i].kind == Q_READ)
      answer_read(m, &batch[i]);
    else if (batch[i].kind == Q_SCHEMA)
      ((mp_schema_cb)batch[i].cb)(
          batch[i].ud, batch[i].index ? m->ext_schema_json : m->schema_json,
          NULL);
    else
      answer_invoke(m, &batch[i]);
  }
  free(batch);
}

int mp_monitor_register_resource(mp_monitor *m,
                                 const Pulumirpc__RegisterResourceRequest *req,
                                 mp_register_cb cb, void *ud, mp_err *err) {
  (void)err;
  Pulumirpc__RegisterResourceRequest *copy;
  COPY_MSG(Pulumirpc__RegisterResourceRequest,
           pulumirpc__register_resource_request, req);
  m->regs = mp_xreallocarray(m->regs, m->nregs + 1, sizeof(*m->regs));
  m->regs[m->nregs] = copy;
  mp_strv_push_take(&m->events, mp_xasprintf("reg:%s", req->name));
  enqueue(m, Q_REG, m->nregs++, (void *)cb, ud);
  return 0;
}

int mp_monitor_read_resource(mp_monitor *m,
                             const Pulumirpc__ReadResourceRequest *req,
                             mp_read_cb cb, void *ud, mp_err *err) {
  (void)err;
  Pulumirpc__ReadResourceRequest *copy;
  COPY_MSG(Pulumirpc__ReadResourceRequest, pulumirpc__read_resource_request,
           req);
  m->reads = mp_xreallocarray(m->reads, m->nreads + 1, sizeof(*m->reads));
  m->reads[m->nreads] = copy;
  mp_strv_push_take(&m->events, mp_xasprintf("read:%s", req->name));
  enqueue(m, Q_READ, m->nreads++, (void *)cb, ud);
  return 0;
}

void mp_monitor_set_program_dir(mp_monitor *m, const char *dir) {
  (void)m;
  (void)dir;
}

int mp_monitor_register_outputs(
    mp_monitor *m, const Pulumirpc__RegisterResourceOutputsRequest *req,
    mp_err *err) {
  (void)err;
  Pulumirpc__RegisterResourceOutputsRequest *copy;
  COPY_MSG(Pulumirpc__RegisterResourceOutputsRequest,
           pulumirpc__register_resource_outputs_request, req);
  if (m->outputs)
    pulumirpc__register_resource_outputs_request__free_unpacked(m->outputs,
                                                                NULL);
  m->outputs = copy;
  m->outputs_calls++;
  mp_strv_push(&m->events, "outputs");
  return 0;
}

int mp_monitor_invoke(mp_monitor *m,
                      const Pulumirpc__ResourceInvokeRequest *req,
                      mp_invoke_cb cb, void *ud, mp_err *err) {
  (void)err;
  Pulumirpc__ResourceInvokeRequest *copy;
  COPY_MSG(Pulumirpc__ResourceInvokeRequest,
           pulumirpc__resource_invoke_request, req);
  m->invokes =
      mp_xreallocarray(m->invokes, m->ninvokes + 1, sizeof(*m->invokes));
  m->invokes[m->ninvokes] = copy;
  mp_strv_push_take(&m->events, mp_xasprintf("inv:%s", req->tok));
  enqueue(m, Q_INVOKE, m->ninvokes++, (void *)cb, ud);
  return 0;
}

int mp_monitor_get_schema(mp_monitor *m, const char *pkg, const char *version,
                          const char *url, mp_schema_cb cb, void *ud,
                          mp_err *err) {
  (void)version;
  (void)url;
  if (m->schema_pkg == NULL || strcmp(pkg, m->schema_pkg) != 0)
    return mp_err_set(err, MP_ENOENT, "no schema for '%s'", pkg);
  mp_strv_push_take(&m->events, mp_xasprintf("schema:%s", pkg));
  enqueue(m, Q_SCHEMA, 0, (void *)cb, ud);
  return 0;
}

int mp_monitor_get_package_schema(mp_monitor *m, const char *ref,
                                  mp_schema_cb cb, void *ud, mp_err *err) {
  char *ev = mp_xasprintf("ext:%s", strncmp(ref, "ref-", 4) == 0 ? ref + 4 : "");
  int known = m->ext_schema_json && fake_monitor_event(m, ev) >= 0;
  free(ev);
  if (!known)
    return mp_err_set(err, MP_ENOENT, "no schema for package '%s'", ref);
  mp_strv_push_take(&m->events, mp_xasprintf("schema:%s", ref));
  enqueue(m, Q_SCHEMA, 1, (void *)cb, ud);
  return 0;
}

int mp_monitor_register_package(mp_monitor *m,
                                const Pulumirpc__RegisterPackageRequest *req,
                                char **ref, mp_err *err) {
  (void)err;
  if (req->extension) {
    mp_strv_push_take(&m->events, mp_xasprintf("ext:%s", req->extension->name));
    *ref = mp_xasprintf("ref-%s", req->extension->name);
    return 0;
  }
  mp_strv_push_take(&m->events, mp_xasprintf("pkg:%s", req->parameterization
                                                           ? req->parameterization->name
                                                           : req->name));
  *ref = mp_xasprintf("ref-%s", req->parameterization ? req->parameterization->name
                                                      : req->name);
  return 0;
}

void mp_monitor_log(mp_monitor *m, mp_log_severity sev, const char *urn,
                    const char *msg) {
  (void)m;
  (void)sev;
  (void)urn;
  (void)msg;
}

void mp_monitor_program_done(mp_monitor *m, int failed, const char *message) {
  m->done_calls++;
  m->done_failed = failed;
  free(m->done_msg);
  m->done_msg = mp_xstrdup(message ? message : "");
  mp_strv_push(&m->events, "done");
}

void fake_monitor_init(mp_monitor *m, uv_loop_t *loop, const char *project,
                       const char *stack) {
  memset(m, 0, sizeof(*m));
  m->loop = loop;
  m->project = mp_xstrdup(project);
  m->stack = mp_xstrdup(stack);
  mp_strv_init(&m->events);
  uv_timer_init(loop, &m->timer);
  m->timer.data = m;
}

void fake_monitor_destroy(mp_monitor *m) {
  for (size_t i = 0; i < m->nregs; i++)
    pulumirpc__register_resource_request__free_unpacked(m->regs[i], NULL);
  for (size_t i = 0; i < m->nreads; i++)
    pulumirpc__read_resource_request__free_unpacked(m->reads[i], NULL);
  for (size_t i = 0; i < m->ninvokes; i++)
    pulumirpc__resource_invoke_request__free_unpacked(m->invokes[i], NULL);
  if (m->outputs)
    pulumirpc__register_resource_outputs_request__free_unpacked(m->outputs,
                                                                NULL);
  free(m->regs);
  free(m->reads);
  free(m->invokes);
  free(m->queue);
  free(m->project);
  free(m->stack);
  free(m->done_msg);
  mp_strv_destroy(&m->events);
  uv_close((uv_handle_t *)&m->timer, NULL);
}

const Pulumirpc__RegisterResourceRequest *fake_monitor_reg(
    const mp_monitor *m, const char *name) {
  for (size_t i = 0; i < m->nregs; i++)
    if (strcmp(m->regs[i]->name, name) == 0)
      return m->regs[i];
  return NULL;
}

long fake_monitor_event(const mp_monitor *m, const char *event) {
  for (size_t i = 0; i < m->events.len; i++)
    if (strcmp(m->events.items[i], event) == 0)
      return (long)i;
  return -1;
}
