// A real gRPC peer (grpc-js) for minipulumi's transport tests, plus two
// peers that are not gRPC at all. Modes:
//   node peer.js serve             grpc-js server of /mptest.Test/*
//   node peer.js junk              TCP server that answers with HTTP/1.1 junk
//   node peer.js http2 STATUS CT BODYHEX
//                                  HTTP/2 server answering every request
//                                  with STATUS, content-type CT, body bytes
//   node peer.js client PORT       grpc-js client of minipulumi's server;
//                                  prints one line per case
// Servers bind 127.0.0.1 on a free port and print it as their first line.
// Messages travel as raw bytes; the few protobuf messages are written by
// hand below, so no .proto file is needed.
'use strict';

const grpc = require('@grpc/grpc-js');
const http2 = require('http2');
const net = require('net');

const MiB = 1024 * 1024;
const identity = (b) => b;

function unaryMethod(path) {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  };
}

// ---- protobuf by hand ---------------------------------------------------

function varint(n) {
  const out = [];
  while (n > 127) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

function bytesField(num, value) {
  const b = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
  return Buffer.concat([varint((num << 3) | 2), varint(b.length), b]);
}

function intField(num, value) {
  return Buffer.concat([varint(num << 3), varint(value)]);
}

// The first length-delimited field 1 of a message, as a string.
function firstString(buf) {
  if (buf.length === 0) return '';
  if (buf[0] !== 0x0a) throw new Error('unexpected field tag ' + buf[0]);
  let len = 0, shift = 0, i = 1;
  for (;;) {
    const b = buf[i++];
    len += (b & 127) * 2 ** shift;
    shift += 7;
    if (b < 128) break;
  }
  return buf.subarray(i, i + len).toString('utf8');
}

// google.rpc.Status{code, message, details: [ErrorResourceInitFailed]}.
function initFailedStatus(code, message) {
  const detail = Buffer.concat([
    bytesField(1, 'i-node-7'),             // id
    bytesField(3, 'half created by node'), // reasons
  ]);
  const any = Buffer.concat([
    bytesField(1, 'type.googleapis.com/pulumirpc.ErrorResourceInitFailed'),
    bytesField(2, detail),
  ]);
  return Buffer.concat([intField(1, code), bytesField(2, message),
                        bytesField(3, any)]);
}

// ---- servers ------------------------------------------------------------

function printPort(port) {
  process.stdout.write(`${port}\n`);
}

function serve() {
  const service = {};
  for (const name of ['Echo', 'Fail', 'Big', 'Hang', 'Exit'])
    service[name] = unaryMethod(`/mptest.Test/${name}`);
  service.Gather = {...unaryMethod('/mptest.Test/Gather'), requestStream: true};
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 400 * MiB,
    'grpc.max_send_message_length': -1,
  });
  server.addService(service, {
    Echo: (call, cb) => cb(null, call.request),
    // The request is "<code>:<message>"; the reply is that error with an
    // ErrorResourceInitFailed detail.
    Fail: (call, cb) => {
      const text = call.request.toString('utf8');
      const colon = text.indexOf(':');
      const code = Number(text.slice(0, colon));
      const message = text.slice(colon + 1);
      const md = new grpc.Metadata();
      md.set('grpc-status-details-bin', initFailedStatus(code, message));
      cb({code, details: message, metadata: md});
    },
    // The request is a decimal size; the reply is that many patterned bytes.
    Big: (call, cb) => {
      const n = Number(call.request.toString('utf8'));
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i += 4096) b[i] = (i / 4096) & 255;
      cb(null, b);
    },
    // A client stream: the reply is its messages joined with ",", sent at
    // the stream's end, or at once on a message "stop" (so that a reply
    // to an open stream shows what came before the client ended it).
    Gather: (call, cb) => {
      const got = [];
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        cb(null, Buffer.from(got.join(',')));
      };
      call.on('data', (m) => {
        got.push(m.toString('utf8'));
        if (m.toString('utf8') === 'stop') answer();
      });
      call.on('end', answer);
    },
    Hang: () => {},
    Exit: () => process.exit(3),
  });
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(),
                   (err, port) => {
                     if (err) throw err;
                     printPort(port);
                   });
}

function junk() {
  const server = net.createServer((sock) => {
    sock.on('error', () => {});
    sock.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
  });
  server.listen(0, '127.0.0.1', () => printPort(server.address().port));
}

function plainHttp2(status, contentType, bodyHex) {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    stream.respond({':status': Number(status), 'content-type': contentType});
    stream.end(Buffer.from(bodyHex, 'hex'));
  });
  server.listen(0, '127.0.0.1', () => printPort(server.address().port));
}

// ---- client -------------------------------------------------------------

function client(port) {
  const c = new grpc.Client(`127.0.0.1:${port}`,
                            grpc.credentials.createInsecure(), {
                              'grpc.max_receive_message_length': 400 * MiB,
                              'grpc.max_send_message_length': -1,
                            });
  const call = (path, buf) => new Promise((resolve) => {
    c.makeUnaryRequest(path, identity, identity, buf,
                       (err, resp) => resolve({err, resp}));
  });
  const out = (...words) => process.stdout.write(words.join(' ') + '\n');
  const codeOf = (r) => (r.err ? r.err.code : 0);

  (async () => {
    // Engine.Log with every field set; an Empty reply is a success.
    const log = Buffer.concat([intField(1, 2), bytesField(2, 'disk 90% full'),
                               bytesField(3, 'urn:pulumi:s::p::t::n'),
                               intField(4, 7), intField(5, 1)]);
    out('log', codeOf(await call('/pulumirpc.Engine/Log', log)));
    const set = await call('/pulumirpc.Engine/SetRootResource',
                           bytesField(1, 'urn:pulumi:s::p::pulumi:pulumi:Stack::p-s'));
    const get = await call('/pulumirpc.Engine/GetRootResource', Buffer.alloc(0));
    out('root', codeOf(set), codeOf(get), get.resp ? firstString(get.resp) : '-');

    const echo = await call('/mptest.Test/Echo', Buffer.from('ping'));
    out('echo', codeOf(echo), echo.resp ? echo.resp.toString() : '-');

    const many = await Promise.all(Array.from({length: 100}, (_, i) =>
      call('/mptest.Test/Echo', Buffer.from(`m${i}`))));
    const good = many.filter((r, i) => !r.err && r.resp.toString() === `m${i}`);
    out('concurrent', good.length);

    const big = Buffer.alloc(16 * MiB, 0x5a);
    big.write('head');
    big.write('tail', big.length - 4);
    const bigr = await call('/mptest.Test/Echo', big);
    out('big', codeOf(bigr), bigr.resp ? bigr.resp.length : -1,
        bigr.resp && bigr.resp.equals(big) ? 'same' : 'different');

    const fail = await call('/mptest.Test/Fail',
                            Buffer.from('2:boom: 100% of\nthe time'));
    const bin = fail.err && fail.err.metadata.get('grpc-status-details-bin')[0];
    out('fail', codeOf(fail), encodeURIComponent(fail.err ? fail.err.details : ''),
        bin ? bin.toString('base64') : '-');

    const unimpl = await call('/mptest.Test/Nope', Buffer.alloc(0));
    out('unimplemented', codeOf(unimpl),
        encodeURIComponent(unimpl.err ? unimpl.err.details : ''));

    const over = await call('/mptest.Test/Echo', Buffer.alloc(33 * MiB));
    out('oversized', codeOf(over),
        encodeURIComponent(over.err ? over.err.details : ''));

    // Leave with a call in flight: Hang is sent before Echo on the same
    // connection, so once Echo is answered the server holds the Hang call.
    call('/mptest.Test/Hang', Buffer.from('wait'));
    const after = await call('/mptest.Test/Echo', Buffer.from('last'));
    out('leaving', codeOf(after));
    process.exit(0);
  })();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'serve') serve();
else if (mode === 'junk') junk();
else if (mode === 'http2') plainHttp2(...args);
else if (mode === 'client') client(Number(args[0]));
else {
  process.stderr.write(`peer.js: unknown mode '${mode}'\n`);
  process.exit(2);
}
