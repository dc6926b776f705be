/* Copying a dependency map between message types (engine/pb_deps.h).
 * Fields are found by name and reached at the offsets their descriptors
 * give, as protobuf-c itself reaches them. */
#include "engine/pb_deps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"

static const ProtobufCFieldDescriptor *
field(const ProtobufCMessageDescriptor *d, const char *name) {
  const ProtobufCFieldDescriptor *f =
      protobuf_c_message_descriptor_get_field_by_name(d, name);
  if (f == NULL) {
    fprintf(stderr, "minipulumi: message %s has no field %s\n", d->name, name);
    abort();
  }
  return f;
}

static void *at(const void *msg, unsigned offset) {
  return (char *)msg + offset;
}

/* Copies the repeated string field |name| of |from| (NULL: none) into
 * |to|'s field of that name. */
static void copy_urns(ProtobufCMessage *to, const ProtobufCMessage *from) {
  if (from == NULL)
    return;
  const ProtobufCFieldDescriptor *t = field(to->descriptor, "urns");
  const ProtobufCFieldDescriptor *f = field(from->descriptor, "urns");
  memcpy(at(to, t->quantifier_offset), at(from, f->quantifier_offset),
         sizeof(size_t));
  memcpy(at(to, t->offset), at(from, f->offset), sizeof(char **));
}

void mp_pb_deps_copy(ProtobufCMessage *dst, const char *dst_field,
                     const ProtobufCMessage *src, const char *src_field,
                     mp_pb_deps *hold) {
  const ProtobufCFieldDescriptor *sf = field(src->descriptor, src_field);
  const ProtobufCFieldDescriptor *df = field(dst->descriptor, dst_field);
  const ProtobufCMessageDescriptor *ed = df->descriptor;
  const ProtobufCFieldDescriptor *key = field(ed, "key");
  const ProtobufCFieldDescriptor *value = field(ed, "value");
  const ProtobufCMessageDescriptor *vd = value->descriptor;
  size_t n;
  ProtobufCMessage **from;
  memcpy(&n, at(src, sf->quantifier_offset), sizeof(n));
  memcpy(&from, at(src, sf->offset), sizeof(from));
  hold->entries = mp_xcalloc(n ? n : 1, ed->sizeof_message);
  hold->values = mp_xcalloc(n ? n : 1, vd->sizeof_message);
  hold->ptrs = mp_xcalloc(n ? n : 1, sizeof(void *));
  for (size_t i = 0; i < n; i++) {
    ProtobufCMessage *e =
        (void *)((char *)hold->entries + i * ed->sizeof_message);
    ProtobufCMessage *v =
        (void *)((char *)hold->values + i * vd->sizeof_message);
    protobuf_c_message_init(ed, e);
    protobuf_c_message_init(vd, v);
    const ProtobufCMessage *se = from[i];
    const ProtobufCMessage *sv;
    memcpy(at(e, key->offset), at(se, field(se->descriptor, "key")->offset),
           sizeof(char *));
    memcpy(&sv, at(se, field(se->descriptor, "value")->offset), sizeof(sv));
    copy_urns(v, sv);
    memcpy(at(e, value->offset), &v, sizeof(v));
    hold->ptrs[i] = e;
  }
  memcpy(at(dst, df->quantifier_offset), &n, sizeof(n));
  memcpy(at(dst, df->offset), &hold->ptrs, sizeof(hold->ptrs));
}

void mp_pb_deps_free(mp_pb_deps *hold) {
  free(hold->entries);
  free(hold->values);
  free(hold->ptrs);
  *hold = (mp_pb_deps){0};
}
