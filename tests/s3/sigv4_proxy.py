"""A proxy in front of the test S3 server that checks every request's AWS
Signature Version 4 as S3 does, since s3rver accepts any signature of a
known key: the canonical request (method, path, sorted query, the signed
headers, the x-amz-content-sha256 payload hash, which must be the body's),
the string to sign and the HMAC chain of the secret. A request that fails
is answered 403 SignatureDoesNotMatch (or XAmzContentSHA256Mismatch) and
counted; the others are passed on. Standard library only."""
import hashlib
import hmac
import http.client
import http.server
import threading
import urllib.parse

UNRESERVED = "-_.~"


def enc(s):
    return urllib.parse.quote(s, safe=UNRESERVED)


def canonical_query(raw):
    pairs = []
    for part in raw.split("&") if raw else []:
        k, _, v = part.partition("=")
        pairs.append((enc(urllib.parse.unquote(k)), enc(urllib.parse.unquote(v))))
    return "&".join("%s=%s" % kv for kv in sorted(pairs))


def hm(key, msg):
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


def check(method, target, headers, body, secret):
    """None if the request is signed right, else (code, why)."""
    auth = headers.get("Authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return ("AccessDenied", "no SigV4 Authorization header")
    fields = dict(p.strip().split("=", 1) for p in auth[17:].split(","))
    cred = fields["Credential"].split("/")
    date, region, service = cred[1], cred[2], cred[3]
    signed = fields["SignedHeaders"].split(";")
    payload = headers.get("x-amz-content-sha256")
    if payload is None or "x-amz-content-sha256" not in signed:
        return ("AccessDenied", "x-amz-content-sha256 missing or unsigned")
    if payload != hashlib.sha256(body).hexdigest():
        return ("XAmzContentSHA256Mismatch", "payload hash is not the body's")
    path, _, query = target.partition("?")
    lines = []
    for h in signed:
        v = headers.get(h)
        if v is None:
            return ("SignatureDoesNotMatch", "signed header %s missing" % h)
        lines.append("%s:%s\n" % (h, " ".join(v.split())))
    creq = "\n".join([method, path, canonical_query(query), "".join(lines),
                      ";".join(signed), payload])
    amzdate = headers.get("x-amz-date", "")
    scope = "/".join(cred[1:])
    sts = "\n".join(["AWS4-HMAC-SHA256", amzdate, scope,
                     hashlib.sha256(creq.encode()).hexdigest()])
    k = hm(("AWS4" + secret).encode(), date)
    k = hm(hm(hm(k, region), service), "aws4_request")
    want = hmac.new(k, sts.encode(), hashlib.sha256).hexdigest()
    if want != fields["Signature"]:
        return ("SignatureDoesNotMatch", "canonical request:\n" + creq)
    return None


class Proxy:
    def __init__(self, upstream_port, secret, log, requests=None,
                 connections=None):
        """|requests|: a file name; each request appends "METHOD PATH".
        |connections|: a file name; each connection a client opens appends
        a line (requests on a kept-alive connection do not)."""
        self.bad = 0
        self.good = 0
        self.requests = requests
        self.connections = connections
        self.requests_mu = threading.Lock()
        proxy = self

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                super().setup()
                if proxy.connections:
                    with proxy.requests_mu, open(proxy.connections, "a") as f:
                        f.write("%s:%d\n" % self.client_address)

            def handle_one(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                why = check(self.command, self.path, self.headers, body, secret)
                if why:
                    proxy.bad += 1
                    log.write("sigv4: %s %s: %s: %s\n" % (self.command, self.path, why[0], why[1]))
                    log.flush()
                    out = ("<?xml version=\"1.0\"?><Error><Code>%s</Code><Message>"
                           "The request signature we calculated does not match the "
                           "signature you provided.</Message></Error>" % why[0]).encode()
                    self.send_response(403)
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(out)
                    return
                proxy.good += 1
                if proxy.requests:
                    with proxy.requests_mu, open(proxy.requests, "a") as f:
                        f.write("%s %s\n" % (self.command, self.path))
                c = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=120)
                hdrs = {k: v for k, v in self.headers.items()
                        if k.lower() not in ("connection", "content-length")}
                c.request(self.command, self.path, body=body if body or self.command == "PUT" else None,
                          headers=hdrs)
                r = c.getresponse()
                data = r.read()
                self.send_response(r.status)
                for k, v in r.getheaders():
                    if k.lower() not in ("connection", "transfer-encoding", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)) if self.command != "HEAD"
                                 else r.getheader("Content-Length", "0"))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
                c.close()

            do_GET = do_PUT = do_HEAD = do_DELETE = do_POST = handle_one

            def log_message(self, *a):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
