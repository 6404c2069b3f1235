#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fake_th_server.py - a hostile or slow th_server for tests/e2e/server/remote_trust.sh:
http.server on 127.0.0.1 (a free port, written to --port-file) that forwards
every request to a real th_server (--upstream URL) and bends what the tests
ask for:

  --wait-set KEY=JSON     the reply to POST .../txns/T/wait gets KEY = JSON
  --wait-del KEY          ... loses KEY
  --wait-trim KEY         ... loses the last item of the array KEY
  --wait-append TEXT      ... gets TEXT before its last '}' (duplicate keys)
  --txn-set KEY=JSON     the reply to POST .../txns (a new transaction) gets
                          KEY = JSON
  --txn-del KEY           ... loses KEY
  --graph-set KEY=JSON    the reply to GET .../graphs/NAME gets KEY = JSON
  --session-set KEY=JSON  the reply to POST /v1/sessions (a new session) gets
                          KEY = JSON
  --delay-wait S          ... and the reply to a graph's wait come S seconds
                          late, no byte before them
  --stall-health S        GET /v1/health answers after S silent seconds
  --queued-forever P      POST /v1/sessions: a session queued at position P
                          that never becomes active
  --artifacts N:BYTES[:SENT]  the session's artifacts: N files listed with
                          BYTES each, SENT bytes (default BYTES) sent for each

One line per request goes to stderr. It stops by itself after --max-seconds
(default 120)."""
import argparse
import http.client
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGS = None
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
       "proxy-authorization", "proxy-authenticate", "host", "content-length"}


def bend_wait(body):
    o = json.loads(body)
    for kv in ARGS.wait_set:
        k, v = kv.split("=", 1)
        o[k] = json.loads(v)
    for k in ARGS.wait_del:
        o.pop(k, None)
    for k in ARGS.wait_trim:
        o[k] = o[k][:-1]
    text = json.dumps(o)
    if ARGS.wait_append:
        text = text[:text.rindex("}")] + ARGS.wait_append + "}"
    return text.encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        sys.stderr.write("fake_th_server: %s\n" % (fmt % a))

    def reply(self, status, body=b"", ctype="application/json", extra=None):
        self.send_response(status)
        if body or status not in (204, 304):
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def handle_one(self):
        path = self.path
        body = self.body()
        if ARGS.stall_health and path == "/v1/health":
            time.sleep(ARGS.stall_health)
        if ARGS.queued_forever is not None:
            q = json.dumps({"id": "s-fake", "state": "queued",
                            "position": ARGS.queued_forever}).encode()
            if self.command == "POST" and path == "/v1/sessions":
                return self.reply(201, q)
            if path.startswith("/v1/sessions/s-fake"):
                return self.reply(204 if self.command == "DELETE" else 200,
                                  b"" if self.command == "DELETE" else q)
        m = re.fullmatch(r"/v1/sessions/([^/]+)/artifacts(?:/([^/]+))?", path)
        if ARGS.artifacts and m:
            n, size, sent = ARGS.artifacts
            if not m.group(2):
                files = [{"name": "big%d.bin" % i, "bytes": size} for i in range(n)]
                return self.reply(200, json.dumps({"artifacts": files}).encode())
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(sent))
            self.end_headers()
            left = sent
            chunk = b"\0" * 65536
            try:
                while left:
                    k = min(left, len(chunk))
                    self.wfile.write(chunk[:k])
                    left -= k
            except OSError:
                pass  # the client stopped reading: what the test wants
            self.close_connection = True
            return None
        is_wait = self.command == "POST" and re.fullmatch(r"/v1/sessions/[^/]+/txns/[^/]+/wait",
                                                         path)
        graph_wait = self.command == "POST" and re.fullmatch(
            r"/v1/sessions/[^/]+/graphs/[^/]+/wait", path)
        if (is_wait or graph_wait) and ARGS.delay_wait:
            time.sleep(ARGS.delay_wait)
        return self.forward(body, bool(is_wait))

    def forward(self, body, is_wait):
        u = urllib.parse.urlsplit(ARGS.upstream)
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=300)
        hdrs = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        conn.request(self.command, self.path, body=body if body or self.command in
                     ("POST", "PUT") else None, headers=hdrs)
        r = conn.getresponse()
        data = r.read()
        conn.close()
        if is_wait and r.status == 200:
            data = bend_wait(data)
        if ((ARGS.txn_set or ARGS.txn_del) and self.command == "POST" and r.status == 201 and
                re.fullmatch(r"/v1/sessions/[^/]+/txns", self.path)):
            o = json.loads(data)
            for kv in ARGS.txn_set:
                k, v = kv.split("=", 1)
                o[k] = json.loads(v)
            for k in ARGS.txn_del:
                o.pop(k, None)
            data = json.dumps(o).encode()
        if (ARGS.session_set and self.command == "POST" and r.status == 201 and
                self.path == "/v1/sessions"):
            o = json.loads(data)
            for kv in ARGS.session_set:
                k, v = kv.split("=", 1)
                o[k] = json.loads(v)
            data = json.dumps(o).encode()
        if (ARGS.graph_set and self.command == "GET" and r.status == 200 and
                re.fullmatch(r"/v1/sessions/[^/]+/graphs/[^/]+", self.path)):
            o = json.loads(data)
            for kv in ARGS.graph_set:
                k, v = kv.split("=", 1)
                o[k] = json.loads(v)
            data = json.dumps(o).encode()
        extra = {k: v for k, v in r.getheaders()
                 if k.lower() not in HOP and k.lower() != "content-type"}
        if self.command == "HEAD":
            self.send_response(r.status)
            for k, v in extra.items():
                self.send_header(k, v)
            self.send_header("Content-Length", r.getheader("Content-Length") or "0")
            self.end_headers()
            return None
        return self.reply(r.status, data, r.getheader("Content-Type") or "application/json",
                          extra)

    def do_any(self):
        try:
            self.handle_one()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_any


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--upstream", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--max-seconds", type=float, default=120)
    p.add_argument("--wait-set", action="append", default=[])
    p.add_argument("--wait-del", action="append", default=[])
    p.add_argument("--wait-trim", action="append", default=[])
    p.add_argument("--wait-append", default="")
    p.add_argument("--txn-set", action="append", default=[])
    p.add_argument("--txn-del", action="append", default=[])
    p.add_argument("--graph-set", action="append", default=[])
    p.add_argument("--session-set", action="append", default=[])
    p.add_argument("--delay-wait", type=float, default=0)
    p.add_argument("--stall-health", type=float, default=0)
    p.add_argument("--queued-forever", type=int)
    p.add_argument("--artifacts")
    ARGS = p.parse_args()
    if ARGS.artifacts:
        f = [int(x) for x in ARGS.artifacts.split(":")]
        ARGS.artifacts = (f[0], f[1], f[2] if len(f) > 2 else f[1])
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    tmp = ARGS.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, ARGS.port_file)
    threading.Timer(ARGS.max_seconds, srv.shutdown).start()
    srv.serve_forever()


if __name__ == "__main__":
    main()
