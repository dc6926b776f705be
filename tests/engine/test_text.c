/* Tests of src/engine/text.c: UTF-8 validation and byte positions. */
#include "engine/text.h"

#include <string.h>

#include "testutil.h"

static size_t bad(const char *s) { return mp_utf8_invalid_at(s, strlen(s)); }

static void test_text_utf8_valid(void) {
  CHECK(bad("") == 0);
  CHECK(bad("plain ascii") == 11);
  CHECK(bad("caf\xc3\xa9") == 5);                 /* 2 bytes */
  CHECK(bad("\xe2\x82\xac") == 3);                /* U+20AC, 3 bytes */
  CHECK(bad("\xf0\x9f\x90\x88") == 4);            /* U+1F408, 4 bytes */
  CHECK(bad("\xef\xbf\xbf\xf4\x8f\xbf\xbf") == 7); /* U+FFFF, U+10FFFF */
  CHECK(mp_utf8_invalid_at("a\0b", 3) == 3);      /* NUL is valid UTF-8 */
}

static void test_text_utf8_invalid(void) {
  CHECK(bad("ab\xff") == 2);               /* never a UTF-8 byte */
  CHECK(bad("\x80") == 0);                 /* lone continuation */
  CHECK(bad("\xc0\xaf") == 0);             /* overlong '/' */
  CHECK(bad("\xc1\xbf") == 0);             /* overlong */
  CHECK(bad("\xe0\x80\xaf") == 0);         /* overlong 3 bytes */
  CHECK(bad("\xf0\x80\x80\xaf") == 0);     /* overlong 4 bytes */
  CHECK(bad("x\xed\xa0\x80") == 1);        /* surrogate U+D800 */
  CHECK(bad("\xf4\x90\x80\x80") == 0);     /* above U+10FFFF */
  CHECK(bad("\xf5\x80\x80\x80") == 0);
  CHECK(bad("ok\xc3") == 2);               /* truncated at the end */
  CHECK(bad("ok\xe2\x82") == 2);
  CHECK(bad("\xe2\x28\xa1") == 0);         /* bad continuation */
}

static void test_text_position(void) {
  const char *t = "ab\ncd\xc3\xa9x\n\nz";
  int line, col;
  mp_text_position(t, strlen(t), 0, &line, &col);
  CHECK(line == 1 && col == 1);
  mp_text_position(t, strlen(t), 2, &line, &col);
  CHECK(line == 1 && col == 3);
  mp_text_position(t, strlen(t), 3, &line, &col);
  CHECK(line == 2 && col == 1);
  mp_text_position(t, strlen(t), 7, &line, &col); /* 'x' after é */
  CHECK(line == 2 && col == 4);
  mp_text_position(t, strlen(t), 10, &line, &col);
  CHECK(line == 4 && col == 1);
  mp_text_position(t, strlen(t), 1000, &line, &col); /* clamped */
  CHECK(line == 4 && col == 2);
}

int main(void) {
  RUN(test_text_utf8_valid);
  RUN(test_text_utf8_invalid);
  RUN(test_text_position);
  return mp_test_summary();
}
