#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""farm_server.py - a stand-in for SQUAD and a JSON webhook receiver for
tests/e2e/farm/farm_upload.sh: http.server on 127.0.0.1 (a free port, written to
--port-file), checking each request the way the real receiver would and
recording one JSON line per request in --record.

  POST /api/submit/TEAM/PROJECT/BUILD/ENV  SQUAD's submit API: multipart
      fields tests, metrics, metadata (JSON objects), Auth-Token header
  POST /hook...                            a webhook: a JSON body with
      "schema": "aieth-report/1" or "/2", Authorization: Bearer TOKEN
  a path containing /status-NNN/ answers NNN (400, 503, ...)

It stops by itself after --max-seconds (default 120)."""
import argparse
import email.parser
import email.policy
import json
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

ARGS = None
LOCK = threading.Lock()


def check_squad(h, body, problems, rec):
    if ARGS.token and h.get("Auth-Token") != ARGS.token:
        problems.append("Auth-Token header missing or wrong")
    ctype = h.get("Content-Type", "")
    if not ctype.startswith("multipart/form-data; boundary="):
        problems.append("not multipart/form-data: " + ctype)
        return
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + body)
    fields = {}
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields.setdefault(name, []).append(part.get_content())
    rec["fields"] = sorted(fields)
    for name in ("tests", "metrics", "metadata"):
        if name not in fields:
            problems.append("no field " + name)
            continue
        raw = fields[name][0]
        try:
            val = json.loads(raw if isinstance(raw, str) else raw.decode())
        except ValueError as e:
            problems.append("%s: not JSON: %s" % (name, e))
            continue
        if not isinstance(val, dict):
            problems.append(name + ": not an object")
        rec[name] = val
    for k, v in rec.get("tests", {}).items():
        if v not in ("pass", "fail", "skip") or "/" not in k:
            problems.append("test %r: %r" % (k, v))
    for k, v in rec.get("metrics", {}).items():
        if not isinstance(v, (int, float)):
            problems.append("metric %r is not a number" % k)


def check_hook(h, body, problems, rec):
    if ARGS.token and h.get("Authorization") != "Bearer " + ARGS.token:
        problems.append("Authorization: Bearer header missing or wrong")
    if not h.get("Content-Type", "").startswith("application/json"):
        problems.append("Content-Type is not application/json")
    try:
        rep = json.loads(body)
        if rep.get("schema") not in ("aieth-report/1", "aieth-report/2"):
            problems.append("not an aieth report")
        rec["run_id"] = rep.get("run", {}).get("id")
        rec["has_uploads"] = "uploads" in rep
    except ValueError as e:
        problems.append("body not JSON: %s" % e)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *a):
        pass

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        problems, rec = [], {"path": self.path, "bytes": n}
        m = re.search(r"/status-(\d{3})/", self.path)
        status = int(m.group(1)) if m else 200
        if re.match(r"^/([^/]+/)*api/submit/[^/]+/[^/]+/[^/]+/[^/]+$", self.path):
            rec["kind"] = "squad"
            check_squad(self.headers, body, problems, rec)
        elif "/hook" in self.path:
            rec["kind"] = "webhook"
            check_hook(self.headers, body, problems, rec)
        else:
            rec["kind"] = "?"
            problems.append("unknown path")
            status = 404
        if any("Auth" in x for x in problems):
            status = 401  # as a real server: the payload is refused
        if ARGS.save_dir and rec["kind"] != "?":
            n_saved = len(os.listdir(ARGS.save_dir))
            with open(os.path.join(ARGS.save_dir, "%03d.%s" % (n_saved, rec["kind"])), "wb") as f:
                f.write(body)
        rec["problems"] = problems
        rec["status"] = status
        with LOCK, open(ARGS.record, "a") as f:
            f.write(json.dumps(rec) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--token", default="")
    p.add_argument("--save-dir", default="", help="each request's body, numbered")
    p.add_argument("--max-seconds", type=float, default=120)
    ARGS = p.parse_args()
    srv = HTTPServer(("127.0.0.1", ARGS.port), Handler)
    threading.Timer(ARGS.max_seconds, srv.shutdown).start()
    with open(ARGS.port_file + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(ARGS.port_file + ".tmp", ARGS.port_file)
    srv.serve_forever()
    sys.exit(0)


if __name__ == "__main__":
    main()
