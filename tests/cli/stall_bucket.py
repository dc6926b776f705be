#!/usr/bin/env python3
"""A small S3 server (path style, objects in memory) that can stall, for
the CLI tests of cancelled bucket requests: stall_bucket.py PORTFILE
listens on a free port of 127.0.0.1 and writes the port into PORTFILE.

It answers GET, PUT (and a copy through x-amz-copy-source), HEAD, DELETE
and ListObjectsV2 (prefix, delimiter "/"; one page). While the file
PORTFILE.stall exists, a request whose "METHOD PATH" matches its text, a
Python regular expression (all requests if it is empty), is read whole and never answered, and
PORTFILE.stalled is written: the object is left as it was. Azure's
requests (an account in the path) are stalled the same way.

The server ends by itself after an hour, so a test that dies leaves
nothing running for long."""
import http.server
import os
import re
import socketserver
import sys
import threading
import time
import urllib.parse
from xml.sax.saxutils import escape

portfile = sys.argv[1]
objects = {}
lock = threading.Lock()


def stalls(line):
    try:
        with open(portfile + ".stall") as f:
            want = f.read().strip()
    except OSError:
        return False
    return re.search(want, line) is not None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def missing(self):
        self.answer(404, b"<?xml version='1.0'?><Error><Code>NoSuchKey"
                    b"</Code><Message>no such key</Message></Error>",
                    [("Content-Type", "application/xml")])

    def listing(self, q):
        prefix = q.get("prefix", [""])[0]
        delim = q.get("delimiter", [""])[0]
        keys, dirs = [], set()
        with lock:
            names = sorted(objects)
        for k in names:
            if not k.startswith(prefix):
                continue
            rest = k[len(prefix):]
            if delim and delim in rest:
                dirs.add(prefix + rest.split(delim)[0] + delim)
            else:
                keys.append(k)
        out = ["<?xml version='1.0'?><ListBucketResult>",
               "<IsTruncated>false</IsTruncated>"]
        for k in keys:
            out.append("<Contents><Key>%s</Key><Size>%d</Size></Contents>"
                       % (escape(k), len(objects.get(k, b""))))
        for d in sorted(dirs):
            out.append("<CommonPrefixes><Prefix>%s</Prefix></CommonPrefixes>"
                       % escape(d))
        out.append("</ListBucketResult>")
        self.answer(200, "".join(out).encode(),
                    [("Content-Type", "application/xml")])

    def any(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        if stalls(self.command + " " + self.path):
            with open(portfile + ".stalled", "w") as f:
                f.write(self.command + " " + self.path + "\n")
            time.sleep(3600)
            return
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.lstrip("/").split("/", 1)
        key = urllib.parse.unquote(parts[1]) if len(parts) > 1 else ""
        q = urllib.parse.parse_qs(url.query)
        if key == "" and self.command == "GET":
            return self.listing(q)
        if self.command == "PUT":
            src = self.headers.get("x-amz-copy-source")
            if src:
                sk = urllib.parse.unquote(src.lstrip("/")).split("/", 1)[1]
                with lock:
                    if sk not in objects:
                        return self.missing()
                    objects[key] = objects[sk]
                return self.answer(200, b"<?xml version='1.0'?>"
                                   b"<CopyObjectResult></CopyObjectResult>")
            with lock:
                objects[key] = body
            return self.answer(200, b"", [("ETag", '"%d"' % len(body))])
        with lock:
            data = objects.get(key)
            if self.command == "DELETE":
                objects.pop(key, None)
        if self.command == "DELETE":
            return self.answer(204)
        if data is None:
            return self.missing()
        self.answer(200, data, [("ETag", '"%d"' % len(data))])

    do_GET = do_PUT = do_HEAD = do_DELETE = do_POST = any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


srv = Server(("127.0.0.1", 0), Handler)
with open(portfile + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(portfile + ".tmp", portfile)
threading.Timer(3600, lambda: os._exit(0)).start()
srv.serve_forever()
