#include "rpc/engine_service.h"

#include <stdio.h>
#include <stdlib.h>

#include "pulumi/engine.pb-c.h"

void mp_rpc_engine_service_init(mp_rpc_engine_service *svc, mp_rpc_log_cb log,
                                void *arg) {
  svc->log = log;
  svc->log_arg = arg;
  svc->root_urn = NULL;
}

void mp_rpc_engine_service_destroy(mp_rpc_engine_service *svc) {
  free(svc->root_urn);
  svc->root_urn = NULL;
}

static void reply_packed(mp_rpc_srv_call *call, const ProtobufCMessage *m) {
  size_t size = protobuf_c_message_get_packed_size(m);
  uint8_t *bytes = mp_xmalloc(size);
  protobuf_c_message_pack(m, bytes);
  mp_rpc_srv_reply(call, bytes, size);
  free(bytes);
}

static void fail_decode(mp_rpc_srv_call *call, const char *what) {
  char msg[160];
  snprintf(msg, sizeof(msg), "cannot decode %s: not a valid protobuf message",
           what);
  mp_rpc_srv_fail(call, MP_RPC_INVALID_ARGUMENT, msg, NULL, 0);
}

static void on_log(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                   void *arg) {
  mp_rpc_engine_service *svc = arg;
  Pulumirpc__LogRequest *pb = pulumirpc__log_request__unpack(NULL, len, req);
  if (pb == NULL) {
    fail_decode(call, "LogRequest");
    return;
  }
  mp_rpc_log_entry e = {
      .severity = pb->severity,
      .message = pb->message ? pb->message : "",
      .urn = pb->urn ? pb->urn : "",
      .stream_id = pb->streamid,
      .ephemeral = pb->ephemeral,
  };
  if (svc->log) svc->log(&e, svc->log_arg);
  pulumirpc__log_request__free_unpacked(pb, NULL);
  /* Every Log must be answered, or the SDK's chained logs stall. */
  mp_rpc_srv_reply(call, NULL, 0);
}

static void on_get_root(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                        void *arg) {
  (void)req;
  (void)len;
  mp_rpc_engine_service *svc = arg;
  Pulumirpc__GetRootResourceResponse resp =
      PULUMIRPC__GET_ROOT_RESOURCE_RESPONSE__INIT;
  resp.urn = svc->root_urn ? svc->root_urn : "";
  reply_packed(call, &resp.base);
}

static void on_set_root(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                        void *arg) {
  mp_rpc_engine_service *svc = arg;
  Pulumirpc__SetRootResourceRequest *pb =
      pulumirpc__set_root_resource_request__unpack(NULL, len, req);
  if (pb == NULL) {
    fail_decode(call, "SetRootResourceRequest");
    return;
  }
  free(svc->root_urn);
  svc->root_urn = mp_xstrdup(pb->urn ? pb->urn : "");
  pulumirpc__set_root_resource_request__free_unpacked(pb, NULL);
  mp_rpc_srv_reply(call, NULL, 0);
}

int mp_rpc_engine_service_register(mp_rpc_engine_service *svc,
                                   mp_rpc_server *srv, mp_err *err) {
  static const struct {
    const char *path;
    mp_rpc_handler handler;
  } methods[] = {
      {"/pulumirpc.Engine/Log", on_log},
      {"/pulumirpc.Engine/GetRootResource", on_get_root},
      {"/pulumirpc.Engine/SetRootResource", on_set_root},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(methods); i++) {
    int rc =
        mp_rpc_server_add(srv, methods[i].path, methods[i].handler, svc, err);
    if (rc < 0) return rc;
  }
  return 0;
}
