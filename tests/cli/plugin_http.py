"""A plugin download server for the CLI tests, on 127.0.0.1 only.

    python3 plugin_http.py MODE [FILE]

prints "port N" once it listens, logs each request's path to stdout, and
stops by itself after 300 s (or when killed). MODE:
  file      answers every GET with FILE (whatever the path asked);
  stall     sends the headers of a 1 MB answer, then nothing (for up to
            60 s per request);
  redirect  answers every GET with a 302 to the same path.
"""
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = sys.argv[1]
FILE = sys.argv[2] if len(sys.argv) > 2 else None


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        print("GET", self.path, flush=True)
        if MODE == "file":
            with open(FILE, "rb") as f:
                body = f.read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif MODE == "stall":
            self.send_response(200)
            self.send_header("Content-Length", str(1 << 20))
            self.end_headers()
            self.wfile.flush()
            time.sleep(60)
        elif MODE == "redirect":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("port", server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
time.sleep(300)
