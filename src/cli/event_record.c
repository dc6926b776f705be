/* The text of an engine event as each update keeps it in the store
 * (mp_deploy_opts.event_text): the event as --event-log writes it,
 * secrets masked, less the resources' states (in the checkpoint, and
 * most of the cost), and for a step's start a "minipulumi" object the
 * console draws from: the step's detail as `--diff` prints it and the
 * resources it waits for (its dependencies and parent), which the
 * longest chain of the update's timeline follows. */
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cli/display.h"
#include "cli/json_out.h"
#include "engine/mem.h"

static void add_waits(cJSON *o, const mp_step_meta *m) {
  const mp_resource *r = m->new_ ? m->new_ : m->old;
  cJSON *a = cJSON_AddArrayToObject(o, "waitsFor");
  for (size_t i = 0; r && i < r->dependencies.len; i++)
    cJSON_AddItemToArray(a, cJSON_CreateString(r->dependencies.items[i]));
  if (r && r->parent && *r->parent)
    cJSON_AddItemToArray(a, cJSON_CreateString(r->parent));
}

char *mp_cli_event_record(const mp_event *ev) {
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
