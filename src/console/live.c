/* The stream of one update's changes (live.h), as server-sent events. */
#include "console/live.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "console/escape.h"
#include "console/model.h"

#define POLL_MS 250
#define KEEPALIVE_MS 15000 /* within the server's 60 s idle timeout */

struct mp_live {
  const mp_console_src *src;
  char *project, *stack;
  int64_t version;
  char *last;     /* the JSON last sent */
  mp_buf out;     /* what is left to send */
  size_t sent;    /* of |out| */
  int64_t polled; /* when the store was last read, ms */
  int64_t wrote;  /* when something was last queued, ms */
  int ended;      /* the `end` event is in |out| */
};

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

mp_live *mp_live_new(const mp_console_src *src, const char *path) {
  static const char head[] = "/api/stack/", tail[] = "/events";
  size_t n = strlen(path);
  if (strncmp(path, head, sizeof(head) - 1) != 0 || n < sizeof(tail) ||
      strcmp(path + n - (sizeof(tail) - 1), tail) != 0)
    return NULL;
  char *copy = mp_xstrndup(path + sizeof(head) - 1,
                           n - (sizeof(head) - 1) - (sizeof(tail) - 1));
  /* PROJECT/STACK/update/N */
  char *s1 = strchr(copy, '/');
  char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
  char *end = NULL;
  long long v = 0;
  if (s2 && !strncmp(s2, "/update/", 8) && s2[8] >= '1' && s2[8] <= '9')
    v = strtoll(s2 + 8, &end, 10);
  if (s1 == NULL || s1 == copy || s2 == s1 + 1 || end == NULL || *end) {
    free(copy);
    return NULL;
  }
  *s1 = *s2 = '\0';
  mp_live *l = mp_xcalloc(1, sizeof(*l));
  l->src = src;
  l->project = mp_xstrdup(copy);
  l->stack = mp_xstrdup(s1 + 1);
  l->version = v;
  l->polled = -POLL_MS;
  l->wrote = now_ms();
  mp_buf_init(&l->out);
  free(copy);
  return l;
}

/* Reads the update; queues an `update` event if it changed, and `end`
 * once it is over (or gone). */
static void poll_store(mp_live *l) {
  mp_err err;
  mp_err_clear(&err);
  mp_stack_ref st = {l->project, l->stack};
  cJSON *u = mp_console_update(l->src, st, l->version, &err);
  if (u == NULL) {
    if (err.code == MP_ENOENT) return; /* not started yet */
    mp_buf_puts(&l->out, "event: end\ndata: {}\n\n");
    l->ended = 1;
    return;
  }
  size_t len;
  char *text = mp_json_text(u, &len);
  while (len > 0 && text[len - 1] == '\n') text[--len] = '\0';
  if (l->last == NULL || strcmp(l->last, text) != 0) {
    mp_buf_puts(&l->out, "event: update\ndata: ");
    mp_buf_puts(&l->out, text); /* one line: JSON escapes its newlines */
    mp_buf_puts(&l->out, "\n\n");
    free(l->last);
    l->last = text;
  } else {
    free(text);
  }
  if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(u, "running"))) {
    mp_buf_puts(&l->out, "event: end\ndata: {}\n\n");
    l->ended = 1;
  }
  cJSON_Delete(u);
}

long mp_live_read(mp_live *l, char *buf, size_t max) {
  if (l->sent == l->out.len) {
    if (l->ended) return -1;
    int64_t t = now_ms();
    if (t - l->polled < POLL_MS) return 0;
    l->polled = t;
    mp_buf_reset(&l->out);
    l->sent = 0;
    poll_store(l);
    if (l->out.len == 0 && t - l->wrote >= KEEPALIVE_MS)
      mp_buf_puts(&l->out, ": keep-alive\n\n");
    if (l->out.len == 0) return 0;
    l->wrote = t;
  }
  size_t n = l->out.len - l->sent;
  if (n > max) n = max;
  memcpy(buf, l->out.data + l->sent, n);
  l->sent += n;
  return (long)n;
}

void mp_live_free(mp_live *l) {
  if (l == NULL) return;
  free(l->project);
  free(l->stack);
  free(l->last);
  mp_buf_destroy(&l->out);
  free(l);
}
