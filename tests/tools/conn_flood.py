#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""conn_flood.py - clients without a token that try to fill th_server's
connection table (tests/e2e/server/server_lockout.sh): from each source address
(loopback: all of 127/8 is local on Linux), PER connections; the first
POLLERS of them poll GET /v1/health on a kept-alive connection (one request
a second), the others hold a request head that never ends (a header line a
second, as a slow client would). A connection the server closes is opened
again after REOPEN seconds, so the table stays full for as long as the
flood runs. Loopback only; stops when the STOP file exists or after MAX_S
seconds. Writes READY once every connection has been tried once, and on
exit prints what happened (opened, closed by the server).

usage: conn_flood.py PORT ADDR... --per N --pollers N --ready FILE --stop FILE
"""
import argparse
import os
import selectors
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("addrs", nargs="+")
    ap.add_argument("--per", type=int, default=9)
    ap.add_argument("--pollers", type=int, default=2)
    ap.add_argument("--ready", required=True)
    ap.add_argument("--stop", required=True)
    ap.add_argument("--reopen", type=float, default=0.5)
    ap.add_argument("--max-s", type=float, default=180)
    a = ap.parse_args()
    for ad in a.addrs:
        if not ad.startswith("127."):
            sys.exit("conn_flood.py: loopback source addresses only: " + ad)
    sel = selectors.DefaultSelector()
    # a connection: [addr, poller, socket or None, next action time, reopen time]
    conns = [[ad, i < a.pollers, None, 0.0, 0.0] for ad in a.addrs for i in range(a.per)]
    stats = {"opened": 0, "closed": 0, "refused_connect": 0}
    t_end = time.monotonic() + a.max_s

    def open_conn(c, now):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind((c[0], 0))
            s.settimeout(2)
            s.connect(("127.0.0.1", a.port))
            s.setblocking(False)
            head = b"GET /v1/health HTTP/1.1\r\nHost: x\r\n"
            s.send(head + (b"\r\n" if c[1] else b""))
        except OSError:
            s.close()
            stats["refused_connect"] += 1
            c[4] = now + a.reopen
            return
        stats["opened"] += 1
        c[2] = s
        c[3] = now + 1
        sel.register(s, selectors.EVENT_READ, c)

    def close_conn(c, now):
        sel.unregister(c[2])
        c[2].close()
        c[2] = None
        c[4] = now + a.reopen
        stats["closed"] += 1

    now = time.monotonic()
    for c in conns:
        open_conn(c, now)
    with open(a.ready, "w") as f:
        f.write("%d %d\n" % (stats["opened"], stats["refused_connect"]))
    while time.monotonic() < t_end and not os.path.exists(a.stop):
        for key, _ in sel.select(timeout=0.1):
            c = key.data
            try:
                d = c[2].recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                d = b""
            if not d:
                close_conn(c, time.monotonic())
        now = time.monotonic()
        for c in conns:
            if c[2] is None:
                if now >= c[4]:
                    open_conn(c, now)
            elif now >= c[3]:
                c[3] = now + 1
                try:
                    c[2].send(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n" if c[1] else b"X-Slow: 1\r\n")
                except OSError:
                    close_conn(c, now)
    print("conn_flood.py: %(opened)d connections opened, %(closed)d closed by the server, "
          "%(refused_connect)d connects failed" % stats)


if __name__ == "__main__":
    main()
