/* The file:// backend folder of the DIY targets (fuzz_diy.h). */
#define _XOPEN_SOURCE 700
#include "fuzz_diy.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"

const mp_stack_ref fuzz_diy_stack = {"proj", "dev"};

static char *root;

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path) == 0 ? 0 : -1;
}

static void mkdirs_for(const char *path) {
  char *p = mp_xstrdup(path);
  for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    mkdir(p, 0700);
    *s = '/';
  }
  free(p);
}

const char *fuzz_diy_reset(void) {
  if (root == NULL) root = mp_xasprintf("%s/diy", fuzz_dir());
  if (access(root, F_OK) == 0)
    FUZZ_CHECK(nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0,
               "cannot empty the backend folder");
  static const char meta[] = "version: 1\n";
  fuzz_diy_put(".pulumi/meta.yaml", (const uint8_t *)meta, strlen(meta));
  return root;
}

void fuzz_diy_put(const char *rel, const uint8_t *data, size_t size) {
  char *path = mp_xasprintf("%s/%s", root, rel);
  mkdirs_for(path);
  FILE *f = fopen(path, "wb");
  FUZZ_CHECK(f != NULL, "cannot create a backend file");
  FUZZ_CHECK(fwrite(data, 1, size, f) == size, "cannot write a backend file");
  fclose(f);
  free(path);
}

void fuzz_diy_put_empty_stack(void) {
  static const char empty[] =
      "{\"version\":3,\"checkpoint\":{\"stack\":\"organization/proj/dev\","
      "\"latest\":{\"manifest\":{\"time\":\"2026-01-01T00:00:00Z\","
      "\"magic\":\"\",\"version\":\"\"},\"metadata\":{}}}}";
  fuzz_diy_put(".pulumi/stacks/proj/dev.json", (const uint8_t *)empty,
               strlen(empty));
}

mp_store *fuzz_diy_open(void) {
  char *url = mp_xasprintf("file://%s", root);
  mp_store *s = NULL;
  mp_err err;
  if (mp_store_open(url, &s, &err) != 0)
    fprintf(stderr, "cannot open %s: %s\n", url, err.msg);
  FUZZ_CHECK(s != NULL, "the backend folder does not open");
  free(url);
  return s;
}
