/* A release server's JSON answer to a plugin download
 * (plugin/release_json.c, as download.c handles it): decoded, then the
 * asset of the plugin looked for and the latest release's tag read as a
 * version. A version read formats to text that parses to the same
 * version. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "plugin/release_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *body = fuzz_cstring(data, size);
  mp_value *doc = NULL;
  mp_err err;
  if (mp_release_json_decode(body, size, "github", &doc, &err) == 0) {
    char *url = NULL;
    if (mp_release_json_asset(
            doc, "pulumi-resource-random-v4.16.0-linux-amd64.tar.gz", &url,
            &err) == 0)
      FUZZ_CHECK(url != NULL, "an asset found has no URL");
    free(url);
    mp_semver v, again;
    if (mp_release_json_tag(doc, &v, &err) == 0) {
      char *text = mp_semver_format(&v);
      FUZZ_CHECK(mp_semver_parse(text, &again, &err) == 0,
                 "a version read does not parse once formatted");
      FUZZ_CHECK(mp_semver_cmp(&v, &again) == 0 && !strcmp(v.build, again.build),
                 "a version changed on a round trip");
      free(text);
    }
  }
  mp_value_free(doc);
  free(body);
  return 0;
}
