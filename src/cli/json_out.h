/* Machine output (tests/conformance/README.md reads it): engine events as
 * Pulumi's EngineEvent JSON, one per line (`--json` on up/refresh/destroy,
 * `--event-log`), and the single PreviewDigest document of
 * `preview --json`. cJSON stays inside src/cli. */
#ifndef MP_CLI_JSON_OUT_H
#define MP_CLI_JSON_OUT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "engine/events.h"
#include "engine/mem.h"
#include "engine/value.h"

/* |v| as cJSON; flags: mp_render_flags (secrets masked as "[secret]"
 * unless MP_RENDER_SHOW_SECRETS; unknowns as the sentinel). Owned. */
cJSON *mp_cli_value_cjson(const mp_value *v, unsigned flags);
/* Appends |j| as text: compact if |width| <= 0, else indented by |width|
 * spaces per level. */
void mp_cli_cjson_print(const cJSON *j, int width, mp_buf *out);
/* Appends |v| in digits if cJSON prints it so (an integer below 10^15)
 * and returns 1; otherwise appends nothing and returns 0. */
int mp_cli_json_put_integer(mp_buf *out, double v);
/* Writes |j| to |f| as mp_cli_cjson_print does, then a newline, flushes
 * |f| and frees |j|. */
void mp_cli_cjson_emit(FILE *f, cJSON *j, int width);

/* A flag of mp_cli_event_json, beside the mp_render_flags: a step's
 * metadata without the resource's states (`old`, `new`), as an update
 * keeps its events (the states are in the checkpoint; building them was
 * most of the cost of keeping the events of a no-op). */
#define MP_EVENT_JSON_NO_STATES (1u << 8)

/* One EngineEvent object (`sequence`, `timestamp`, one payload). Owned. */
cJSON *mp_cli_event_json(const mp_event *ev, unsigned flags);
/* The event as the update keeps it in the store (event_record.c), owned:
 * mp_deploy_opts.event_text. The _general form builds every event through
 * cJSON; mp_cli_event_record writes the common steps straight, to the same
 * bytes. */
char *mp_cli_event_record(const mp_event *ev);
char *mp_cli_event_record_general(const mp_event *ev);
/* Writes the event as one line to |f| and flushes it. Returns 0, or the
 * errno of a write that failed. */
int mp_cli_event_write(FILE *f, const mp_event *ev, unsigned flags);

/* The PreviewDigest of `preview --json`, built from the events. */
typedef struct mp_preview_digest mp_preview_digest;

mp_preview_digest *mp_preview_digest_new(unsigned flags);
void mp_preview_digest_add(mp_preview_digest *d, const mp_event *ev);
/* Prints the document (four-space indentation, as Pulumi does). */
void mp_preview_digest_print(const mp_preview_digest *d, FILE *f);
void mp_preview_digest_free(mp_preview_digest *d);

#endif
