#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench-host.sh - one line naming the host a benchmark ran on, printed first
# by `make bench`: wall-time ratios move with the host (CPU, core count,
# virtual machine or not), so a figure is quoted with the machine it came from.
#
#   host: <CPU model>, <N> CPUs (nproc <M>), <arch>, Linux <release>;
#         virtual machine: <kvm|none|unknown> (hypervisor flag: yes|no);
#         container: <docker|none|unknown>; load <1-minute load average>
#
# Sources: /proc/cpuinfo ("model name"; on Arm "CPU part" when no model name),
# the "hypervisor" CPU flag (x86: set by every common hypervisor), and
# systemd-detect-virt --vm / --container when installed. Never fails.
set -u

model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1)
if [ -z "$model" ]; then
	# Arm's /proc/cpuinfo has no model name: implementer and part numbers
	imp=$(sed -n 's/^CPU implementer[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1)
	part=$(sed -n 's/^CPU part[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1)
	if [ -n "$part" ]; then
		model="CPU implementer $imp part $part"
	else
		model="unknown CPU"
	fi
fi
cpus=$(grep -c '^processor' /proc/cpuinfo 2>/dev/null || echo '?')
n=$(nproc 2>/dev/null || echo '?')
if grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then flag=yes; else flag=no; fi
vm=unknown
ct=unknown
if command -v systemd-detect-virt >/dev/null 2>&1; then
	# prints "none" and exits 1 when there is none
	vm=$(systemd-detect-virt --vm 2>/dev/null) || vm=${vm:-none}
	ct=$(systemd-detect-virt --container 2>/dev/null) || ct=${ct:-none}
fi
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
echo "host: $model, $cpus CPUs (nproc $n), $(uname -m), Linux $(uname -r);" \
	"virtual machine: $vm (hypervisor flag: $flag); container: $ct; load $load"
