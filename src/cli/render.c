/* Rendering property values for people (Pulumi's display) and for JSON
 * output (secrets masked as "[secret]" unless shown). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/json_out.h"
#include "cli/render.h"

static void put_indent(mp_buf *out, int n) {
  for (int i = 0; i < n; i++) mp_buf_putc(out, ' ');
}

static void put_number(mp_buf *out, double d) {
  if (isfinite(d) && d == floor(d) && fabs(d) < 1e15)
    mp_buf_printf(out, "%.0f", d);
  else
    mp_buf_printf(out, "%.17g", d);
}

static void put_quoted(mp_buf *out, const char *s, size_t len) {
  /* up to the first NUL, as the display always showed it */
  (void)len;
  mp_json_put_string(out, s, strlen(s));
}

static void render(const mp_value *v, unsigned flags, int indent, int top,
                   mp_buf *out);

static void render_object(const mp_value *v, unsigned flags, int indent,
                          mp_buf *out) {
  if (!v->u.obj.len) {
    mp_buf_puts(out, "{}");
    return;
  }
  mp_buf_puts(out, "{\n");
  for (size_t i = 0; i < v->u.obj.len; i++) {
    put_indent(out, indent + 4);
    mp_buf_printf(out, "%s: ", v->u.obj.items[i].key);
    render(v->u.obj.items[i].value, flags, indent + 4, 0, out);
    mp_buf_putc(out, '\n');
  }
  put_indent(out, indent);
  mp_buf_putc(out, '}');
}

static void render_array(const mp_value *v, unsigned flags, int indent,
                         mp_buf *out) {
  if (!v->u.arr.len) {
    mp_buf_puts(out, "[]");
    return;
  }
  mp_buf_puts(out, "[\n");
  for (size_t i = 0; i < v->u.arr.len; i++) {
    put_indent(out, indent + 4);
    mp_buf_printf(out, "[%zu]: ", i);
    render(v->u.arr.items[i], flags, indent + 4, 0, out);
    mp_buf_putc(out, '\n');
  }
  put_indent(out, indent);
  mp_buf_putc(out, ']');
}

static void render(const mp_value *v, unsigned flags, int indent, int top,
                   mp_buf *out) {
  if (!v) {
    mp_buf_puts(out, "null");
    return;
  }
  switch (v->kind) {
  case MP_VALUE_NULL: mp_buf_puts(out, "null"); return;
  case MP_VALUE_BOOL: mp_buf_puts(out, v->u.boolean ? "true" : "false"); return;
  case MP_VALUE_NUMBER: put_number(out, v->u.number); return;
  case MP_VALUE_STRING:
    if (top && (flags & MP_RENDER_RAW_STRINGS))
      mp_buf_append(out, v->u.str.ptr, v->u.str.len);
    else
      put_quoted(out, v->u.str.ptr, v->u.str.len);
    return;
  case MP_VALUE_OBJECT: render_object(v, flags, indent, out); return;
  case MP_VALUE_ARRAY: render_array(v, flags, indent, out); return;
  case MP_VALUE_SECRET:
    if (flags & MP_RENDER_SHOW_SECRETS) render(v->u.secret, flags, indent, top, out);
    else mp_buf_puts(out, "[secret]");
    return;
  case MP_VALUE_OUTPUT:
    if (v->u.output.secret && !(flags & MP_RENDER_SHOW_SECRETS))
      mp_buf_puts(out, "[secret]");
    else if (!v->u.output.value) /* Pulumi's words for an unknown */
      mp_buf_puts(out, "output<string>");
    else
      render(v->u.output.value, flags, indent, top, out);
    return;
  case MP_VALUE_UNKNOWN: mp_buf_puts(out, "output<string>"); return;
  case MP_VALUE_ASSET:
    mp_buf_printf(out, "asset(%s)", v->u.asset.path   ? v->u.asset.path
                                    : v->u.asset.uri ? v->u.asset.uri
                                                      : "text");
    return;
  case MP_VALUE_ARCHIVE:
    mp_buf_printf(out, "archive(%s)", v->u.archive.path  ? v->u.archive.path
                                      : v->u.archive.uri ? v->u.archive.uri
                                                         : "assets");
    return;
  case MP_VALUE_RESOURCE_REF:
    mp_buf_printf(out, "resource(%s)", v->u.ref.urn);
    return;
  }
}

void mp_cli_render_value(const mp_value *v, unsigned flags, int indent,
                         mp_buf *out) {
  render(v, flags, indent, 1, out);
}

/* ==== JSON ==== */

static cJSON *from_json_text(const mp_value *v) {
  mp_buf b;
  mp_err err;
  mp_buf_init(&b);
  cJSON *j = NULL;
  if (mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &b, &err) == 0)
    j = cJSON_Parse(b.data ? b.data : "null");
  mp_buf_destroy(&b);
  return j ? j : cJSON_CreateNull();
}

cJSON *mp_cli_value_cjson(const mp_value *v, unsigned flags) {
  if (!v) return cJSON_CreateNull();
  switch (v->kind) {
  case MP_VALUE_NULL: return cJSON_CreateNull();
  case MP_VALUE_BOOL: return cJSON_CreateBool(v->u.boolean);
  case MP_VALUE_NUMBER: return cJSON_CreateNumber(v->u.number);
  case MP_VALUE_STRING: return cJSON_CreateString(v->u.str.ptr);
  case MP_VALUE_UNKNOWN: return cJSON_CreateString(MP_UNKNOWN_SENTINEL);
  case MP_VALUE_SECRET:
    if (flags & MP_RENDER_SHOW_SECRETS)
      return mp_cli_value_cjson(v->u.secret, flags);
    return cJSON_CreateString("[secret]");
  case MP_VALUE_OUTPUT:
    if (v->u.output.secret && !(flags & MP_RENDER_SHOW_SECRETS))
      return cJSON_CreateString("[secret]");
    if (!v->u.output.value) return cJSON_CreateString(MP_UNKNOWN_SENTINEL);
    return mp_cli_value_cjson(v->u.output.value, flags);
  case MP_VALUE_ARRAY: {
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < v->u.arr.len; i++)
      cJSON_AddItemToArray(a, mp_cli_value_cjson(v->u.arr.items[i], flags));
    return a;
  }
  case MP_VALUE_OBJECT: {
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < v->u.obj.len; i++)
      cJSON_AddItemToObject(o, v->u.obj.items[i].key,
                            mp_cli_value_cjson(v->u.obj.items[i].value, flags));
    return o;
  }
  default:
    return from_json_text(v);
  }
}

int mp_cli_json_put_integer(mp_buf *out, double v) {
  if (!isfinite(v) || fabs(v) >= 1e15 || v != (double)(int64_t)v) return 0;
  char digits[24], *p = digits + sizeof(digits);
  int64_t n = (int64_t)v;
  uint64_t u = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
  do *--p = (char)('0' + u % 10); while ((u /= 10) > 0);
  if (n < 0) *--p = '-';
  mp_buf_append(out, p, (size_t)(digits + sizeof(digits) - p));
  return 1;
}

/* A number as cJSON prints it: an integer below 10^15 in digits (what
 * both its "%d" and its "%1.15g" give), anything else by cJSON itself.
 * Events are mostly integers; cJSON's printer formats every number with
 * snprintf and reads it back with sscanf. */
static void put_cjson_number(const cJSON *j, mp_buf *out) {
  if (mp_cli_json_put_integer(out, j->valuedouble)) return;
  char *s = cJSON_PrintUnformatted(j);
  mp_buf_puts(out, s ? s : "null");
  cJSON_free(s);
}

static void put_str(mp_buf *out, const char *s) {
  mp_json_put_string(out, s ? s : "", s ? strlen(s) : 0);
}

/* The compact text of |j|, byte for byte what cJSON_PrintUnformatted
 * gives (the same escapes, the same numbers), without its cost. */
static void print_compact(const cJSON *j, mp_buf *out) {
  if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
    int is_obj = cJSON_IsObject(j);
    mp_buf_putc(out, is_obj ? '{' : '[');
    for (const cJSON *c = j->child; c; c = c->next) {
      if (is_obj) {
        put_str(out, c->string);
        mp_buf_putc(out, ':');
      }
      print_compact(c, out);
      if (c->next) mp_buf_putc(out, ',');
    }
    mp_buf_putc(out, is_obj ? '}' : ']');
  } else if (cJSON_IsString(j)) {
    put_str(out, j->valuestring);
  } else if (cJSON_IsNumber(j)) {
    put_cjson_number(j, out);
  } else if (cJSON_IsTrue(j)) {
    mp_buf_puts(out, "true");
  } else if (cJSON_IsFalse(j)) {
    mp_buf_puts(out, "false");
  } else if (cJSON_IsNull(j)) {
    mp_buf_puts(out, "null");
  } else { /* raw or invalid: as cJSON has it */
    char *s = cJSON_PrintUnformatted(j);
    mp_buf_puts(out, s ? s : "null");
    cJSON_free(s);
  }
}

static void print_json(const cJSON *j, int width, int depth, mp_buf *out) {
  int is_obj = cJSON_IsObject(j);
  if (!is_obj && !cJSON_IsArray(j)) {
    print_compact(j, out);
    return;
  }
  if (!j->child) {
    mp_buf_puts(out, is_obj ? "{}" : "[]");
    return;
  }
  mp_buf_putc(out, is_obj ? '{' : '[');
  for (const cJSON *c = j->child; c; c = c->next) {
    mp_buf_putc(out, '\n');
    put_indent(out, width * (depth + 1));
    if (is_obj) {
      put_str(out, c->string);
      mp_buf_puts(out, ": ");
    }
    print_json(c, width, depth + 1, out);
    if (c->next) mp_buf_putc(out, ',');
  }
  mp_buf_putc(out, '\n');
  put_indent(out, width * depth);
  mp_buf_putc(out, is_obj ? '}' : ']');
}

void mp_cli_cjson_print(const cJSON *j, int width, mp_buf *out) {
  if (width <= 0)
    print_compact(j, out);
  else
    print_json(j, width, 0, out);
}

void mp_cli_cjson_emit(FILE *f, cJSON *j, int width) {
  mp_buf b;
  mp_buf_init(&b);
  mp_cli_cjson_print(j, width, &b);
  fprintf(f, "%s\n", b.data ? b.data : "");
  fflush(f);
  mp_buf_destroy(&b);
  cJSON_Delete(j);
}

void mp_cli_value_json(const mp_value *v, unsigned flags, int pretty,
                       mp_buf *out) {
  cJSON *j = mp_cli_value_cjson(v, flags);
  mp_cli_cjson_print(j, pretty ? 2 : 0, out);
  cJSON_Delete(j);
}

size_t mp_cli_text_width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80) w++;
  return w;
}
