/* SPDX-License-Identifier: MIT */
/*
 * xrt_sysfs.c - the stand-in AI Engine driver sysfs tree a stalled board
 * would show (xrt_sysfs.h). The formats are the driver's, as the parsers
 * of harness/src/aie/aie_parse.c read them: a core's "status: a|b", "pc:",
 * "lr:", "sp:"; a lock per line "N: S"; a DMA's channel_status,
 * queue_size, queue_status and current_bd lines, "mm2s: x|y, s2mm: x|y".
 *
 * What a graph model's wait becomes (a stand-in, not a claim about a real
 * kernel's code): an input waiting for data is a lock stall on the west
 * memory (its input window's lock); an output waiting for space a stream
 * stall on MS0; a kernel inside an iteration that does not end (a
 * deadlock, as the adder model's stall_after imitates) a lock stall on
 * its own (south) memory; a kernel done with its iterations Core_Done.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "xrt_sysfs.h"

#define MAX_COLS 128

static int mkdirs(const char *path)
{
	char p[1024];
	size_t i, n = strlen(path);
	if (n >= sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(p, path, n + 1);
	for (i = 1; i <= n; i++)
		if (p[i] == '/' || p[i] == '\0') {
			char c = p[i];
			p[i] = '\0';
			if (mkdir(p, 0777) != 0 && errno != EEXIST)
				return -1;
			p[i] = c;
		}
	return 0;
}

static int put(const char *dir, const char *name, const char *text)
{
	char path[1200];
	FILE *f;
	int rc;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		return -1;
	rc = fputs(text, f) < 0;
	if (fclose(f) != 0)
		rc = 1;
	return rc ? -1 : 0;
}

/* The core flag of a kernel whose ports are s->ports[first..end). */
static const char *core_flag(const aie_state *s, int first, int end)
{
	int i, in = 0, out = 0, busy = 0;
	for (i = first; i < end; i++) {
		in |= s->ports[i].state == AIE_PORT_WAIT_INPUT;
		out |= s->ports[i].state == AIE_PORT_WAIT_OUTPUT;
		busy |= s->ports[i].state == AIE_PORT_WAIT_KERNEL;
	}
	return in     ? "west_lock_stall"
	       : out  ? "stream_stall_ms0"
	       : busy ? "south_lock_stall"
		      : "core_done";
}

int dbl_sysfs_write(const char *root, const aie_state *s, int aie_ml)
{
	char part[1024], tile[1100], text[512];
	int rows[MAX_COLS] = {0}, shim_q[MAX_COLS][2];
	int i, j, minc = MAX_COLS, maxc = -1, base = aie_ml ? 3 : 1, k = 0;
	memset(shim_q, 0, sizeof shim_q);
	for (i = 0; i < s->nports; i++) {
		int c = s->ports[i].shim_col;
		if (c < 0 || c >= MAX_COLS)
			continue;
		minc = c < minc ? c : minc;
		maxc = c > maxc ? c : maxc;
		if (!s->ports[i].to_aie && s->ports[i].bytes < s->ports[i].expected_bytes)
			shim_q[c][s->ports[i].shim_chan & 1] = 2;
	}
	if (maxc < 0) {
		errno = ENOENT; /* no port placed: nothing to show */
		return -1;
	}
	snprintf(part, sizeof part, "%s/class/aie/aiepart_%d_%d", root, minc, maxc - minc + 1);
	/* per kernel (consecutive ports of one graph and kernel) a core tile */
	for (i = 0; i < s->nports; i = j, k++) {
		const aie_port *p = &s->ports[i];
		int c = p->shim_col, r;
		for (j = i + 1; j < s->nports && !strcmp(s->ports[j].graph, p->graph) &&
				!strcmp(s->ports[j].kernel, p->kernel);
		     j++)
			;
		if (c < 0 || c >= MAX_COLS)
			continue;
		r = base + rows[c]++;
		snprintf(tile, sizeof tile, "%s/%d_%d", part, c, r);
		if (mkdirs(tile))
			return -1;
		snprintf(text, sizeof text, "status: %s|%s\npc: 0x%08x\nlr: 0x%08x\nsp: 0x%08x\n",
			 aie_ml ? "enable" : "enabled", core_flag(s, i, j),
			 0x230u + 0x40u * (unsigned)k, 0x1f0u, 0x70020u);
		if (put(tile, "core", text))
			return -1;
		/* lock 0 held by the input side, the others free */
		text[0] = '\0';
		for (r = 0; r < 16; r++) {
			size_t l = strlen(text);
			snprintf(text + l, sizeof text - l, "%d: %s\n", r,
				 aie_ml ? (r == 0 ? "1" : "0")
					: (r == 0 ? "acquired_for_read" : "released_for_write"));
		}
		if (put(tile, "lock", text))
			return -1;
	}
	/* per shim column used, its DMA: S2MM idle with BDs queued where an RX
	 * PLIO did not get its bytes */
	for (i = minc; i <= maxc; i++) {
		int used = 0;
		for (j = 0; j < s->nports; j++)
			used |= s->ports[j].shim_col == i;
		if (!used)
			continue;
		snprintf(tile, sizeof tile, "%s/%d_0", part, i);
		if (mkdirs(tile))
			return -1;
		snprintf(text, sizeof text,
			 "channel_status: mm2s: idle|idle, s2mm: idle|idle\n"
			 "queue_size: mm2s: 0|0, s2mm: %d|%d\n"
			 "queue_status: mm2s: okay|okay, s2mm: okay|okay\n"
			 "current_bd: mm2s: 0|0, s2mm: %d|%d\n",
			 shim_q[i][0], shim_q[i][1], shim_q[i][0] ? 4 : 0, shim_q[i][1] ? 5 : 0);
		if (put(tile, "dma", text))
			return -1;
	}
	return 0;
}
