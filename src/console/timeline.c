/* An update's timeline as SVG, drawn on the server (pages.h,
 * mp_svg_timeline): a row per step, its bar from the step's start to its
 * end (a running one to the last event), its colour the operation's (a
 * fixed table: no value from the stack is ever a colour or a class), a
 * time axis, and the longest chain's bars outlined and listed. Names are
 * escaped as any text (mp_html_put: SVG is XML). */
#include <stdio.h>
#include <string.h>

#include "console/html.h"
#include "console/pages.h"

enum { LABEL_W = 260, PLOT_W = 640, ROW_H = 18, TOP = 24, NAME_MAX = 36 };

static const char *colour_of(const char *op) {
  static const struct { const char *op, *fill; } table[] = {
      {"create", "#2da44e"},         {"update", "#d4a72c"},
      {"delete", "#cf222e"},         {"replace", "#8250df"},
      {"create-replacement", "#8250df"}, {"delete-replaced", "#a475f9"},
      {"read", "#0969da"},           {"refresh", "#54aeff"},
      {"import", "#1b7c83"},         {"discard", "#e16f24"},
      {"same", "#afb8c1"}};
  for (size_t i = 0; op && i < MP_ARRAY_LEN(table); i++)
    if (!strcmp(op, table[i].op)) return table[i].fill;
  return "#6e7781";
}

static double num(const cJSON *o, const char *key, double dflt) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* A step's name cut to NAME_MAX bytes (at a UTF-8 boundary), escaped. */
static void put_name(mp_buf *b, const char *name) {
  size_t n = strlen(name);
  if (n <= NAME_MAX) {
    mp_html_put(b, name);
    return;
  }
  size_t cut = NAME_MAX;
  while (cut > 0 && ((unsigned char)name[cut] & 0xC0) == 0x80) cut--;
  char short_name[NAME_MAX + 1];
  memcpy(short_name, name, cut);
  short_name[cut] = '\0';
  mp_html_put(b, short_name);
  mp_buf_puts(b, "\xE2\x80\xA6");
}

/* A step of about a tenth of the span, rounded to 1, 2 or 5 times a power
 * of ten milliseconds. */
static double tick_of(double span) {
  double t = 1;
  while (t * 10 < span) t *= 10;
  if (t * 5 <= span / 2) return t * 5;
  if (t * 2 <= span / 2) return t * 2;
  return t;
}

void mp_svg_timeline(mp_buf *b, const cJSON *update) {
  const cJSON *steps = cJSON_GetObjectItemCaseSensitive(update, "steps");
  int n = cJSON_GetArraySize(steps);
  double t0 = num(update, "firstEventMs", 0);
  double t1 = num(update, "lastEventMs", t0);
  if (t1 - t0 < 1) t1 = t0 + 1;
  double span = t1 - t0;
  int height = TOP + ROW_H * (n > 0 ? n : 1) + 8;
  mp_buf_printf(b,
                "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
                "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                "role=\"img\" aria-label=\"timeline\" data-t0=\"%.0f\" "
                "data-t1=\"%.0f\">",
                LABEL_W + PLOT_W + 10, height, LABEL_W + PLOT_W + 10, height,
                t0, t1);
  /* the axis */
  double tick = tick_of(span);
  /* enough decimals that the ticks of a short update differ */
  int digits = tick >= 1000 ? 0 : tick >= 100 ? 1 : tick >= 10 ? 2 : 3;
  for (double t = 0; t <= span + 0.5; t += tick) {
    double x = LABEL_W + t / span * PLOT_W;
    mp_buf_printf(b,
                  "<line class=\"tick\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
                  "y2=\"%d\" stroke=\"#d0d7de\"/>"
                  "<text class=\"axis\" x=\"%.1f\" y=\"14\" font-size=\"11\" "
                  "fill=\"#57606a\">%.*fs</text>",
                  x, TOP - 4, x, height, x + 2, digits, t / 1000.0);
  }
  int row = 0;
  const cJSON *s;
  cJSON_ArrayForEach(s, steps) {
    double start = num(s, "startMs", t0), end = num(s, "endMs", t1);
    double x = LABEL_W + (start - t0) / span * PLOT_W;
    double w = (end - start) / span * PLOT_W;
    if (w < 2) w = 2;
    int y = TOP + row * ROW_H;
    const char *op = mp_json_str(s, "op");
    const char *status = mp_json_str(s, "status");
    int critical = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "critical"));
    mp_buf_printf(b, "<g class=\"step\" data-index=\"%d\">", row);
    mp_buf_printf(b, "<text x=\"4\" y=\"%d\" font-size=\"12\">", y + 13);
    put_name(b, mp_json_str(s, "name") ? mp_json_str(s, "name") : "");
    mp_buf_puts(b, "</text>");
    mp_buf_printf(b,
                  "<rect class=\"bar%s%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                  "height=\"%d\" fill=\"%s\"%s>",
                  critical ? " critical" : "",
                  status && !strcmp(status, "running") ? " running" : "",
                  x, y + 3, w, ROW_H - 6, colour_of(op),
                  critical ? " stroke=\"#1f2328\" stroke-width=\"2\"" : "");
    mp_buf_puts(b, "<title>");
    mp_html_put(b, op ? op : "");
    mp_buf_puts(b, " ");
    mp_html_put(b, mp_json_str(s, "urn") ? mp_json_str(s, "urn") : "");
    mp_buf_printf(b, " (%.3fs%s)</title></rect></g>", (end - start) / 1000.0,
                  status && !strcmp(status, "running") ? ", running" : "");
    row++;
  }
  mp_buf_puts(b, "</svg>");
}
