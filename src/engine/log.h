/* Leveled engine logs and trace spans: what `-v N --logtostderr` and
 * `--tracing file:PATH` turn on. One mp_log belongs to the CLI's mp_ctx and
 * is handed down by pointer in the option structs (mp_deploy_opts.log,
 * mp_plugin_host_opts.log); the engine reads no environment. A NULL
 * mp_log, or a level above the verbosity, logs nothing. Any thread.
 *
 * A line has the shape of Pulumi's logging.V(n).Infof (glog):
 *   I1125 22:31:07.123456   41233 launch.c:431] Launching plugin ...
 * A trace is a list of spans in Zipkin's v2 JSON format (an array of
 * {traceId, id, parentId, name, timestamp, duration, localEndpoint, tags}),
 * written once at the end by mp_log_write_trace. */
#ifndef MP_ENGINE_LOG_H
#define MP_ENGINE_LOG_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/err.h"

typedef struct mp_log_span {
  char *name;
  uint64_t parent;           /* 0: the trace's root */
  uint64_t start_us, end_us; /* microseconds since the epoch */
  char *tag_key, *tag_value; /* one tag, or NULLs */
} mp_log_span;

typedef struct mp_log {
  int verbose;   /* -v N: lines of level <= N are written */
  FILE *out;     /* where lines go (stderr, or a log file); NULL: nowhere */
  int flow;      /* --logflow: plugins are started with the same flags */
  int to_stderr; /* --logtostderr (passed on to plugins with --logflow) */
  /* tracing: on when |tracing| is 1; spans are kept until written */
  int tracing;
  pthread_mutex_t mu; /* guards the spans and the writes of lines */
  uint64_t trace_hi, trace_lo;
  mp_log_span *spans; /* span id N is spans[N - 1] */
  size_t nspans, cap;
} mp_log;

void mp_log_init(mp_log *l);
/* Frees the spans; does not close |out|. */
void mp_log_destroy(mp_log *l);

/* Whether a line of |level| would be written. */
int mp_log_on(const mp_log *l, int level);

/* Writes one line of |level| from |file|:|line| (the file's base name is
 * shown). */
void mp_logv(mp_log *l, int level, const char *file, int line, const char *fmt,
             ...) __attribute__((format(printf, 5, 6)));
#define MP_LOGV(l, level, ...)                                                 \
  mp_logv((l), (level), __FILE__, __LINE__, __VA_ARGS__)

/* Starts a span named |name| under |parent| (0: the root span, id 1, which
 * the first call makes). Returns its id, or 0 when not tracing. */
uint64_t mp_span_begin(mp_log *l, const char *name, uint64_t parent);
/* Ends span |id| (0: nothing), with one tag (|key| NULL: none). */
void mp_span_end(mp_log *l, uint64_t id, const char *key, const char *value);

/* Ends the spans still open and writes the trace to |path|. Returns 0, or
 * MP_EIO with |err| set. */
int mp_log_write_trace(mp_log *l, const char *path, mp_err *err);

/* Microseconds since the epoch (for spans and timings). */
uint64_t mp_log_now_us(void);

#endif
