/* Printing diff trees (cli/prop_diff.h) in the text of Pulumi's display:
 * one property a line, four columns an indent level, the op's two-column
 * symbol (`+ `, `- `, `~ `) in the last columns of the indent, arrays
 * element by element (`~ [1]: "b" => "c"`), objects key by key inside
 * `~ name: {` ... `}`. Each piece is colored with its op's color. */
#include <stdarg.h>
#include <string.h>

#include "cli/prop_diff.h"
#include "cli/render.h"

typedef struct pp {
  const mp_pdiff_style *st;
  mp_buf *out;
  int indent;
  mp_step_op op;
  int prefix; /* the op's symbol before the text */
} pp;

/* A property's title: `key: ` padded to |align|, or `[index]: `. */
typedef struct title {
  const char *key;
  int align;
  size_t index;
} title;

static pp with_op(pp p, mp_step_op op, int prefix) {
  p.op = op;
  p.prefix = prefix;
  return p;
}

static pp indented(pp p, int n) {
  p.indent += n;
  return p;
}

static void color(const pp *p, int on) {
  int c = mp_op_info_of(p->op)->color;
  if (!c)
    return;
  if (p->st->color == MP_COLOR_ALWAYS) {
    if (on)
      mp_buf_printf(p->out, "\x1b[3%dm", c);
    else
      mp_buf_puts(p->out, "\x1b[0m");
  } else if (p->st->color == MP_COLOR_RAW) {
    if (on)
      mp_buf_printf(p->out, "<{%%fg %d%%}>", c);
    else
      mp_buf_puts(p->out, "<{%reset%}>");
  }
}

static void verbatim(const pp *p, const char *text) {
  color(p, 1);
  mp_buf_puts(p->out, text);
  color(p, 0);
}

/* |text| after the indent; with |prefix| the op's symbol takes the
 * indent's last two columns. */
static void put_indented(const pp *p, int prefix, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put_indented(const pp *p, int prefix, const char *fmt, ...) {
  color(p, 1);
  int cols = p->indent * 4;
  if (prefix && cols >= 2)
    cols -= 2;
  else
    prefix = 0;
  for (int i = 0; i < cols; i++)
    mp_buf_putc(p->out, ' ');
  if (prefix)
    mp_buf_puts(p->out, mp_op_info_of(p->op)->symbol);
  va_list ap;
  va_start(ap, fmt);
  mp_buf_vprintf(p->out, fmt, ap);
  va_end(ap);
  color(p, 0);
}

static void put_title(pp p, const title *t) {
  if (t->key) {
    put_indented(&p, p.prefix, "%-*s: ", t->align, t->key);
  } else {
    p = indented(p, -1);
    put_indented(&p, p.prefix, "[%zu]: ", t->index);
  }
}

static int show_secrets(const pp *p) {
  return (p->st->flags & MP_RENDER_SHOW_SECRETS) != 0;
}

/* What Pulumi leaves out of a diff as uninteresting: nothing, "", [] and
 * {}. */
static int printable(const mp_value *v) {
  if (!v || v->kind == MP_VALUE_NULL)
    return 0;
  if (v->kind == MP_VALUE_STRING)
    return v->u.str.len > 0;
  if (v->kind == MP_VALUE_ARRAY)
    return v->u.arr.len > 0;
  if (v->kind == MP_VALUE_OBJECT)
    return v->u.obj.len > 0;
  return 1;
}

static int primitive(const mp_value *v) {
  return !v || v->kind == MP_VALUE_NULL || v->kind == MP_VALUE_BOOL ||
         v->kind == MP_VALUE_NUMBER || v->kind == MP_VALUE_STRING ||
         v->kind == MP_VALUE_UNKNOWN || v->kind == MP_VALUE_SECRET ||
         v->kind == MP_VALUE_OUTPUT;
}

static void print_object(pp p, const mp_value *obj);

static void value_text(pp p, const mp_value *v) {
  if (v && v->kind == MP_VALUE_SECRET && show_secrets(&p)) {
    value_text(p, v->u.secret);
    return;
  }
  if (v && v->kind == MP_VALUE_OUTPUT && v->u.output.value &&
      (!v->u.output.secret || show_secrets(&p))) {
    value_text(p, v->u.output.value);
    return;
  }
  if (v && v->kind == MP_VALUE_ARRAY && v->u.arr.len) {
    verbatim(&p, "[\n");
    for (size_t i = 0; i < v->u.arr.len; i++) {
      put_indented(&p, p.prefix, "    [%zu]: ", i);
      value_text(indented(p, 1), v->u.arr.items[i]);
      verbatim(&p, "\n");
    }
    put_indented(&p, 0, "]");
    return;
  }
  if (v && v->kind == MP_VALUE_OBJECT && v->u.obj.len) {
    verbatim(&p, "{\n");
    print_object(indented(p, 1), v);
    put_indented(&p, 0, "}");
    return;
  }
  mp_buf b;
  mp_buf_init(&b);
  mp_cli_render_value(v, p.st->flags, 0, &b);
  verbatim(&p, b.data ? b.data : "");
  mp_buf_destroy(&b);
}

static void print_value(pp p, const mp_value *v) {
  value_text(p, v);
  verbatim(&p, "\n");
}

static int internal(const char *key) { return !strncmp(key, "__", 2); }

static void print_object(pp p, const mp_value *obj) {
  int align = 0;
  for (size_t i = 0; i < obj->u.obj.len; i++)
    if ((int)strlen(obj->u.obj.items[i].key) > align)
      align = (int)strlen(obj->u.obj.items[i].key);
  for (size_t i = 0; i < obj->u.obj.len; i++) {
    const mp_value_entry *e = &obj->u.obj.items[i];
    if (internal(e->key))
      continue;
    title t = {.key = e->key, .align = align};
    put_title(p, &t);
    print_value(p, e->value);
  }
}

static void print_add(pp p, const mp_value *v, const title *t) {
  p = with_op(p, MP_OP_CREATE, 1);
  put_title(p, t);
  print_value(p, v);
}

static void print_delete(pp p, const mp_value *v, const title *t) {
  p = with_op(p, MP_OP_DELETE, 1);
  put_title(p, t);
  print_value(p, v);
}

static void print_object_diff(pp p, const mp_pdiff *d, const mp_strv *include);

static void print_value_diff(pp p, const title *t, const mp_pdiff *d) {
  p = with_op(p, MP_OP_UPDATE, 1);
  if (d->container == 'a') {
    put_title(p, t);
    verbatim(&p, "[\n");
    for (size_t i = 0; i < d->len; i++) {
      const mp_pdiff *e = d->items[i].d;
      pp q = indented(p, 2);
      title ti = {.index = d->items[i].index};
      if (e->kind == MP_PDIFF_ADD)
        print_add(q, e->new_, &ti);
      else if (e->kind == MP_PDIFF_DELETE)
        print_delete(q, e->old, &ti);
      else if (e->kind == MP_PDIFF_UPDATE)
        print_value_diff(q, &ti, e);
      else {
        q = with_op(q, MP_OP_SAME, 0);
        put_title(q, &ti);
        print_value(q, e->old);
      }
    }
    put_indented(&p, 0, "]\n");
    return;
  }
  if (d->container == 'o') {
    put_title(p, t);
    verbatim(&p, "{\n");
    print_object_diff(indented(p, 1), d, NULL);
    put_indented(&p, 0, "}\n");
    return;
  }
  int po = printable(d->old), pn = printable(d->new_);
  if (po && pn && primitive(d->old) && primitive(d->new_)) {
    put_title(p, t);
    value_text(with_op(p, MP_OP_DELETE, 1), d->old);
    verbatim(&p, " => ");
    value_text(with_op(p, MP_OP_CREATE, 1), d->new_);
    verbatim(&p, "\n");
    return;
  }
  /* of different kinds, or one side empty: a removal and an addition */
  if (po)
    print_delete(p, d->old, t);
  if (pn)
    print_add(p, d->new_, t);
}

static void print_property_diff(pp p, const char *key, int align,
                                const mp_pdiff *sub) {
  title t = {.key = key, .align = align};
  if (sub->kind == MP_PDIFF_ADD)
    print_add(p, sub->new_, &t);
  else if (sub->kind == MP_PDIFF_DELETE)
    print_delete(p, sub->old, &t);
  else if (sub->kind == MP_PDIFF_UPDATE)
    print_value_diff(p, &t, sub);
  else if (printable(sub->old)) {
    p = with_op(p, MP_OP_SAME, 0);
    put_title(p, &t);
    print_value(p, sub->old);
  }
}

static int included(const mp_strv *include, const char *key) {
  return !include || !include->len || mp_strv_contains(include, key);
}

static void print_object_diff(pp p, const mp_pdiff *d, const mp_strv *include) {
  int align = 0;
  for (size_t i = 0; i < d->len; i++)
    if (included(include, d->items[i].key) &&
        (int)strlen(d->items[i].key) > align)
      align = (int)strlen(d->items[i].key);
  for (size_t i = 0; i < d->len; i++)
    if (included(include, d->items[i].key))
      print_property_diff(p, d->items[i].key, align, d->items[i].d);
}

void mp_pdiff_print_object(const mp_pdiff *d, const mp_strv *include,
                           int indent, const mp_pdiff_style *st, mp_buf *out) {
  pp p = {
      .st = st, .out = out, .indent = indent, .op = MP_OP_SAME, .prefix = 1};
  print_object_diff(p, d, include);
}

int mp_pdiff_print_property(const mp_pdiff *d, const char *key, int align,
                            int indent, const mp_pdiff_style *st, mp_buf *out) {
  pp p = {.st = st, .out = out, .indent = indent, .op = MP_OP_SAME};
  for (size_t i = 0; d && i < d->len; i++)
    if (!strcmp(d->items[i].key, key)) {
      print_property_diff(p, key, align, d->items[i].d);
      return 1;
    }
  return 0;
}

void mp_pdiff_print_plain(const mp_value *obj, mp_step_op op, int prefix,
                          int indent, const mp_pdiff_style *st, mp_buf *out) {
  pp p = {.st = st, .out = out, .indent = indent, .op = op, .prefix = prefix};
  if (obj && obj->kind == MP_VALUE_OBJECT)
    print_object(p, obj);
}
