#include "engine/log.h"

#include <cJSON.h>
#include <errno.h>
#include <openssl/rand.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "engine/mem.h"

void mp_log_init(mp_log *l) {
  memset(l, 0, sizeof(*l));
  pthread_mutex_init(&l->mu, NULL);
}

void mp_log_destroy(mp_log *l) {
  for (size_t i = 0; i < l->nspans; i++) {
    free(l->spans[i].name);
    free(l->spans[i].tag_key);
    free(l->spans[i].tag_value);
  }
  free(l->spans);
  pthread_mutex_destroy(&l->mu);
  memset(l, 0, sizeof(*l));
}

int mp_log_on(const mp_log *l, int level) {
  return l && l->out && level <= l->verbose;
}

uint64_t mp_log_now_us(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

void mp_logv(mp_log *l, int level, const char *file, int line, const char *fmt,
             ...) {
  if (!mp_log_on(l, level))
    return;
  uint64_t now = mp_log_now_us();
  time_t secs = (time_t)(now / 1000000u);
  struct tm tm;
  localtime_r(&secs, &tm);
  va_list ap;
  va_start(ap, fmt);
  char *msg = mp_xvasprintf(fmt, ap);
  va_end(ap);
  /* glog's header: severity, mmdd hh:mm:ss.uuuuuu, thread id, file:line */
  pthread_mutex_lock(&l->mu);
  fprintf(l->out, "I%02d%02d %02d:%02d:%02d.%06u %7ld %s:%d] %s\n",
          tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
          (unsigned)(now % 1000000u), (long)syscall(SYS_gettid),
          base_name(file), line, msg);
  fflush(l->out);
  pthread_mutex_unlock(&l->mu);
  free(msg);
}

/* Appends a span; l->mu held. */
static uint64_t add_span(mp_log *l, const char *name, uint64_t parent) {
  if (l->nspans == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->spans = mp_xrealloc(l->spans, l->cap * sizeof(*l->spans));
  }
  mp_log_span *s = &l->spans[l->nspans++];
  memset(s, 0, sizeof(*s));
  s->name = mp_xstrdup(name);
  s->parent = parent;
  s->start_us = mp_log_now_us();
  return l->nspans;
}

uint64_t mp_span_begin(mp_log *l, const char *name, uint64_t parent) {
  if (!l || !l->tracing)
    return 0;
  pthread_mutex_lock(&l->mu);
  if (l->nspans == 0) {
    uint8_t id[16];
    if (RAND_bytes(id, sizeof(id)) != 1)
      memset(id, 0x5a, sizeof(id));
    memcpy(&l->trace_hi, id, 8);
    memcpy(&l->trace_lo, id + 8, 8);
    add_span(l, "pulumi", 0); /* Pulumi's root span name */
  }
  uint64_t id = add_span(l, name, parent ? parent : 1);
  pthread_mutex_unlock(&l->mu);
  return id;
}

void mp_span_end(mp_log *l, uint64_t id, const char *key, const char *value) {
  if (!l || id == 0)
    return;
  pthread_mutex_lock(&l->mu);
  if (id <= l->nspans) {
    mp_log_span *s = &l->spans[id - 1];
    s->end_us = mp_log_now_us();
    if (key && !s->tag_key) {
      s->tag_key = mp_xstrdup(key);
      s->tag_value = mp_xstrdup(value ? value : "");
    }
  }
  pthread_mutex_unlock(&l->mu);
}

static void put_hex(cJSON *o, const char *k, uint64_t hi, uint64_t lo,
                    int wide) {
  char b[40];
  if (wide)
    snprintf(b, sizeof(b), "%016llx%016llx", (unsigned long long)hi,
             (unsigned long long)lo);
  else
    snprintf(b, sizeof(b), "%016llx", (unsigned long long)lo);
  cJSON_AddStringToObject(o, k, b);
}

/* A span id on the wire: its index mixed with the trace id, so that two
 * traces never share ids. */
static uint64_t wire_id(const mp_log *l, uint64_t id) {
  return (l->trace_lo ^ (id * 0x9e3779b97f4a7c15ull)) | 1u;
}

static cJSON *span_json(const mp_log *l, uint64_t id) {
  const mp_log_span *s = &l->spans[id - 1];
  cJSON *o = cJSON_CreateObject();
  put_hex(o, "traceId", l->trace_hi, l->trace_lo, 1);
  put_hex(o, "id", 0, wire_id(l, id), 0);
  if (s->parent)
    put_hex(o, "parentId", 0, wire_id(l, s->parent), 0);
  cJSON_AddStringToObject(o, "name", s->name);
  cJSON_AddNumberToObject(o, "timestamp", (double)s->start_us);
  cJSON_AddNumberToObject(
      o, "duration",
      (double)(s->end_us > s->start_us ? s->end_us - s->start_us : 1));
  cJSON *ep = cJSON_AddObjectToObject(o, "localEndpoint");
  cJSON_AddStringToObject(ep, "serviceName", "minipulumi");
  if (s->tag_key) {
    cJSON *tags = cJSON_AddObjectToObject(o, "tags");
    cJSON_AddStringToObject(tags, s->tag_key, s->tag_value);
  }
  return o;
}

int mp_log_write_trace(mp_log *l, const char *path, mp_err *err) {
  if (!l->tracing)
    return 0;
  mp_span_end(l, mp_span_begin(l, "pulumi-exit", 0), NULL, NULL);
  pthread_mutex_lock(&l->mu);
  cJSON *arr = cJSON_CreateArray();
  uint64_t now = mp_log_now_us();
  for (uint64_t id = 1; id <= l->nspans; id++) {
    if (l->spans[id - 1].end_us == 0)
      l->spans[id - 1].end_us = now;
    cJSON_AddItemToArray(arr, span_json(l, id));
  }
  pthread_mutex_unlock(&l->mu);
  char *text = cJSON_Print(arr);
  cJSON_Delete(arr);
  FILE *f = fopen(path, "w");
  int rc = 0;
  if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0)
    rc = mp_err_set(err, MP_EIO, "cannot write the trace to %s: %s", path,
                    strerror(errno));
  if (f && fclose(f) != 0 && rc == 0)
    rc = mp_err_set(err, MP_EIO, "cannot write the trace to %s: %s", path,
                    strerror(errno));
  cJSON_free(text);
  return rc;
}
