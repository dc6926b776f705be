/* The text of an engine event as each update keeps it in the store
 * (mp_deploy_opts.event_text): the event as --event-log writes it,
 * secrets masked, less the resources' states (in the checkpoint, and
 * most of the cost), and for a step's start a "minipulumi" object the
 * console draws from: the step's detail as `--diff` prints it and the
 * resources it waits for (its dependencies and parent), which the
 * longest chain of the update's timeline follows.
 *
 * A step without diff details (every step of a no-op) is written straight
 * into the text, the same bytes as the general way through cJSON gives
 * (tests/cli/test_event_record.c compares them): a no-op `up` keeps two
 * events per resource, and the cJSON tree was most of their cost. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/display.h"
#include "cli/json_out.h"
#include "engine/mem.h"
#include "engine/op.h"
#include "engine/value.h"

static const mp_resource *state_of(const mp_step_meta *m) {
  return m->new_ ? m->new_ : m->old;
}

static void add_waits(cJSON *o, const mp_step_meta *m) {
  const mp_resource *r = state_of(m);
  cJSON *a = cJSON_AddArrayToObject(o, "waitsFor");
  for (size_t i = 0; r && i < r->dependencies.len; i++)
    cJSON_AddItemToArray(a, cJSON_CreateString(r->dependencies.items[i]));
  if (r && r->parent && *r->parent)
    cJSON_AddItemToArray(a, cJSON_CreateString(r->parent));
}

char *mp_cli_event_record_general(const mp_event *ev) {
  cJSON *j = mp_cli_event_json(ev, MP_EVENT_JSON_NO_STATES);
  if (ev->kind == MP_EVENT_RESOURCE_PRE) {
    cJSON *mine = cJSON_AddObjectToObject(j, "minipulumi");
    char *diff = mp_display_step_diff(&ev->meta);
    if (diff) cJSON_AddStringToObject(mine, "diff", diff);
    free(diff);
    add_waits(mine, &ev->meta);
  }
  mp_buf b;
  mp_buf_init(&b);
  mp_cli_cjson_print(j, 0, &b);
  cJSON_Delete(j);
  return mp_buf_detach(&b, NULL);
}

/* ---- the short way ---- */

static int has_details(const mp_step_meta *m) {
  return (m->keys && m->keys->len) || (m->diffs && m->diffs->len) ||
         (m->detailed_diff && m->detailed_diff->len);
}

static void put_key_str(mp_buf *b, const char *key, const char *s) {
  mp_buf_printf(b, "\"%s\":", key);
  mp_json_put_string(b, s ? s : "", s ? strlen(s) : 0);
}

static void put_waits(mp_buf *b, const mp_step_meta *m) {
  const mp_resource *r = state_of(m);
  mp_buf_puts(b, "\"waitsFor\":[");
  int first = 1;
  for (size_t i = 0; r && i < r->dependencies.len; i++, first = 0) {
    if (!first) mp_buf_putc(b, ',');
    const char *d = r->dependencies.items[i];
    mp_json_put_string(b, d, strlen(d));
  }
  if (r && r->parent && *r->parent) {
    if (!first) mp_buf_putc(b, ',');
    mp_json_put_string(b, r->parent, strlen(r->parent));
  }
  mp_buf_putc(b, ']');
}

char *mp_cli_event_record(const mp_event *ev) {
  int pre = ev->kind == MP_EVENT_RESOURCE_PRE;
  if ((!pre && ev->kind != MP_EVENT_RES_OUTPUTS) || has_details(&ev->meta))
    return mp_cli_event_record_general(ev);
  const mp_step_meta *m = &ev->meta;
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "{\"sequence\":");
  int ok = mp_cli_json_put_integer(&b, (double)ev->sequence);
  mp_buf_puts(&b, ",\"timestamp\":");
  ok = ok && mp_cli_json_put_integer(&b, floor(ev->timestamp));
  if (!ok) { /* not plain integers: as cJSON prints them */
    mp_buf_destroy(&b);
    return mp_cli_event_record_general(ev);
  }
  mp_buf_puts(&b, pre ? ",\"resourcePreEvent\":{\"metadata\":{"
                      : ",\"resOutputsEvent\":{\"metadata\":{");
  put_key_str(&b, "op", mp_op_info_of(m->op)->name);
  mp_buf_putc(&b, ',');
  put_key_str(&b, "urn", m->urn);
  mp_buf_putc(&b, ',');
  put_key_str(&b, "type", m->type);
  if (m->logical) mp_buf_puts(&b, ",\"logical\":true");
  mp_buf_putc(&b, ',');
  put_key_str(&b, "provider", m->provider);
  mp_buf_putc(&b, '}');
  if (ev->preview) mp_buf_puts(&b, ",\"planning\":true");
  mp_buf_putc(&b, '}');
  if (pre) {
    mp_buf_puts(&b, ",\"minipulumi\":{");
    char *diff = mp_display_step_diff(m);
    if (diff) {
      put_key_str(&b, "diff", diff);
      mp_buf_putc(&b, ',');
    }
    free(diff);
    put_waits(&b, m);
    mp_buf_putc(&b, '}');
  }
  mp_buf_putc(&b, '}');
  return mp_buf_detach(&b, NULL);
}
