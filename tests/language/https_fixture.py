"""A local HTTPS intercepting proxy for the language tests whose programs
fetch https URLs (remote assets and archives) on a machine with no
internet: minipulumi is started with HTTPS_PROXY pointing here and
SSL_CERT_FILE naming a CA made for the run; this proxy answers CONNECT,
ends the TLS itself with a certificate for the host asked for (signed by
that CA, made with the openssl command) and serves the test's own files
for the URLs it is given. Any other URL is a 404. Listens on 127.0.0.1
only; every connection has a time limit; it stops with the test.
"""
import os
import socket
import socketserver
import ssl
import subprocess
import threading

TIMEOUT = 30  # seconds a connection may stay idle

_CA_CONF = """[req]
distinguished_name = dn
prompt = no
x509_extensions = ca
[dn]
CN = minipulumi language tests CA
[ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
"""

_LEAF_EXT = """[leaf]
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:%s
authorityKeyIdentifier = keyid
"""


def _openssl(*args, cwd):
    p = subprocess.run(["openssl"] + list(args), cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("openssl %s failed: %s" % (args[0], p.stderr.strip()))


class Fixture:
    """routes: "https://host/path" -> the local file served for it."""

    def __init__(self, routes, workdir):
        self.routes = dict(routes)
        self.dir = os.path.join(workdir, "https-fixture")
        os.makedirs(self.dir, exist_ok=True)
        self.served = []  # the URLs answered with a file
        self._contexts = {}
        self._lock = threading.Lock()
        self._server = None

    # ---- certificates

    def _make_ca(self):
        with open(os.path.join(self.dir, "ca.cnf"), "w") as f:
            f.write(_CA_CONF)
        _openssl("req", "-x509", "-config", "ca.cnf", "-newkey", "ec",
                 "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                 "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", cwd=self.dir)
        self.ca_file = os.path.join(self.dir, "ca.pem")

    def _context_for(self, host):
        """A server TLS context with a certificate for |host| (made once)."""
        with self._lock:
            if host in self._contexts:
                return self._contexts[host]
            name = "".join(c if c.isalnum() or c in ".-" else "_" for c in host)
            with open(os.path.join(self.dir, name + ".ext"), "w") as f:
                f.write(_LEAF_EXT % host)
            _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                     "-nodes", "-keyout", name + ".key", "-out", name + ".csr",
                     "-subj", "/CN=" + host, cwd=self.dir)
            _openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                     "-set_serial", str(len(self._contexts) + 2), "-days", "2",
                     "-extfile", name + ".ext", "-extensions", "leaf", "-out", name + ".pem",
                     cwd=self.dir)
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(os.path.join(self.dir, name + ".pem"),
                                os.path.join(self.dir, name + ".key"))
            self._contexts[host] = ctx
            return ctx

    # ---- the proxy

    def start(self):
        self._make_ca()
        fixture = self

        class Handler(socketserver.StreamRequestHandler):
            timeout = TIMEOUT

            def handle(self):
                fixture._handle(self)

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self._server = Server(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def env(self):
        """What minipulumi is given: the proxy (for https URLs only) and
        the CA to trust; NO_PROXY emptied so that no host skips it."""
        return {"HTTPS_PROXY": "http://127.0.0.1:%d" % self.port, "https_proxy": "",
                "NO_PROXY": "", "no_proxy": "", "SSL_CERT_FILE": self.ca_file}

    def stop(self):
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _handle(self, h):
        head = _read_head(h.rfile)
        if not head:
            return
        parts = head[0].split()
        if len(parts) < 2 or parts[0] != "CONNECT":
            h.wfile.write(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n"
                          b"Connection: close\r\n\r\n")
            return
        host = parts[1].rsplit(":", 1)[0]
        h.wfile.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        h.wfile.flush()
        try:
            tls = self._context_for(host).wrap_socket(h.connection, server_side=True)
        except (ssl.SSLError, OSError):
            return  # the client would not trust us: its error says why
        try:
            tls.settimeout(TIMEOUT)
            rfile = tls.makefile("rb")
            req = _read_head(rfile)
            if not req:
                return
            method, target = (req[0].split() + ["", ""])[:2]
            url = "https://%s%s" % (host, target.split("?", 1)[0])
            path = self.routes.get(url)
            if method != "GET" or path is None:
                body, status = b"not served by the test's proxy\n", b"404 Not Found"
            else:
                with open(path, "rb") as f:
                    body, status = f.read(), b"200 OK"
                self.served.append(url)
            tls.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Length: " +
                        str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
        except (OSError, socket.timeout):
            pass
        finally:
            try:
                tls.close()
            except OSError:
                pass


def _read_head(rfile):
    """The request line and header lines, up to the blank line."""
    lines = []
    while len(lines) < 100:
        line = rfile.readline(8192)
        if not line:
            return lines
        line = line.decode("latin-1").rstrip("\r\n")
        if not line:
            return lines
        lines.append(line)
    return lines


def main():
    """For a shell test: serves --route URL=FILE ... from a proxy whose CA
    is made in --dir; prints "port N ca PATH" once listening; stops when
    killed, or after --lifetime seconds."""
    import argparse
    import time
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--route", action="append", default=[])
    ap.add_argument("--lifetime", type=float, default=300)
    a = ap.parse_args()
    routes = dict(r.rsplit("=", 1) for r in a.route)
    with Fixture(routes, a.dir) as fx:
        print("port %d ca %s" % (fx.port, fx.ca_file), flush=True)
        time.sleep(a.lifetime)


if __name__ == "__main__":
    main()
