#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a run_test report.json's counters as the log of AMD's harness would
show them: per transaction, AMD's printPerf lines (TX channels first, then
RX, each in the description's order; channel numbers unpadded; the
throughput in MiB/s labelled "MBps", bytes x 312.5e6 / (last - first) / 2^20
printed as iostream does, i.e. %g), each behind AMD's logger prefix and
followed by the empty line of the message's own std::endl, as
include/ps/test_harness_transaction.hpp and test_harness_logging.hpp in
github.com/Xilinx/AI-Engine-Test-Harness print them. Between transactions, a
line of the test bench's own output (what a user's log holds).

usage: amd_printperf.py REPORT.json OUT.log [--scale F] [--no-prefix]
  --scale F   multiply every channel's last - first by F (a board slower
              or faster than the emulated one); first stays
  --no-prefix the bare messages, without "[date time] [INFO] "
"""
import json
import re
import sys


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    scale = 1.0
    if "--scale" in argv:
        scale = float(argv[argv.index("--scale") + 1])
        args.remove(argv[argv.index("--scale") + 1])
    prefix = "" if "--no-prefix" in argv else "[2026-01-01 12:00:00] [INFO] "
    report, out = args
    test = json.load(open(report))["tests"][0]
    lines = ["Test bench started (this line is the program's own output)"]
    for t in test["transactions"]:
        chans = t["channels"]
        ordered = [c for c in chans if c["direction"] == "to_aie"] + \
                  [c for c in chans if c["direction"] == "from_aie"]
        for c in ordered:
            n = int(re.match(r"PLIO_(\d+)_", c["plio"]).group(1))
            first = c["first_cycle"]
            span = round((c["last_cycle"] - first) * scale)
            last = first + span
            nbytes = c["size_bytes"] * c.get("repetition", 1)
            x = "inf" if span == 0 else "%g" % (nbytes * 312.5e6 / span / 1024.0 / 1024.0)
            if c["direction"] == "to_aie":
                msg = "PLIO_%d_TO_AIE send the first data at cycle[%d], ends at cycle[%d], " \
                      "and the throughputs is %s MBps." % (n, first, last, x)
            else:
                msg = "PLIO_%d_FROM_AIE received the first data at cycle[%d], ends at " \
                      "cycle[%d], and the throughputs is %s MBps." % (n, first, last, x)
            lines += [prefix + msg, ""]
        lines.append("The delay between PLIO_01_TO_AIE and PLIO_01_FROM_AIE is 42 clock cycles.")
    open(out, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv)
