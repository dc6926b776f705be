/* An intrusive queue: a circular doubly linked list whose links live in
 * the queued objects (an mp_queue member), as libuv's queue.h does. A
 * queue head is an mp_queue of its own; an object may sit in as many
 * queues as it has members. Nothing allocates; nothing locks. */
#ifndef MP_QUEUE_H
#define MP_QUEUE_H

#include <stddef.h>

#include "engine/mem.h"

typedef struct mp_queue {
  struct mp_queue *next, *prev;
} mp_queue;

/* The object of type |type| whose member |field| is the link |q|. */
#define mp_queue_data(q, type, field) mp_container_of(q, type, field)

/* An empty queue (a head), or a link in no queue. */
static inline void mp_queue_init(mp_queue *h) { h->next = h->prev = h; }

static inline int mp_queue_empty(const mp_queue *h) { return h->next == h; }

/* The first link, or NULL when |h| is empty. */
static inline mp_queue *mp_queue_first(const mp_queue *h) {
  return h->next == h ? NULL : h->next;
}

/* The link after |q| in |h|, or NULL when |q| is the last. */
static inline mp_queue *mp_queue_after(const mp_queue *h, const mp_queue *q) {
  return q->next == h ? NULL : q->next;
}

/* Puts |q| before |at|: at the end of the queue when |at| is its head. */
static inline void mp_queue_insert_before(mp_queue *at, mp_queue *q) {
  q->next = at;
  q->prev = at->prev;
  at->prev->next = q;
  at->prev = q;
}

static inline void mp_queue_push(mp_queue *h, mp_queue *q) {
  mp_queue_insert_before(h, q);
}

/* Takes |q| out of its queue; it is then a link in no queue. */
static inline void mp_queue_remove(mp_queue *q) {
  q->prev->next = q->next;
  q->next->prev = q->prev;
  mp_queue_init(q);
}

/* Takes the first link out of |h|; NULL when |h| is empty. */
static inline mp_queue *mp_queue_pop(mp_queue *h) {
  mp_queue *q = mp_queue_first(h);
  if (q) mp_queue_remove(q);
  return q;
}

/* Moves every link of |from| to the end of |to|; |from| is then empty. */
static inline void mp_queue_move(mp_queue *from, mp_queue *to) {
  if (mp_queue_empty(from)) return;
  from->next->prev = to->prev;
  from->prev->next = to;
  to->prev->next = from->next;
  to->prev = from->prev;
  mp_queue_init(from);
}

#endif
