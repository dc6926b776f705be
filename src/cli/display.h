/* The terminal display of a deployment, shaped like Pulumi's
 * (tests/cli/t0400-up-preview.sh shows it): a header, the resource tree under
 * the stack with op symbols and statuses (rewritten in place on a terminal,
 * one line per event otherwise), then Diagnostics:, Outputs:, the
 * Resources: summary and Duration:. Fed engine events on the thread that
 * runs the deployment. */
#ifndef MP_CLI_DISPLAY_H
#define MP_CLI_DISPLAY_H

#include <stdio.h>

#include "cli/ctx.h"
#include "engine/events.h"

typedef struct mp_display_opts {
  FILE *out;
  const char *header; /* "Previewing update (dev)"; NULL: none */
  int preview;        /* planning rather than doing */
  int tty;            /* rewrite the tree in place with ANSI sequences */
  mp_color_mode color; /* never / always (ANSI) / raw; auto resolved */
  int show_diff;      /* --diff: property detail under each step */
  int show_secrets;
} mp_display_opts;

typedef struct mp_display mp_display;

/* Starts a display and prints the header. |o| is copied. */
mp_display *mp_display_new(const mp_display_opts *o);
/* Shows one event (an mp_event_sink body). */
void mp_display_event(mp_display *d, const mp_event *ev);
/* Prints the final tree, Diagnostics:, Outputs:, Resources: and Duration:
 * (the last only when not a preview). */
void mp_display_finish(mp_display *d);
/* Prints the property detail of every planned step (the prompt's
 * `details` answer). */
void mp_display_details(mp_display *d);
void mp_display_free(mp_display *d);

#endif
