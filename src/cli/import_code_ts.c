/* TypeScript for imported resources (import_code_ts.h). Names follow
 * Pulumi's Node.js code generator: the package `random` is imported as
 * `random` from "@pulumi/random"; a type token pkg:module/member:Type
 * becomes pkg.module.Type (pkg.Type for the `index` module); a resource's
 * variable is its name in camelCase. Values are JavaScript literals. */
#include "cli/import_code_ts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* camelCase of |s| as an identifier: other characters split words; a
 * leading digit gets an underscore before it. */
static void identifier(const char *s, size_t len, int upper_first, mp_buf *out) {
  int up = upper_first, first = 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!isalnum(c) && c != '_') {
      up = !first;
      continue;
    }
    if (first && isdigit(c)) mp_buf_putc(out, '_');
    mp_buf_putc(out, (char)(up ? toupper(c) : first && !upper_first ? tolower(c) : c));
    up = 0;
    first = 0;
  }
  if (first) mp_buf_puts(out, "resource");
}

/* The package part of a type token ("random" of random:index/...). */
static size_t package_len(const char *type) {
  const char *c = strchr(type, ':');
  return c ? (size_t)(c - type) : strlen(type);
}

/* pkg.module.Type for |type|. */
static void type_expr(const char *type, mp_buf *out) {
  size_t pl = package_len(type);
  identifier(type, pl, 0, out);
  const char *mod = type[pl] ? type + pl + 1 : "";
  const char *colon = strchr(mod, ':');
  const char *member = colon ? colon + 1 : mod;
  size_t ml = colon ? (size_t)(colon - mod) : 0;
  const char *slash = memchr(mod, '/', ml);
  if (slash) ml = (size_t)(slash - mod);
  if (ml && !(ml == 5 && !strncmp(mod, "index", 5))) {
    mp_buf_putc(out, '.');
    identifier(mod, ml, 0, out);
  }
  mp_buf_putc(out, '.');
  identifier(member, strlen(member), 1, out);
}

static int plain_key(const char *k) {
  if (!*k || isdigit((unsigned char)*k)) return 0;
  for (const char *p = k; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_' && *p != '$') return 0;
  return 1;
}

static void indent(mp_buf *out, int n) {
  for (int i = 0; i < n; i++) mp_buf_puts(out, "    ");
}

static void string_literal(const char *s, size_t len, mp_buf *out) {
  mp_buf_putc(out, '"');
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      mp_buf_putc(out, '\\');
      mp_buf_putc(out, (char)c);
    } else if (c == '\n') {
      mp_buf_puts(out, "\\n");
    } else if (c < 0x20) {
      mp_buf_printf(out, "\\u%04x", c);
    } else {
      mp_buf_putc(out, (char)c);
    }
  }
  mp_buf_putc(out, '"');
}

static void literal(const mp_value *v, int depth, mp_buf *out) {
  switch (v ? v->kind : MP_VALUE_NULL) {
  case MP_VALUE_BOOL:
    mp_buf_puts(out, v->u.boolean ? "true" : "false");
    return;
  case MP_VALUE_NUMBER:
    mp_buf_printf(out, "%.17g", v->u.number);
    return;
  case MP_VALUE_STRING:
    string_literal(v->u.str.ptr, v->u.str.len, out);
    return;
  case MP_VALUE_ARRAY:
    mp_buf_putc(out, '[');
    for (size_t i = 0; i < v->u.arr.len; i++) {
      mp_buf_putc(out, '\n');
      indent(out, depth + 1);
      literal(v->u.arr.items[i], depth + 1, out);
      mp_buf_putc(out, ',');
    }
    if (v->u.arr.len) {
      mp_buf_putc(out, '\n');
      indent(out, depth);
    }
    mp_buf_putc(out, ']');
    return;
  case MP_VALUE_OBJECT:
    mp_buf_putc(out, '{');
    for (size_t i = 0; i < v->u.obj.len; i++) {
      const mp_value_entry *e = &v->u.obj.items[i];
      mp_buf_putc(out, '\n');
      indent(out, depth + 1);
      if (plain_key(e->key)) mp_buf_puts(out, e->key);
      else string_literal(e->key, e->key_len, out);
      mp_buf_puts(out, ": ");
      literal(e->value, depth + 1, out);
      mp_buf_putc(out, ',');
    }
    if (v->u.obj.len) {
      mp_buf_putc(out, '\n');
      indent(out, depth);
    }
    mp_buf_putc(out, '}');
    return;
  default: /* null, and what has no literal (assets, references) */
    mp_buf_puts(out, "undefined");
    return;
  }
}

void mp_import_code_ts(const mp_import_code_res *res, size_t n, int protect,
                       mp_buf *out) {
  mp_buf_puts(out, "import * as pulumi from \"@pulumi/pulumi\";\n");
  mp_strv pkgs;
  mp_strv_init(&pkgs);
  for (size_t i = 0; i < n; i++) {
    size_t pl = package_len(res[i].type);
    char *pkg = mp_xstrndup(res[i].type, pl);
    if (!mp_strv_contains(&pkgs, pkg) && strcmp(pkg, "pulumi") != 0) {
      mp_buf_puts(out, "import * as ");
      identifier(pkg, pl, 0, out);
      mp_buf_printf(out, " from \"@pulumi/%s\";\n", pkg);
      mp_strv_push(&pkgs, pkg);
    }
    free(pkg);
  }
  mp_strv_destroy(&pkgs);
  for (size_t i = 0; i < n; i++) {
    mp_buf_puts(out, "\nconst ");
    identifier(res[i].name, strlen(res[i].name), 0, out);
    mp_buf_puts(out, " = new ");
    type_expr(res[i].type, out);
    mp_buf_puts(out, "(");
    string_literal(res[i].name, strlen(res[i].name), out);
    const mp_value *p = res[i].props;
    if (p && p->kind == MP_VALUE_OBJECT && p->u.obj.len) {
      mp_buf_puts(out, ", ");
      literal(p, 0, out);
    } else if (protect) {
      mp_buf_puts(out, ", {}");
    }
    if (protect) mp_buf_puts(out, ", {\n    protect: true,\n}");
    mp_buf_puts(out, ");\n");
  }
}
