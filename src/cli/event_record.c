/* The text of an engine event as each update keeps it in the store
 * (mp_deploy_opts.event_text): the event as --event-log writes it,
 * secrets masked, and for a step's start a "minipulumi" object the
 * console draws from: the step's detail as `--diff` prints it and the
 * resources it waits for (its dependencies and parent), which the
 * longest chain of the update's timeline follows. */
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cli/display.h"
#include "cli/json_out.h"

static void add_waits(cJSON *o, const mp_step_meta *m) {
  const mp_resource *r = m->new_ ? m->new_ : m->old;
  cJSON *a = cJSON_AddArrayToObject(o, "waitsFor");
  for (size_t i = 0; r && i < r->dependencies.len; i++)
    cJSON_AddItemToArray(a, cJSON_CreateString(r->dependencies.items[i]));
  if (r && r->parent && *r->parent)
    cJSON_AddItemToArray(a, cJSON_CreateString(r->parent));
}

char *mp_cli_event_record(const mp_event *ev) {
  cJSON *j = mp_cli_event_json(ev, 0);
  if (ev->kind == MP_EVENT_RESOURCE_PRE) {
    cJSON *mine = cJSON_AddObjectToObject(j, "minipulumi");
    char *diff = mp_display_step_diff(&ev->meta);
    if (diff) cJSON_AddStringToObject(mine, "diff", diff);
    free(diff);
    add_waits(mine, &ev->meta);
  }
  char *s = cJSON_PrintUnformatted(j);
  cJSON_Delete(j);
  char *out = s ? mp_xstrdup(s) : NULL;
  cJSON_free(s);
  return out;
}
