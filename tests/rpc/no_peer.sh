#!/bin/bash
# test_rpc_node without its Node.js peer (a folder with no peer.js) must
# fail cleanly: exit status 1 and a message saying what to do, no crash.
out=$(MP_RPC_PEER_DIR=/nonexistent "$1" 2>&1)
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: exit status $rc, expected 1: $out"; exit 1; }
case "$out" in
  *"printed no port; did \`npm ci\` run in tests/rpc?"*) echo ok ;;
  *) echo "FAIL: no explanation: $out"; exit 1 ;;
esac
