#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A file server on 127.0.0.1 for tests/e2e/package/th_assets.sh (test only).

Serves DIR over HTTP, or HTTPS with --cert/--key; honours single Range
requests ("bytes=N-") with 206 unless --no-range; --cut-after N cuts the
first response that starts at byte 0 after N body bytes (the connection
is closed mid-file). Each request is logged to --log as
"GET /path range=<Range header or ->". The chosen port is written to
--port-file once listening.
"""
import argparse
import http.server
import os
import ssl
import sys
import threading

args = None
cut_done = threading.Event()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        pass

    def do_GET(self):
        rng = self.headers.get("Range")
        with open(args.log, "a") as f:
            f.write("GET %s range=%s\n" % (self.path, rng or "-"))
        name = os.path.basename(self.path.split("?")[0])
        path = os.path.join(args.dir, name)
        if not name or not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, "rb").read()
        start = 0
        if rng and not args.no_range and rng.startswith("bytes=") and rng.endswith("-"):
            start = int(rng[6:-1])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(data))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if start == 0 and args.cut_after is not None and not cut_done.is_set():
            cut_done.set()
            self.wfile.write(body[: args.cut_after])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--no-range", action="store_true")
    p.add_argument("--cut-after", type=int)
    args = p.parse_args()
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if args.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.cert, args.key)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
