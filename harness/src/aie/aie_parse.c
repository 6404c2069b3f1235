/* SPDX-License-Identifier: MIT */
/*
 * aie/aie_parse.c - strict parsers of the AI Engine driver's per-tile
 * sysfs files (core, lock, dma), AIE and AIE-ML formats (the formats are
 * described in docs/on-board.md with the driver's source files named).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aie/aie_internal.h"
#include "aie/aie_state.h"

static const struct {
	const char *driver; /* the driver's spelling */
	const char *shown;  /* xbutil's */
} flags[AIE_CS_COUNT] = {
	{"enable", "Enable"},
	{"reset", "Reset"},
	{"south_memory_stall", "Memory_Stall_S"},
	{"west_memory_stall", "Memory_Stall_W"},
	{"north_memory_stall", "Memory_Stall_N"},
	{"east_memory_stall", "Memory_Stall_E"},
	{"south_lock_stall", "Lock_Stall_S"},
	{"west_lock_stall", "Lock_Stall_W"},
	{"north_lock_stall", "Lock_Stall_N"},
	{"east_lock_stall", "Lock_Stall_E"},
	{"stream_stall_ss0", "Stream_Stall_SS0"},
	{"stream_stall_ss1", "Stream_Stall_SS1"},
	{"stream_stall_ms0", "Stream_Stall_MS0"},
	{"stream_stall_ms1", "Stream_Stall_MS1"},
	{"cascade_stall_scd", "Cascade_Stall_SCD"},
	{"cascade_stall_mcd", "Cascade_Stall_MCD"},
	{"debug_halt", "Debug_Halt"},
	{"ecc_error_stall", "ECC_Error_Stall"},
	{"ecc_scrubbing_stall", "ECC_Scrubbing_Stall"},
	{"error_halt", "Error_Halt"},
	{"core_done", "Core_Done"},
	{"core_processor_bus_stall", "Core_Processor_Bus_Stall"},
};

static const char *const lock_states[4] = {"released_for_write", "acquired_for_write",
					   "released_for_read", "acquired_for_read"};

const char *aieth__aie_core_flag_name(unsigned bit)
{
	return bit < AIE_CS_COUNT ? flags[bit].shown : "?";
}

int aieth__aie__flag_bit(const char *name, size_t n)
{
	unsigned i;
	if (n == 7 && strncmp(name, "enabled", 7) == 0) /* AIE spells it so */
		return AIE_CS_ENABLE;
	for (i = 0; i < AIE_CS_COUNT; i++)
		if ((strlen(flags[i].driver) == n && strncmp(name, flags[i].driver, n) == 0) ||
		    (strlen(flags[i].shown) == n && strncasecmp(name, flags[i].shown, n) == 0))
			return (int)i;
	return -1;
}

int aieth__aie__fail(char *note, size_t cap, int line, const char *fmt, ...)
{
	va_list ap;
	int k = line > 0 ? snprintf(note, cap, "line %d: ", line) : 0;
	if (k < 0 || (size_t)k >= cap)
		k = 0;
	va_start(ap, fmt);
	vsnprintf(note + k, cap - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

int aieth__aie__next_line(aie_lines *l, const char **s, size_t *n)
{
	const char *e;
	if (l->p >= l->end)
		return 0;
	e = memchr(l->p, '\n', (size_t)(l->end - l->p));
	if (!e)
		e = l->end;
	*s = l->p;
	*n = (size_t)(e - l->p);
	l->p = e < l->end ? e + 1 : e;
	l->no++;
	return 1;
}

int aieth__aie__next_bar(aie_bars *b, const char **s, size_t *n)
{
	const char *bar;
	if (b->trailing)
		return -1;
	if (b->p >= b->end)
		return 0;
	bar = memchr(b->p, '|', (size_t)(b->end - b->p));
	*s = b->p;
	*n = bar ? (size_t)(bar - b->p) : (size_t)(b->end - b->p);
	b->p = bar ? bar + 1 : b->end;
	b->trailing = bar && b->p == b->end;
	return 1;
}

int aieth__aie__clean(const char *text, size_t len, char *note, size_t cap)
{
	size_t i;
	if (len > AIE_FILE_MAX)
		return aieth__aie__fail(note, cap, 0,
					"%zu bytes: larger than the driver writes (%d)", len,
					AIE_FILE_MAX);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c != '\n' && (c < 0x20 || c > 0x7e))
			return aieth__aie__fail(note, cap, 0, "byte %zu is 0x%02x: not text", i, c);
	}
	return 0;
}

int aieth__aie__starts(const char *s, size_t n, const char *key, const char **rest, size_t *rn)
{
	size_t k = strlen(key);
	if (n < k || strncmp(s, key, k) != 0)
		return 0;
	*rest = s + k;
	*rn = n - k;
	return 1;
}

int aieth__aie__number(const char *s, size_t n, uint32_t *v)
{
	char buf[24];
	char *e;
	unsigned long long x;
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	x = strtoull(buf, &e, 0);
	if (*e || x > 0xffffffffull)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int aieth__aie_parse_core(const char *text, size_t len, aie_tile *t, char *note, size_t cap)
{
	aie_lines l = {text, text + len, 0};
	const char *s, *r;
	size_t n, rn;
	int seen_status = 0;
	if (aieth__aie__clean(text, len, note, cap))
		return -1;
	t->has_core = 1;
	t->kind = AIE_TILE_CORE; /* only core tiles have the file */
	while (aieth__aie__next_line(&l, &s, &n)) {
		uint32_t *reg = NULL;
		if (n == 0)
			continue;
		if (aieth__aie__starts(s, n, "status: ", &r, &rn)) {
			seen_status = 1;
			if (rn == 11 && strncmp(r, "clock_gated", 11) == 0) {
				t->clock_gated = 1;
				continue;
			}
			if (rn == 8 && strncmp(r, "disabled", 8) == 0) {
				t->core_disabled = 1;
				continue;
			}
			{
				aie_bars b = {r, r + rn, 0};
				const char *f;
				size_t k;
				int more;
				while ((more = aieth__aie__next_bar(&b, &f, &k)) > 0) {
					int bit = aieth__aie__flag_bit(f, k);
					if (bit < 0)
						return aieth__aie__fail(
							note, cap, l.no,
							"core status flag '%.*s' is unknown",
							(int)(k > 40 ? 40 : k), f);
					t->core_flags |= 1u << bit;
				}
				if (more < 0)
					return aieth__aie__fail(note, cap, l.no,
								"core status ends with '|'");
			}
			continue;
		}
		if (aieth__aie__starts(s, n, "pc: ", &r, &rn))
			reg = &t->pc;
		else if (aieth__aie__starts(s, n, "lr: ", &r, &rn))
			reg = &t->lr;
		else if (aieth__aie__starts(s, n, "sp: ", &r, &rn))
			reg = &t->sp;
		else
			return aieth__aie__fail(note, cap, l.no,
						"'%.*s' is not status:, pc:, lr: or sp:",
						(int)(n > 40 ? 40 : n), s);
		if (aieth__aie__number(r, rn, reg))
			return aieth__aie__fail(note, cap, l.no, "'%.*s' is not a 32-bit number",
						(int)(rn > 40 ? 40 : rn), r);
	}
	if (!seen_status)
		return aieth__aie__fail(note, cap, 0, "no status: line (empty or cut short)");
	return 0;
}

int aieth__aie_parse_lock(const char *text, size_t len, aie_tile *t, char *note, size_t cap)
{
	aie_lines l = {text, text + len, 0};
	const char *s;
	size_t n;
	int kinds = 0; /* 1 values, 2 state strings */
	if (aieth__aie__clean(text, len, note, cap))
		return -1;
	t->nlocks = 0;
	while (aieth__aie__next_line(&l, &s, &n)) {
		const char *colon;
		uint32_t id, v;
		int i;
		if (n == 0)
			continue;
		colon = memchr(s, ':', n);
		if (!colon || colon + 1 >= s + n || colon[1] != ' ' ||
		    aieth__aie__number(s, (size_t)(colon - s), &id))
			return aieth__aie__fail(note, cap, l.no, "'%.*s' is not '<lock>: <status>'",
						(int)(n > 40 ? 40 : n), s);
		if (id != (uint32_t)t->nlocks)
			return aieth__aie__fail(note, cap, l.no,
						"lock %u out of order (expected %d)", id,
						t->nlocks);
		if (t->nlocks >= AIE_MAX_LOCKS)
			return aieth__aie__fail(note, cap, l.no, "more than %d locks",
						AIE_MAX_LOCKS);
		n = (size_t)(s + n - (colon + 2));
		s = colon + 2;
		if (n == 11 && strncmp(s, "clock_gated", 11) == 0) {
			t->clock_gated = 1;
			t->lock[t->nlocks++] = 0;
			continue;
		}
		for (i = 0; i < 4; i++)
			if (strlen(lock_states[i]) == n && strncmp(s, lock_states[i], n) == 0)
				break;
		if (i < 4) {
			kinds |= 2;
			t->lock[t->nlocks++] = (uint8_t)i;
		} else if (aieth__aie__number(s, n, &v) == 0 && v <= 255) {
			kinds |= 1;
			t->lock[t->nlocks++] = (uint8_t)v;
		} else {
			return aieth__aie__fail(
				note, cap, l.no,
				"lock %u: '%.*s' is neither a value nor a lock state", id,
				(int)(n > 40 ? 40 : n), s);
		}
	}
	if (kinds == 3)
		return aieth__aie__fail(note, cap, 0, "lock values and AIE lock states mixed");
	t->lock_is_state = kinds == 2;
	if (t->nlocks == 0)
		return aieth__aie__fail(note, cap, 0, "no lock lines (empty or cut short)");
	return 0;
}

/* "mm2s: a|b, s2mm: c|d" into up to AIE_MAX_CHAN tokens per direction. */
typedef struct {
	int n[2];
	char tok[2][AIE_MAX_CHAN][AIE_TOKEN_LEN];
} dirs;

static int split_dirs(const char *s, size_t n, dirs *d, char *note, size_t cap, int line)
{
	static const char *const key[2] = {"mm2s: ", "s2mm: "};
	const char *r, *all_end = s + n;
	size_t rn;
	int k;
	memset(d, 0, sizeof *d);
	for (k = 0; k < 2; k++) {
		const char *end;
		if (!aieth__aie__starts(s, n, key[k], &r, &rn))
			return aieth__aie__fail(note, cap, line, "'%s' expected at '%.*s'", key[k],
						(int)(n > 30 ? 30 : n), s);
		end = k == 0 ? NULL : r + rn;
		if (k == 0) {
			/* the directions are separated by ", " */
			const char *c = NULL, *q;
			for (q = r; q + 1 < r + rn; q++)
				if (q[0] == ',' && q[1] == ' ') {
					c = q;
					break;
				}
			if (!c)
				return aieth__aie__fail(note, cap, line, "no ', s2mm:' part");
			end = c;
		}
		{
			aie_bars b = {r, end, 0};
			const char *f;
			size_t len;
			int more;
			while ((more = aieth__aie__next_bar(&b, &f, &len)) > 0) {
				size_t j;
				if (d->n[k] >= AIE_MAX_CHAN)
					return aieth__aie__fail(note, cap, line,
								"more than %d %.4s channels",
								AIE_MAX_CHAN, key[k]);
				if (len == 0 || len >= AIE_TOKEN_LEN)
					return aieth__aie__fail(note, cap, line,
								"a %.4s channel's field is %s",
								key[k], len ? "too long" : "empty");
				for (j = 0; j < len; j++)
					if (!isalnum((unsigned char)f[j]) && f[j] != '_')
						return aieth__aie__fail(note, cap, line,
									"'%.*s' is not a word",
									(int)len, f);
				memcpy(d->tok[k][d->n[k]], f, len);
				d->tok[k][d->n[k]][len] = '\0';
				d->n[k]++;
			}
			if (more < 0)
				return aieth__aie__fail(note, cap, line, "a field ends with '|'");
		}
		if (k == 0) {
			s = end + 2;
			n = (size_t)(all_end - s);
		}
	}
	return 0;
}

int aieth__aie_parse_dma(const char *text, size_t len, aie_tile *t, char *note, size_t cap)
{
	static const char *const key[4] = {
		"channel_status: ", "queue_size: ", "queue_status: ", "current_bd: "};
	aie_lines l = {text, text + len, 0};
	const char *s, *r;
	size_t n, rn;
	int seen = 0, i, k;
	dirs dd, *d = &dd; /* 400 bytes: on the stack */
	if (aieth__aie__clean(text, len, note, cap))
		return -1;
	t->has_dma = 1;
	while (aieth__aie__next_line(&l, &s, &n)) {
		if (n == 0)
			continue;
		for (i = 0; i < 4; i++)
			if (aieth__aie__starts(s, n, key[i], &r, &rn))
				break;
		if (i == 4) {
			if (aieth__aie__starts(s, n, "fifo_len: ", &r,
					       &rn)) /* AIE only: not kept */
				continue;
			return aieth__aie__fail(note, cap, l.no, "'%.*s' is not a DMA status line",
						(int)(n > 40 ? 40 : n), s);
		}
		if (rn == 36 && strncmp(r, "mm2s: clock_gated, s2mm: clock_gated", 36) == 0) {
			t->clock_gated = 1;
			seen |= 1 << i;
			continue;
		}
		if (split_dirs(r, rn, d, note, cap, l.no)) {
			return -1;
		}
		if (i == 0) {
			t->nmm2s = d->n[0];
			t->ns2mm = d->n[1];
			for (k = 0; k < 2; k++) {
				aie_dma_chan *c = k ? t->s2mm : t->mm2s;
				int j;
				for (j = 0; j < d->n[k]; j++) {
					memcpy(c[j].status, d->tok[k][j], AIE_TOKEN_LEN);
					c[j].queue_size = -1;
					c[j].current_bd = -1;
					c[j].queue_status[0] = '\0';
				}
			}
		} else {
			if (!(seen & 1) || d->n[0] != t->nmm2s || d->n[1] != t->ns2mm) {
				return aieth__aie__fail(
					note, cap, l.no,
					"%.*s has %d+%d channels, channel_status %d+%d",
					(int)strlen(key[i]) - 2, key[i], d->n[0], d->n[1], t->nmm2s,
					t->ns2mm);
			}
			for (k = 0; k < 2; k++) {
				aie_dma_chan *c = k ? t->s2mm : t->mm2s;
				int j;
				for (j = 0; j < d->n[k]; j++) {
					uint32_t v;
					if (i == 2) {
						memcpy(c[j].queue_status, d->tok[k][j],
						       AIE_TOKEN_LEN);
						continue;
					}
					if (aieth__aie__number(d->tok[k][j], strlen(d->tok[k][j]),
							       &v) ||
					    v > 1000000) {
						return aieth__aie__fail(note, cap, l.no,
									"%.*s '%s' is not a count",
									(int)strlen(key[i]) - 2,
									key[i], d->tok[k][j]);
					}
					if (i == 1)
						c[j].queue_size = (int)v;
					else
						c[j].current_bd = (int)v;
				}
			}
		}
		seen |= 1 << i;
	}
	if (!(seen & 1))
		return aieth__aie__fail(note, cap, 0,
					"no channel_status: line (empty or cut short)");
	return 0;
}
