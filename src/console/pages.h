/* The console's pages, each drawn from the JSON model.h makes (one file
 * each: page_*.c). Each appends a whole HTML document to |b|. */
#ifndef MP_CONSOLE_PAGES_H
#define MP_CONSOLE_PAGES_H

#include <cjson/cJSON.h>

#include "engine/mem.h"

/* Every stack, with the filter form holding |q| and |tag|. */
void mp_page_stacks(mp_buf *b, const cJSON *stacks, const char *q,
                    const char *tag);
void mp_page_stack(mp_buf *b, const cJSON *stack);
void mp_page_resource(mp_buf *b, const char *project, const char *stack,
                      const cJSON *res);
void mp_page_history(mp_buf *b, const char *project, const char *stack,
                     const cJSON *updates);
/* One update (mp_console_update's JSON): timeline, steps, diagnostics,
 * policy violations (page_update.c). */
void mp_page_update(mp_buf *b, const char *project, const char *stack,
                    const cJSON *update);
/* The update's timeline as an SVG element (timeline.c). */
void mp_svg_timeline(mp_buf *b, const cJSON *update);
/* On a stack's page, the line of its running update |last| (its
 * lastUpdate, when in progress): a link to its page, followed live
 * (page_update.c). Nothing for an update that has ended. */
void mp_page_stack_live(mp_buf *b, const char *project, const char *stack,
                        const cJSON *last);
/* An error page: |status| and the message. */
void mp_page_error(mp_buf *b, int status, const char *message);

#endif
