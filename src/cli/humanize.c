/* Times and sizes in the words Pulumi's CLI prints them with (the
 * go-humanize package): "3 minutes ago", "4.2 MB" (cli/render.h). */
#include <math.h>
#include <stdio.h>

#include "cli/render.h"

/* How long ago |t| was, in the words Pulumi's history uses ("now",
 * "1 second ago", "2 minutes ago", ... "a long while ago"). */
void mp_cli_ago(time_t t, time_t now, char *buf, size_t n) {
  static const struct {
    double below;    /* seconds */
    const char *one; /* NULL: use |unit| with the count */
    const char *unit;
    double per;
  } steps[] = {
      {1, "now", NULL, 1},
      {2, "1 second ago", NULL, 1},
      {60, NULL, "seconds", 1},
      {120, "1 minute ago", NULL, 1},
      {3600, NULL, "minutes", 60},
      {7200, "1 hour ago", NULL, 1},
      {86400, NULL, "hours", 3600},
      {172800, "1 day ago", NULL, 1},
      {604800, NULL, "days", 86400},
      {1209600, "1 week ago", NULL, 1},
      {2592000, NULL, "weeks", 604800},
      {5184000, "1 month ago", NULL, 1},
      {31536000, NULL, "months", 2592000},
      {47304000, "1 year ago", NULL, 1},
      {63072000, "2 years ago", NULL, 1},
      {1166832000, NULL, "years", 31536000},
  };
  double d = difftime(now, t);
  if (d < 0)
    d = 0;
  for (size_t i = 0; i < MP_ARRAY_LEN(steps); i++) {
    if (d >= steps[i].below)
      continue;
    if (steps[i].one)
      snprintf(buf, n, "%s", steps[i].one);
    else
      snprintf(buf, n, "%lld %s ago", (long long)(d / steps[i].per),
               steps[i].unit);
    return;
  }
  snprintf(buf, n, "a long while ago");
}

void mp_cli_bytes(uint64_t size, char *buf, size_t n) {
  static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  if (size < 10) {
    snprintf(buf, n, "%llu B", (unsigned long long)size);
    return;
  }
  int e = (int)floor(log((double)size) / log(1000.0));
  if (e > 6)
    e = 6;
  double val = floor((double)size / pow(1000.0, e) * 10 + 0.5) / 10;
  snprintf(buf, n, val < 10 ? "%.1f %s" : "%.0f %s", val, units[e]);
}
