/* RandomPet of the `random` package: names shaped like the real
 * provider's (length 1: name; 2: adjective-name; n >= 3: n-2 adverbs, an
 * adjective and a name), joined by `separator` and led by `prefix`. The
 * word lists are our own, smaller than the real provider's. */
#include "providers/random_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 64

static const char *const adverbs[] = {
    "abnormally", "actually", "badly",   "boldly",  "briefly",  "calmly",
    "carefully",  "cheaply",  "cleanly", "closely", "deeply",   "eagerly",
    "easily",     "evenly",   "fairly",  "firmly",  "freely",   "gently",
    "gladly",     "greatly",  "happily", "highly",  "honestly", "jointly",
    "kindly",     "largely",  "lightly", "loudly",  "mainly",   "merely",
    "mildly",     "neatly",   "newly",   "nicely",  "openly",   "partly",
    "politely",   "promptly", "quickly", "quietly", "rapidly",  "rarely",
    "really",     "safely",   "sharply", "simply",  "slowly",   "smoothly",
    "strongly",   "subtly",   "surely",  "swiftly", "truly",    "vastly",
    "warmly",     "wildly",   "wisely",  "yearly"};

static const char *const adjectives[] = {
    "able",    "active", "amazing", "ample",   "awake",   "bold",     "brave",
    "bright",  "busy",   "calm",    "capital", "careful", "champion", "charmed",
    "clean",   "clever", "cool",    "cosmic",  "crisp",   "curious",  "daring",
    "driven",  "eager",  "epic",    "fair",    "famous",  "fancy",    "fast",
    "fine",    "fit",    "fleet",   "fluent",  "frank",   "free",     "fresh",
    "gentle",  "glad",   "golden",  "grand",   "great",   "happy",    "hardy",
    "helped",  "honest", "humble",  "ideal",   "jolly",   "keen",     "kind",
    "lasting", "lively", "loyal",   "lucky",   "merry",   "mighty",   "modest",
    "moved",   "neat",   "noble",   "open",    "patient", "polite",   "proud",
    "quick",   "quiet",  "rapid",   "ready",   "regal",   "rested",   "robust",
    "safe",    "sharp",  "smart",   "solid",   "steady",  "sunny",    "superb",
    "sure",    "swift",  "tender",  "tidy",    "tough",   "true",     "upward",
    "valid",   "vital",  "warm",    "wise",    "witty",   "zesty"};

static const char *const names[] = {
    "aardvark", "alpaca",   "ant",      "antelope", "badger",  "bass",
    "bat",      "bear",     "beaver",   "bee",      "beetle",  "bison",
    "boar",     "bobcat",   "buck",     "bull",     "camel",   "cat",
    "cattle",   "chicken",  "chipmunk", "cicada",   "clam",    "cobra",
    "cod",      "colt",     "condor",   "coral",    "cougar",  "cow",
    "crab",     "crane",    "cricket",  "crow",     "deer",    "dingo",
    "dodo",     "dog",      "dolphin",  "donkey",   "dove",    "duck",
    "eagle",    "eel",      "elk",      "emu",      "falcon",  "ferret",
    "finch",    "fish",     "flamingo", "fox",      "frog",    "gannet",
    "gar",      "gazelle",  "gecko",    "gnu",      "goat",    "goose",
    "gopher",   "grouse",   "gull",     "hare",     "hawk",    "hen",
    "heron",    "hog",      "horse",    "hound",    "ibex",    "ibis",
    "impala",   "jackal",   "jaguar",   "jay",      "kid",     "kit",
    "kite",     "koala",    "lamb",     "lark",     "lemur",   "lion",
    "lizard",   "llama",    "lobster",  "lynx",     "macaw",   "mako",
    "mammoth",  "marlin",   "marmot",   "mink",     "mole",    "moose",
    "moth",     "mouse",    "mule",     "newt",     "ocelot",  "octopus",
    "orca",     "oriole",   "osprey",   "otter",    "owl",     "ox",
    "oyster",   "panda",    "panther",  "parrot",   "pelican", "penguin",
    "pheasant", "pig",      "pigeon",   "pony",     "possum",  "puma",
    "quail",    "rabbit",   "raccoon",  "ram",      "raven",   "reindeer",
    "robin",    "salmon",   "seal",     "shark",    "sheep",   "shrew",
    "skunk",    "sloth",    "snail",    "snake",    "sparrow", "squid",
    "stag",     "starling", "stork",    "swan",     "tahr",    "tapir",
    "termite",  "tiger",    "toad",     "trout",    "tuna",    "turkey",
    "turtle",   "viper",    "vulture",  "walrus",   "wasp",    "weasel",
    "whale",    "wolf",     "wombat",   "wren",     "yak",     "zebra"};

int mp__random_check_pet(const mp_value *news, mp_value *out, mp_prov_resp *r) {
  int64_t len = 2;
  const char *s;
  mp__prov_field f = mp__prov_int(news, "length", &len, r);
  if (f == MP_PROV_FIELD_MISSING)
    mp_value_object_set(out, "length", mp_value_new_number(2));
  else if (f == MP_PROV_FIELD_OK && (len < 1 || len > MAX_WORDS))
    mp_prov_resp_add_failure(r, "length", "must be between 1 and 64");
  f = mp__prov_str(news, "separator", &s, r);
  if (f == MP_PROV_FIELD_MISSING)
    mp_value_object_set(out, "separator", mp_value_new_cstring("-"));
  (void)mp__prov_str(news, "prefix", &s, r);
  /* The pet name is the id, and an id is never secret: a secret spelled
   * into it would come out in plaintext. */
  static const char *const spelled[] = {"prefix", "separator"};
  for (size_t i = 0; i < MP_ARRAY_LEN(spelled); i++) {
    const mp_value *v = news && news->kind == MP_VALUE_OBJECT
                            ? mp_value_object_get(news, spelled[i])
                            : NULL;
    if (mp_value_contains_secrets(v))
      mp_prov_resp_add_failure(r, spelled[i],
                               "cannot be secret: it is spelled into the "
                               "pet name, which is the resource's id and "
                               "never secret");
  }
  return 0;
}

/* Appends a random word of |list|, after |sep| unless it is the first. */
static int word(const char *const *list, size_t n, mp_buf *b, const char *sep,
                int *first, mp_err *err) {
  uint64_t k;
  int rc = mp__prov_random_below(n, &k, err);
  if (rc < 0)
    return rc;
  if (!*first)
    mp_buf_puts(b, sep);
  *first = 0;
  mp_buf_puts(b, list[k]);
  return 0;
}

int mp__random_gen_pet(const mp_value *in, const char *type, mp_value *outputs,
                       char **id, mp_err *err) {
  mp_prov_resp tmp;
  int64_t len = 2, i;
  const char *sep = "-", *prefix = NULL;
  mp_buf b;
  int rc, first = 1;
  mp_prov_resp_init(&tmp);
  (void)mp__random_check_pet(in, outputs, &tmp);
  (void)mp__prov_int(in, "length", &len, &tmp);
  (void)mp__prov_str(in, "separator", &sep, &tmp);
  (void)mp__prov_str(in, "prefix", &prefix, &tmp);
  rc = mp__prov_failures_to_err(&tmp, type, err);
  mp_prov_resp_destroy(&tmp);
  if (rc < 0)
    return rc;
  mp_buf_init(&b);
  if (prefix != NULL && *prefix != '\0') {
    mp_buf_puts(&b, prefix);
    first = 0;
  }
  for (i = 0; rc == 0 && i < len - 2; i++)
    rc = word(adverbs, MP_ARRAY_LEN(adverbs), &b, sep, &first, err);
  if (rc == 0 && len >= 2)
    rc = word(adjectives, MP_ARRAY_LEN(adjectives), &b, sep, &first, err);
  if (rc == 0)
    rc = word(names, MP_ARRAY_LEN(names), &b, sep, &first, err);
  if (rc < 0) {
    mp_buf_destroy(&b);
    return rc;
  }
  *id = mp_buf_detach(&b, NULL);
  return 0;
}
