#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""capture_server.py - a receiver that records where credentials arrive, for
tests/e2e/farm/upload_paths.sh: http.server on 127.0.0.1 (a free port, written to
--port-file) answering every POST with 200 (204 for InfluxDB's /write, as
InfluxDB does) and recording one JSON line per request in --record:

  {"method", "target": the request target as sent,
   "resolved": the path as a server resolves it (percent-decoded once, '\\'
               taken as '/', "." and ".." segments removed, RFC 3986 5.2.4),
   "auth": every header that can carry a credential (Authorization,
           Proxy-Authorization, Auth-Token (SQUAD), X-Auth-Token, Cookie),
           Basic credentials decoded}

It reads at most --max-body bytes of a body and stops by itself after
--max-seconds (default 60)."""
import argparse
import base64
import json
import os
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

ARGS = None
LOCK = threading.Lock()
AUTH = ("authorization", "proxy-authorization", "auth-token", "x-auth-token", "cookie")


def resolve(target):
    path = target.split("?", 1)[0].split("#", 1)[0]
    path = urllib.parse.unquote(path, errors="replace").replace("\\", "/")
    out = []
    for seg in path.split("/")[1:]:
        if seg == "..":
            if out:
                out.pop()
        elif seg != ".":
            out.append(seg)
    last = path.rsplit("/", 1)[-1]
    return "/" + "/".join(out) + ("/" if last in (".", "..") and out else "")


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *a):
        pass

    def do_POST(self):
        n = min(int(self.headers.get("Content-Length", "0") or 0), ARGS.max_body)
        self.rfile.read(n)
        auth = {}
        for k, v in self.headers.items():
            if k.lower() in AUTH:
                if k.lower() == "authorization" and v.startswith("Basic "):
                    try:
                        v = "Basic " + base64.b64decode(v[6:]).decode("utf-8", "replace")
                    except ValueError:
                        pass
                auth[k] = v
        rec = {"method": self.command, "target": self.path, "resolved": resolve(self.path),
               "auth": auth}
        with LOCK, open(ARGS.record, "a") as f:
            f.write(json.dumps(rec) + "\n")
        status = 204 if rec["resolved"].endswith("/write") else 200
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--max-body", type=int, default=64 << 20)
    p.add_argument("--max-seconds", type=float, default=60)
    ARGS = p.parse_args()
    srv = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Timer(ARGS.max_seconds, srv.shutdown).start()
    with open(ARGS.port_file + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(ARGS.port_file + ".tmp", ARGS.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
