/* Counting the user-perceived characters (extended grapheme clusters,
 * Unicode UAX #29) of a UTF-8 string, as fn::length does in Pulumi YAML.
 * The property tables are the ranges that matter in practice (combining
 * marks, variation selectors, emoji modifiers and tags, Indic spacing
 * marks, pictographs, regional indicators, Hangul jamo), not the whole
 * Unicode database. */
#include "lang/lang_int.h"

#include <stdint.h>

typedef enum gb_class {
  GB_OTHER,
  GB_CR,
  GB_LF,
  GB_CONTROL,
  GB_EXTEND,
  GB_ZWJ,
  GB_SPACING,
  GB_RI,
  GB_L,
  GB_V,
  GB_T,
  GB_LV,
  GB_LVT,
  GB_PICT
} gb_class;

typedef struct range {
  uint32_t lo, hi;
} range;

static const range extend[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
    {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4},
    {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x0900, 0x0902}, {0x093A, 0x093A},
    {0x093C, 0x093C}, {0x0941, 0x0948}, {0x094D, 0x094D}, {0x0951, 0x0957},
    {0x0962, 0x0963}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200C, 0x200C}, {0x20D0, 0x20FF},
    {0x302A, 0x302F}, {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
    {0x1F3FB, 0x1F3FF}, {0xE0020, 0xE007F}, {0xE0100, 0xE01EF}};
static const range spacing[] = {{0x0903, 0x0903}, {0x093B, 0x093B},
                                {0x093E, 0x0940}, {0x0949, 0x094C},
                                {0x094E, 0x094F}, {0x0E33, 0x0E33}};
static const range pict[] = {
    {0x00A9, 0x00A9}, {0x00AE, 0x00AE}, {0x203C, 0x203C}, {0x2049, 0x2049},
    {0x2122, 0x2122}, {0x2139, 0x2139}, {0x2194, 0x2199}, {0x21A9, 0x21AA},
    {0x231A, 0x231B}, {0x2328, 0x2328}, {0x23CF, 0x23CF}, {0x23E9, 0x23F3},
    {0x23F8, 0x23FA}, {0x24C2, 0x24C2}, {0x25AA, 0x25AB}, {0x25B6, 0x25B6},
    {0x25C0, 0x25C0}, {0x25FB, 0x25FE}, {0x2600, 0x27BF}, {0x2934, 0x2935},
    {0x2B05, 0x2B07}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
    {0x3030, 0x3030}, {0x303D, 0x303D}, {0x3297, 0x3297}, {0x3299, 0x3299},
    {0x1F000, 0x1F1E5}, {0x1F200, 0x1F3FA}, {0x1F400, 0x1FAFF},
    {0x1FC00, 0x1FFFD}};

static int in(const range *r, size_t n, uint32_t c) {
  for (size_t i = 0; i < n; i++)
    if (c >= r[i].lo && c <= r[i].hi)
      return 1;
  return 0;
}

static gb_class classify(uint32_t c) {
  if (c == '\r') return GB_CR;
  if (c == '\n') return GB_LF;
  if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029)
    return GB_CONTROL;
  if (c == 0x200D) return GB_ZWJ;
  if (c >= 0x1F1E6 && c <= 0x1F1FF) return GB_RI;
  if ((c >= 0x1100 && c <= 0x115F) || (c >= 0xA960 && c <= 0xA97C))
    return GB_L;
  if ((c >= 0x1160 && c <= 0x11A7) || (c >= 0xD7B0 && c <= 0xD7C6))
    return GB_V;
  if ((c >= 0x11A8 && c <= 0x11FF) || (c >= 0xD7CB && c <= 0xD7FB))
    return GB_T;
  if (c >= 0xAC00 && c <= 0xD7A3)
    return (c - 0xAC00) % 28 == 0 ? GB_LV : GB_LVT;
  if (in(extend, MP_ARRAY_LEN(extend), c)) return GB_EXTEND;
  if (in(spacing, MP_ARRAY_LEN(spacing), c)) return GB_SPACING;
  if (in(pict, MP_ARRAY_LEN(pict), c)) return GB_PICT;
  return GB_OTHER;
}

/* Decodes one code point of valid UTF-8 at |s| (|n| > 0 bytes left);
 * returns its length. A stray byte counts as one code point. */
static size_t decode(const unsigned char *s, size_t n, uint32_t *c) {
  size_t len = s[0] < 0x80 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
  if (s[0] >= 0x80 && s[0] < 0xC0) len = 1;
  if (len > n) len = 1;
  if (len == 1) {
    *c = s[0];
    return 1;
  }
  uint32_t v = s[0] & (0x3F >> (len - 1));
  for (size_t i = 1; i < len; i++)
    v = (v << 6) | (s[i] & 0x3F);
  *c = v;
  return len;
}

/* UAX #29 rules GB3 to GB13 (GB9b, Prepend, is not applied). |pict_zwj|:
 * the cluster so far is a pictograph, Extends and a ZWJ; |ri_odd|: an odd
 * number of regional indicators ends it. */
static int breaks(gb_class a, gb_class b, int pict_zwj, int ri_odd) {
  if (a == GB_CR && b == GB_LF) return 0;
  if (a == GB_CR || a == GB_LF || a == GB_CONTROL) return 1;
  if (b == GB_CR || b == GB_LF || b == GB_CONTROL) return 1;
  if (a == GB_L && (b == GB_L || b == GB_V || b == GB_LV || b == GB_LVT))
    return 0;
  if ((a == GB_LV || a == GB_V) && (b == GB_V || b == GB_T)) return 0;
  if ((a == GB_LVT || a == GB_T) && b == GB_T) return 0;
  if (b == GB_EXTEND || b == GB_ZWJ || b == GB_SPACING) return 0;
  if (a == GB_ZWJ && b == GB_PICT && pict_zwj) return 0;
  if (a == GB_RI && b == GB_RI && ri_odd) return 0;
  return 1;
}

size_t mp__grapheme_count(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t count = 0, i = 0;
  gb_class prev = GB_OTHER;
  int in_pict = 0, pict_zwj = 0, ri_run = 0;
  while (i < n) {
    uint32_t c;
    i += decode(p + i, n - i, &c);
    gb_class k = classify(c);
    if (count == 0 || breaks(prev, k, pict_zwj, ri_run % 2 == 1)) {
      count++;
      in_pict = pict_zwj = ri_run = 0;
    }
    /* The state GB11 and GB12/13 look back on. */
    if (k == GB_PICT) in_pict = 1, pict_zwj = 0;
    else if (k == GB_ZWJ) pict_zwj = in_pict;
    else if (k != GB_EXTEND) in_pict = pict_zwj = 0;
    ri_run = k == GB_RI ? ri_run + 1 : 0;
    prev = k;
  }
  return count;
}
