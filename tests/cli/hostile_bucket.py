#!/usr/bin/env python3
"""A hostile S3 / Azure Blob server for the CLI tests: hostile_bucket.py
PORTFILE MODE listens on a free port of 127.0.0.1, writes the port into
PORTFILE and answers every request by MODE:
  looplist  a listing that says there is more, with the same token (or
            marker) each time; objects are missing, writes succeed
  stall     the headers of a 200 answer, then nothing
  bigclaim  a 200 answer that announces 4 GiB, then closes"""
import http.server
import socketserver
import sys
import time

portfile, mode = sys.argv[1], sys.argv[2]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, body, headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def any(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        if mode == "stall":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.flush()
            time.sleep(3600)
            return
        if mode == "bigclaim":
            self.send_response(200)
            self.send_header("Content-Length", str(1 << 32))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"x" * 1024)
            self.close_connection = True
            return
        if self.command == "PUT":
            self.answer(201, b"")
        elif "list-type=2" in self.path:
            self.answer(200, b"<?xml version='1.0'?><ListBucketResult>"
                        b"<IsTruncated>true</IsTruncated><NextContinuationToken>"
                        b"same</NextContinuationToken></ListBucketResult>")
        elif "comp=list" in self.path:
            self.answer(200, b"<?xml version='1.0'?><EnumerationResults>"
                        b"<Blobs/><NextMarker>same</NextMarker>"
                        b"</EnumerationResults>")
        elif self.path.startswith("/devstoreaccount1/"):
            self.answer(404, b"<?xml version='1.0'?><Error><Code>"
                        b"BlobNotFound</Code><Message>no</Message></Error>",
                        [("x-ms-error-code", "BlobNotFound")])
        else:
            self.answer(404, b"<?xml version='1.0'?><Error><Code>NoSuchKey"
                        b"</Code><Message>no</Message></Error>")

    do_GET = do_PUT = do_HEAD = do_DELETE = do_POST = any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


srv = Server(("127.0.0.1", 0), Handler)
with open(portfile + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os  # noqa: E402
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
