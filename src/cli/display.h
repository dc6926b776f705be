/* The terminal display of a deployment, shaped like Pulumi's
 * (tests/cli/t0400-up-preview.sh shows it): a header, the resource tree under
 * the stack with op symbols and statuses (rewritten in place on a terminal,
 * one line per event otherwise), then Policies:, Diagnostics:, Outputs:, the
 * Resources: summary and Duration:. Fed engine events on the thread that
 * runs the deployment. */
#ifndef MP_CLI_DISPLAY_H
#define MP_CLI_DISPLAY_H

#include <signal.h>
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
  /* Set by the SIGINT handler (ctx->interrupt); a live terminal display
   * prints Pulumi's cancelling line itself, above the table. May be NULL. */
  volatile sig_atomic_t *interrupt;
  /* ctx->cancel_told: the line is printed once per command. May be NULL. */
  volatile sig_atomic_t *cancel_told;
  /* ctx->interrupt_signal: SIGTERM has words of its own. May be NULL. */
  volatile sig_atomic_t *interrupt_signal;
  int show_sames;             /* rows of unchanged resources too */
  int show_reads;             /* rows of read steps (`get`) too */
  int show_replacement_steps; /* a replacement's steps as rows of their own */
  int suppress_outputs;       /* no Outputs: section */
  int show_debug;             /* -d: debug diagnostics shown too */
  /* The "Policies:" section, printed where Pulumi prints it: after the
   * tree, before Diagnostics:; non-zero when it showed a mandatory
   * violation, which leaves out the Resources: summary (Pulumi's
   * printPolicies). NULL: none. */
  int (*print_policies)(void *ud, FILE *out);
  void *print_policies_ud;
} mp_display_opts;

typedef struct mp_display mp_display;

/* Starts a display; its header is printed with the engine's first event
 * (or at the finish), never over an error that stops the run before it
 * starts. |o| is copied. On a terminal
 * (|o->tty|) a ticker thread redraws the table every 100 ms, so that
 * elapsed times and spinners move between events; the display's state is
 * guarded by a mutex, so events may come from another thread. */
mp_display *mp_display_new(const mp_display_opts *o);
/* Shows one event (an mp_event_sink body). */
void mp_display_event(mp_display *d, const mp_event *ev);
/* Stops the ticker, marks the stack row done and prints the final tree,
 * Diagnostics:, Outputs:, Resources: and Duration: (the last only when not
 * a preview). */
void mp_display_finish(mp_display *d);
/* Prints the property detail of every planned step (the prompt's
 * `details` answer). */
void mp_display_details(mp_display *d);
void mp_display_free(mp_display *d);
/* A step's detail as `--diff` prints it (no colors, secrets masked), or
 * NULL for a step that shows none (same, refresh, a replacement's part).
 * Owned. For the console's update page (kept with the update's events). */
char *mp_display_step_diff(const mp_step_meta *m);

/* Pulumi's line for a first cancelling signal |sig| (SIGINT: ^C, SIGTERM
 * or SIGHUP), with its warning about orphaned resources unless |preview|;
 * and for a second one. Static strings (safe in a signal handler). */
const char *mp_display_cancel_text(int sig, int preview);
const char *mp_display_terminate_text(int sig);

#endif
