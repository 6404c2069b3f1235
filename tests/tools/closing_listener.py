#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""closing_listener.py PORTFILE - a TCP listener on 127.0.0.1 that accepts
each connection, reads the request and closes it without a byte: a server that
"returned nothing". Writes its port to PORTFILE once listening; stops by
itself after 30 s without a connection or after 50 connections."""
import os
import socket
import sys

s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
s.settimeout(30)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(f"{s.getsockname()[1]}\n")
# renamed: the port file appears whole
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
for _ in range(50):
    try:
        c, _ = s.accept()
    except socket.timeout:
        break
    # the request read first: the close is a clean end (FIN), not a reset
    c.settimeout(5)
    try:
        c.recv(65536)
    except OSError:
        pass
    c.close()
