/* Tests for our pulumirpc .proto files: round trips through protobuf-c, and
 * hand-written wire bytes that pin the field numbers the Pulumi SDKs use
 * (docs/sdk-contract.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "google/protobuf/struct.pb-c.h"
#include "pulumi/alias.pb-c.h"
#include "pulumi/engine.pb-c.h"
#include "pulumi/provider.pb-c.h"
#include "pulumi/resource.pb-c.h"
#include "testutil.h"

/* Packs |msg| into a malloc'ed buffer; *len gets its size. */
static uint8_t *pack(const ProtobufCMessage *msg, size_t *len) {
  *len = protobuf_c_message_get_packed_size(msg);
  uint8_t *buf = malloc(*len ? *len : 1);
  size_t written = protobuf_c_message_pack(msg, buf);
  CHECK(written == *len);
  return buf;
}

/* True when buf[0..len) equals want[0..wlen); prints both on mismatch. */
static int bytes_equal(const uint8_t *buf, size_t len, const uint8_t *want,
                       size_t wlen) {
  if (len == wlen && memcmp(buf, want, len) == 0)
    return 1;
  fprintf(stderr, "  got: ");
  for (size_t i = 0; i < len; i++)
    fprintf(stderr, " %02x", buf[i]);
  fprintf(stderr, "\n  want:");
  for (size_t i = 0; i < wlen; i++)
    fprintf(stderr, " %02x", want[i]);
  fprintf(stderr, "\n");
  return 0;
}

/* The C string |s| as (borrowed) protobuf bytes. */
static ProtobufCBinaryData bytes(const char *s) {
  ProtobufCBinaryData b = {strlen(s), (uint8_t *)s};
  return b;
}

/* Finds the value of |key| in a Struct, or NULL. */
static const Google__Protobuf__Value *
struct_get(const Google__Protobuf__Struct *s, const char *key) {
  if (s == NULL)
    return NULL;
  for (size_t i = 0; i < s->n_fields; i++)
    if (s->fields[i]->key.len == strlen(key) &&
        memcmp(s->fields[i]->key.data, key, strlen(key)) == 0)
      return s->fields[i]->value;
  return NULL;
}

/* RegisterResourceRequest with a nested Struct object, both alias kinds,
 * property dependencies, custom timeouts and an explicit protect=false. */
static void test_register_resource_round_trip(void) {
  /* object = {name: "web", count: 3, tags: ["a", true], nested: {on: true}} */
  Google__Protobuf__Value v_name = GOOGLE__PROTOBUF__VALUE__INIT;
  v_name.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE;
  v_name.string_value = bytes("web");
  Google__Protobuf__Value v_count = GOOGLE__PROTOBUF__VALUE__INIT;
  v_count.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE;
  v_count.number_value = 3;
  Google__Protobuf__Value v_a = GOOGLE__PROTOBUF__VALUE__INIT;
  v_a.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE;
  v_a.string_value = bytes("a");
  Google__Protobuf__Value v_true = GOOGLE__PROTOBUF__VALUE__INIT;
  v_true.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE;
  v_true.bool_value = 1;
  Google__Protobuf__Value *items[] = {&v_a, &v_true};
  Google__Protobuf__ListValue list = GOOGLE__PROTOBUF__LIST_VALUE__INIT;
  list.n_values = 2;
  list.values = items;
  Google__Protobuf__Value v_tags = GOOGLE__PROTOBUF__VALUE__INIT;
  v_tags.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE;
  v_tags.list_value = &list;
  Google__Protobuf__Struct__FieldsEntry e_on =
      GOOGLE__PROTOBUF__STRUCT__FIELDS_ENTRY__INIT;
  e_on.key = bytes("on");
  e_on.value = &v_true;
  Google__Protobuf__Struct__FieldsEntry *inner_fields[] = {&e_on};
  Google__Protobuf__Struct inner = GOOGLE__PROTOBUF__STRUCT__INIT;
  inner.n_fields = 1;
  inner.fields = inner_fields;
  Google__Protobuf__Value v_nested = GOOGLE__PROTOBUF__VALUE__INIT;
  v_nested.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE;
  v_nested.struct_value = &inner;

  Google__Protobuf__Struct__FieldsEntry entries[4];
  Google__Protobuf__Struct__FieldsEntry *fields[4];
  const char *keys[] = {"name", "count", "tags", "nested"};
  Google__Protobuf__Value *vals[] = {&v_name, &v_count, &v_tags, &v_nested};
  for (int i = 0; i < 4; i++) {
    Google__Protobuf__Struct__FieldsEntry init =
        GOOGLE__PROTOBUF__STRUCT__FIELDS_ENTRY__INIT;
    entries[i] = init;
    entries[i].key = bytes(keys[i]);
    entries[i].value = vals[i];
    fields[i] = &entries[i];
  }
  Google__Protobuf__Struct object = GOOGLE__PROTOBUF__STRUCT__INIT;
  object.n_fields = 4;
  object.fields = fields;

  /* aliases: an old URN, and a spec "old name, had no parent" */
  Pulumirpc__Alias a_urn = PULUMIRPC__ALIAS__INIT;
  a_urn.alias_case = PULUMIRPC__ALIAS__ALIAS_URN;
  a_urn.urn = "urn:pulumi:dev::proj::t:m:T::old";
  Pulumirpc__Alias__Spec spec = PULUMIRPC__ALIAS__SPEC__INIT;
  spec.name = "older";
  spec.parent_case = PULUMIRPC__ALIAS__SPEC__PARENT_NO_PARENT;
  spec.noparent = 1;
  Pulumirpc__Alias a_spec = PULUMIRPC__ALIAS__INIT;
  a_spec.alias_case = PULUMIRPC__ALIAS__ALIAS_SPEC;
  a_spec.spec = &spec;
  Pulumirpc__Alias *aliases[] = {&a_urn, &a_spec};

  /* propertyDependencies: name -> [urnA, urnB], count -> [] */
  char *urns[] = {"urn:a", "urn:b"};
  Pulumirpc__RegisterResourceRequest__PropertyDependencies pd_name =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES__INIT;
  pd_name.n_urns = 2;
  pd_name.urns = urns;
  Pulumirpc__RegisterResourceRequest__PropertyDependencies pd_count =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES__INIT;
  Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry pe_name =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES_ENTRY__INIT;
  pe_name.key = "name";
  pe_name.value = &pd_name;
  Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry pe_count =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES_ENTRY__INIT;
  pe_count.key = "count";
  pe_count.value = &pd_count;
  Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry *pdeps[] = {
      &pe_name, &pe_count};

  Pulumirpc__RegisterResourceRequest__CustomTimeouts timeouts =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__CUSTOM_TIMEOUTS__INIT;
  timeouts.create = "5m";
  timeouts.delete_ = "1h";

  Pulumirpc__RegisterResourceRequest req =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  req.type = "pulumi-nodejs:dynamic:Resource";
  req.name = "web";
  req.parent = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
  req.custom = 1;
  req.object = &object;
  req.n_dependencies = 2;
  req.dependencies = urns;
  req.n_propertydependencies = 2;
  req.propertydependencies = pdeps;
  req.n_aliases = 2;
  req.aliases = aliases;
  req.aliasspecs = 1;
  req.customtimeouts = &timeouts;
  req.acceptsecrets = 1;
  req.supportsresultreporting = 1;
  req.protect_opt_case = PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
  req.protect = 0;

  size_t len;
  uint8_t *buf = pack(&req.base, &len);
  Pulumirpc__RegisterResourceRequest *got =
      pulumirpc__register_resource_request__unpack(NULL, len, buf);
  free(buf);
  CHECK(got != NULL);
  if (got == NULL)
    return;
  CHECK_STR(got->type, "pulumi-nodejs:dynamic:Resource");
  CHECK_STR(got->name, "web");
  CHECK_STR(got->parent, "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev");
  CHECK(got->custom == 1);
  CHECK(got->acceptsecrets == 1);
  CHECK(got->supportsresultreporting == 1);
  CHECK(got->aliasspecs == 1);
  /* protect=false was set explicitly, so it is present after the trip. */
  CHECK(got->protect_opt_case ==
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT);
  CHECK(got->protect == 0);
  CHECK(got->retain_on_delete_opt_case ==
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__RETAIN_ON_DELETE_OPT__NOT_SET);

  CHECK(got->object != NULL && got->object->n_fields == 4);
  const Google__Protobuf__Value *v = struct_get(got->object, "name");
  CHECK(v && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  if (v && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE)
    CHECK(v->string_value.len == 3 &&
          memcmp(v->string_value.data, "web", 3) == 0);
  v = struct_get(got->object, "count");
  CHECK(v && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE &&
        v->number_value == 3.0);
  v = struct_get(got->object, "tags");
  CHECK(v && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE &&
        v->list_value->n_values == 2 &&
        v->list_value->values[1]->kind_case ==
            GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE);
  v = struct_get(got->object, "nested");
  CHECK(v && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE);
  if (v && v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE) {
    const Google__Protobuf__Value *on = struct_get(v->struct_value, "on");
    CHECK(on && on->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE &&
          on->bool_value == 1);
  }
  CHECK(struct_get(got->object, "missing") == NULL);

  CHECK(got->n_dependencies == 2);
  if (got->n_dependencies == 2)
    CHECK_STR(got->dependencies[1], "urn:b");

  CHECK(got->n_propertydependencies == 2);
  if (got->n_propertydependencies == 2) {
    CHECK_STR(got->propertydependencies[0]->key, "name");
    CHECK(got->propertydependencies[0]->value->n_urns == 2);
    CHECK_STR(got->propertydependencies[0]->value->urns[0], "urn:a");
    CHECK_STR(got->propertydependencies[1]->key, "count");
    /* An empty dependency list still arrives as an entry. */
    CHECK(got->propertydependencies[1]->value != NULL &&
          got->propertydependencies[1]->value->n_urns == 0);
  }

  CHECK(got->n_aliases == 2);
  if (got->n_aliases == 2) {
    CHECK(got->aliases[0]->alias_case == PULUMIRPC__ALIAS__ALIAS_URN);
    CHECK_STR(got->aliases[0]->urn, "urn:pulumi:dev::proj::t:m:T::old");
    CHECK(got->aliases[1]->alias_case == PULUMIRPC__ALIAS__ALIAS_SPEC);
    CHECK_STR(got->aliases[1]->spec->name, "older");
    CHECK_STR(got->aliases[1]->spec->type, "");
    CHECK(got->aliases[1]->spec->parent_case ==
              PULUMIRPC__ALIAS__SPEC__PARENT_NO_PARENT &&
          got->aliases[1]->spec->noparent == 1);
  }

  CHECK(got->customtimeouts != NULL);
  if (got->customtimeouts) {
    CHECK_STR(got->customtimeouts->create, "5m");
    CHECK_STR(got->customtimeouts->update, "");
    CHECK_STR(got->customtimeouts->delete_, "1h");
  }
  pulumirpc__register_resource_request__free_unpacked(got, NULL);
}

/* Bytes written by hand, as the Node.js SDK would send them. */
static void test_register_resource_wire_numbers(void) {
  static const uint8_t wire[] = {
      0x0a, 0x01, 'a',       /* type = 1: "a" */
      0x12, 0x01, 'n',       /* name = 2: "n" */
      0x20, 0x01,            /* custom = 4: true */
      0x2a, 0x00,            /* object = 5: empty Struct */
      0x30, 0x00,            /* protect = 6: false, but present */
      0x80, 0x02, 0x01,      /* supportsResultReporting = 32: true */
      0x98, 0x06, 0x05,      /* unknown field 99: skipped */
      0xd2, 0x01, 0x04,      /* aliases = 26: Alias{spec = 2: ...} */
      0x12, 0x02, 0x30, 0x01, /*   Spec{noParent = 6: true} */
      0x8a, 0x01, 0x02, 0x0a, 0x00, /* customTimeouts = 17 {create=""} */
      0xda, 0x02, 0x03,      /* state_migrations = 43: Callback{ */
      0x12, 0x01, 't',       /*   token = 2: "t" } */
      0xb2, 0x02, 0x01, 'X', /* replace_with = 38: ["X"] */
  };
  Pulumirpc__RegisterResourceRequest *got =
      pulumirpc__register_resource_request__unpack(NULL, sizeof wire, wire);
  CHECK(got != NULL);
  if (got == NULL)
    return;
  CHECK_STR(got->type, "a");
  CHECK_STR(got->name, "n");
  CHECK(got->custom == 1);
  CHECK(got->object != NULL && got->object->n_fields == 0);
  CHECK(got->protect_opt_case ==
            PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT &&
        got->protect == 0);
  CHECK(got->supportsresultreporting == 1);
  CHECK(got->n_aliases == 1 &&
        got->aliases[0]->alias_case == PULUMIRPC__ALIAS__ALIAS_SPEC &&
        got->aliases[0]->spec->noparent == 1);
  CHECK(got->customtimeouts != NULL);
  CHECK(got->n_state_migrations == 1);
  if (got->n_state_migrations == 1)
    CHECK_STR(got->state_migrations[0]->token, "t");
  CHECK(got->n_replace_with == 1);
  if (got->n_replace_with == 1)
    CHECK_STR(got->replace_with[0], "X");
  /* Everything else keeps its default. */
  CHECK_STR(got->parent, "");
  CHECK(got->acceptsecrets == 0);
  CHECK(got->hooks == NULL);
  pulumirpc__register_resource_request__free_unpacked(got, NULL);

  /* And the reverse: type="a", custom=true, supportsResultReporting=true
   * encode to exactly these bytes. */
  Pulumirpc__RegisterResourceRequest req =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  req.type = "a";
  req.custom = 1;
  req.supportsresultreporting = 1;
  static const uint8_t want[] = {0x0a, 0x01, 'a', 0x20, 0x01,
                                 0x80, 0x02, 0x01};
  size_t len;
  uint8_t *buf = pack(&req.base, &len);
  CHECK(bytes_equal(buf, len, want, sizeof want));
  free(buf);
}

/* Malformed input is rejected rather than half-decoded. */
static void test_register_resource_bad_bytes(void) {
  /* type = 1 announces 5 bytes but only 2 follow. */
  static const uint8_t truncated[] = {0x0a, 0x05, 'a', 'b'};
  CHECK(pulumirpc__register_resource_request__unpack(NULL, sizeof truncated,
                                                     truncated) == NULL);
  /* object = 5 is a Struct whose fields entry is cut short. */
  static const uint8_t bad_nested[] = {0x2a, 0x03, 0x0a, 0x05, 'k'};
  CHECK(pulumirpc__register_resource_request__unpack(
            NULL, sizeof bad_nested, bad_nested) == NULL);
  /* A varint that never ends. */
  static const uint8_t bad_varint[] = {0x20, 0xff, 0xff};
  CHECK(pulumirpc__register_resource_request__unpack(
            NULL, sizeof bad_varint, bad_varint) == NULL);
}

/* RegisterResourceResponse: result = 7 and unknown = 8. */
static void test_register_resource_response(void) {
  Pulumirpc__RegisterResourceResponse resp =
      PULUMIRPC__REGISTER_RESOURCE_RESPONSE__INIT;
  resp.urn = "u";
  resp.id = "i";
  resp.result = PULUMIRPC__RESULT__FAIL;
  resp.unknown = 1;
  static const uint8_t want[] = {0x0a, 0x01, 'u', 0x12, 0x01, 'i',
                                 0x38, 0x01, 0x40, 0x01};
  size_t len;
  uint8_t *buf = pack(&resp.base, &len);
  CHECK(bytes_equal(buf, len, want, sizeof want));
  Pulumirpc__RegisterResourceResponse *got =
      pulumirpc__register_resource_response__unpack(NULL, len, buf);
  free(buf);
  CHECK(got != NULL);
  if (got) {
    CHECK(got->result == PULUMIRPC__RESULT__FAIL);
    CHECK(got->unknown == 1);
    CHECK(got->object == NULL);
    pulumirpc__register_resource_response__free_unpacked(got, NULL);
  }
}

/* supportedFeatures = 8 is packed when we send it, and both packed and
 * unpacked forms decode. */
static void test_deployment_info_features(void) {
  Pulumirpc__ResourceMonitorFeature feats[] = {
      PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_SECRETS,
      PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_ALIAS_SPECS};
  Pulumirpc__DeploymentInfo info = PULUMIRPC__DEPLOYMENT_INFO__INIT;
  info.project = "p";
  info.n_supportedfeatures = 2;
  info.supportedfeatures = feats;
  static const uint8_t want[] = {0x0a, 0x01, 'p', 0x42, 0x02, 0x00, 0x03};
  size_t len;
  uint8_t *buf = pack(&info.base, &len);
  CHECK(bytes_equal(buf, len, want, sizeof want));
  free(buf);

  static const uint8_t unpacked[] = {0x40, 0x00, 0x40, 0x03, 0x40, 0x10,
                                     0x30, 0x01};
  Pulumirpc__DeploymentInfo *got =
      pulumirpc__deployment_info__unpack(NULL, sizeof unpacked, unpacked);
  CHECK(got != NULL);
  if (got) {
    CHECK(got->n_supportedfeatures == 3);
    if (got->n_supportedfeatures == 3)
      CHECK(got->supportedfeatures[2] ==
            PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_STATE_MIGRATIONS);
    CHECK(got->dryrun == 1);
    pulumirpc__deployment_info__free_unpacked(got, NULL);
  }
}

/* DiffResponse: round trip with a detailed diff, and the field numbers of
 * replaces = 1, deleteBeforeReplace = 3 and changes = 4. */
static void test_diff_response(void) {
  Pulumirpc__PropertyDiff pdiff = PULUMIRPC__PROPERTY_DIFF__INIT;
  pdiff.kind = PULUMIRPC__PROPERTY_DIFF__KIND__UPDATE_REPLACE;
  pdiff.inputdiff = 1;
  Pulumirpc__DiffResponse__DetailedDiffEntry entry =
      PULUMIRPC__DIFF_RESPONSE__DETAILED_DIFF_ENTRY__INIT;
  entry.key = "size";
  entry.value = &pdiff;
  Pulumirpc__DiffResponse__DetailedDiffEntry *entries[] = {&entry};
  char *replaces[] = {"size"};
  Pulumirpc__DiffResponse resp = PULUMIRPC__DIFF_RESPONSE__INIT;
  resp.n_replaces = 1;
  resp.replaces = replaces;
  resp.changes = PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_SOME;
  resp.n_detaileddiff = 1;
  resp.detaileddiff = entries;
  resp.hasdetaileddiff = 1;

  size_t len;
  uint8_t *buf = pack(&resp.base, &len);
  Pulumirpc__DiffResponse *got =
      pulumirpc__diff_response__unpack(NULL, len, buf);
  free(buf);
  CHECK(got != NULL);
  if (got) {
    CHECK(got->changes == PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_SOME);
    CHECK(got->n_replaces == 1);
    CHECK(got->hasdetaileddiff == 1);
    CHECK(got->deletebeforereplace == 0);
    CHECK(got->n_detaileddiff == 1);
    if (got->n_detaileddiff == 1) {
      CHECK_STR(got->detaileddiff[0]->key, "size");
      CHECK(got->detaileddiff[0]->value->kind ==
            PULUMIRPC__PROPERTY_DIFF__KIND__UPDATE_REPLACE);
      CHECK(got->detaileddiff[0]->value->inputdiff == 1);
    }
    pulumirpc__diff_response__free_unpacked(got, NULL);
  }

  /* What the dynamic provider sends when the user diff says "replace". */
  static const uint8_t wire[] = {
      0x0a, 0x01, 'x', /* replaces = 1: ["x"] */
      0x18, 0x01,      /* deleteBeforeReplace = 3: true */
      0x20, 0x02,      /* changes = 4: DIFF_SOME */
  };
  got = pulumirpc__diff_response__unpack(NULL, sizeof wire, wire);
  CHECK(got != NULL);
  if (got) {
    CHECK(got->n_replaces == 1 && strcmp(got->replaces[0], "x") == 0);
    CHECK(got->deletebeforereplace == 1);
    CHECK(got->changes == PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_SOME);
    CHECK(got->n_detaileddiff == 0 && got->hasdetaileddiff == 0);
    pulumirpc__diff_response__free_unpacked(got, NULL);
  }

  /* An empty response means DIFF_UNKNOWN: the engine must diff itself. */
  got = pulumirpc__diff_response__unpack(NULL, 0, (const uint8_t *)"");
  CHECK(got != NULL);
  if (got) {
    CHECK(got->changes ==
          PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_UNKNOWN);
    pulumirpc__diff_response__free_unpacked(got, NULL);
  }
}

/* CreateRequest: an empty properties Struct must still be on the wire
 * (the dynamic provider dereferences it), and the other field numbers. */
static void test_create_request(void) {
  Google__Protobuf__Struct empty = GOOGLE__PROTOBUF__STRUCT__INIT;
  Pulumirpc__CreateRequest req = PULUMIRPC__CREATE_REQUEST__INIT;
  req.urn = "u";
  req.properties = &empty;
  req.timeout = 1.5;
  req.preview = 1;
  req.type = "t";
  static const uint8_t want[] = {
      0x0a, 0x01, 'u',            /* urn = 1 */
      0x12, 0x00,                 /* properties = 2: present, empty */
      0x19, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f, /* timeout = 3 */
      0x20, 0x01,                 /* preview = 4 */
      0x32, 0x01, 't',            /* type = 6 */
  };
  size_t len;
  uint8_t *buf = pack(&req.base, &len);
  CHECK(bytes_equal(buf, len, want, sizeof want));
  Pulumirpc__CreateRequest *got =
      pulumirpc__create_request__unpack(NULL, len, buf);
  free(buf);
  CHECK(got != NULL);
  if (got) {
    CHECK_STR(got->urn, "u");
    CHECK(got->properties != NULL && got->properties->n_fields == 0);
    CHECK(got->timeout == 1.5);
    CHECK(got->preview == 1);
    CHECK_STR(got->name, "");
    CHECK_STR(got->type, "t");
    pulumirpc__create_request__free_unpacked(got, NULL);
  }

  /* CreateResponse from a provider: id = 1, properties = 2. */
  static const uint8_t resp_wire[] = {0x0a, 0x02, 'i', 'd', 0x12, 0x00,
                                      0x18, 0x01};
  Pulumirpc__CreateResponse *resp =
      pulumirpc__create_response__unpack(NULL, sizeof resp_wire, resp_wire);
  CHECK(resp != NULL);
  if (resp) {
    CHECK_STR(resp->id, "id");
    CHECK(resp->properties != NULL);
    CHECK(resp->refresh_before_update == 1);
    pulumirpc__create_response__free_unpacked(resp, NULL);
  }
}

/* LogRequest: DEBUG is the default and so absent; other numbers as in the
 * contract (severity 1, message 2, urn 3, streamId 4, ephemeral 5). */
static void test_log_request(void) {
  Pulumirpc__LogRequest log = PULUMIRPC__LOG_REQUEST__INIT;
  log.message = "m";
  size_t len;
  uint8_t *buf = pack(&log.base, &len);
  static const uint8_t want_debug[] = {0x12, 0x01, 'm'};
  CHECK(bytes_equal(buf, len, want_debug, sizeof want_debug));
  free(buf);

  static const uint8_t wire[] = {0x08, 0x02, 0x12, 0x01, 'w', 0x1a, 0x01,
                                 'u',  0x20, 0x07, 0x28, 0x01};
  Pulumirpc__LogRequest *got =
      pulumirpc__log_request__unpack(NULL, sizeof wire, wire);
  CHECK(got != NULL);
  if (got) {
    CHECK(got->severity == PULUMIRPC__LOG_SEVERITY__WARNING);
    CHECK_STR(got->message, "w");
    CHECK_STR(got->urn, "u");
    CHECK(got->streamid == 7);
    CHECK(got->ephemeral == 1);
    pulumirpc__log_request__free_unpacked(got, NULL);
  }
}

/* ConfigureResponse / CheckRequest: a few provider-side numbers. */
static void test_provider_messages(void) {
  static const uint8_t cfg[] = {0x08, 0x01, 0x10, 0x01, 0x18, 0x00, 0x20,
                                0x01};
  Pulumirpc__ConfigureResponse *c =
      pulumirpc__configure_response__unpack(NULL, sizeof cfg, cfg);
  CHECK(c != NULL);
  if (c) {
    CHECK(c->acceptsecrets == 1 && c->supportspreview == 1);
    CHECK(c->acceptresources == 0 && c->acceptoutputs == 1);
    pulumirpc__configure_response__free_unpacked(c, NULL);
  }

  Google__Protobuf__Struct empty = GOOGLE__PROTOBUF__STRUCT__INIT;
  Pulumirpc__CheckRequest chk = PULUMIRPC__CHECK_REQUEST__INIT;
  chk.urn = "u";
  chk.olds = &empty;
  chk.news = &empty;
  chk.name = "n";
  static const uint8_t want[] = {0x0a, 0x01, 'u', 0x12, 0x00, 0x1a,
                                 0x00, 0x32, 0x01, 'n'};
  size_t len;
  uint8_t *buf = pack(&chk.base, &len);
  CHECK(bytes_equal(buf, len, want, sizeof want));
  free(buf);

  /* ErrorResourceInitFailed, as found in grpc-status-details-bin. */
  static const uint8_t init_failed[] = {0x0a, 0x01, '7', 0x12, 0x00,
                                        0x1a, 0x02, 'n', 'o'};
  Pulumirpc__ErrorResourceInitFailed *e =
      pulumirpc__error_resource_init_failed__unpack(NULL, sizeof init_failed,
                                                    init_failed);
  CHECK(e != NULL);
  if (e) {
    CHECK_STR(e->id, "7");
    CHECK(e->n_reasons == 1 && strcmp(e->reasons[0], "no") == 0);
    pulumirpc__error_resource_init_failed__free_unpacked(e, NULL);
  }
}

int main(void) {
  RUN(test_register_resource_round_trip);
  RUN(test_register_resource_wire_numbers);
  RUN(test_register_resource_bad_bytes);
  RUN(test_register_resource_response);
  RUN(test_deployment_info_features);
  RUN(test_diff_response);
  RUN(test_create_request);
  RUN(test_log_request);
  RUN(test_provider_messages);
  return mp_test_summary();
}
