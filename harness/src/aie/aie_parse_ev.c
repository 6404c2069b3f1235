/* SPDX-License-Identifier: MIT */
/*
 * aie/aie_parse_ev.c - strict parsers of the AI Engine driver's per-tile
 * event and error files, AIE and AIE-ML (docs/on-board.md names the
 * driver's source files the formats and the names below come from).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "aie/aie_internal.h"
#include "aie/aie_state.h"

static const char *const modules[AIE_MOD_COUNT] = {"core", "memory", "pl"};

/* ai-engine-sysfs-error.c, aie_error_category_str, in its order */
static const char *const categories[] = {"saturation", "floating_point", "stream_switch", "access",
					 "bus",        "instruction",    "ecc",           "lock",
					 "dma",        "memory_parity"};
#define NCATEGORIES (sizeof categories / sizeof categories[0])

/* The error names of the driver's tables: ai-engine-aie.c (AIE) and
 * ai-engine-aieml.c (AIE-ML: core, memory, memory tile and shim), each
 * once. */
static const char *const errors[] = {
	/* AIE */
	"tlast_in_wss_words_0-2", "control_packet_error", "stream_packet_parity_error",
	"instruction_decompression_error", "pm_ecc_error_2-bit", "pm_ecc_error_scrub_2-bit",
	"pm_reg_access_failure", "dm_access_to_unavailable", "pm_address_out_of_range",
	"dm_address_out_of_range", "lock_access_to_unavailable", "axi-mm_slave_error",
	"dm_ecc_error_scrub_2-bit", "dm_ecc_error_2-bit", "dm_parity_error_bank_2",
	"dm_parity_error_bank_3", "dm_parity_error_bank_4", "dm_parity_error_bank_5",
	"dm_parity_error_bank_6", "dm_parity_error_bank_7", "dma_s2mm_0_error", "dma_s2mm_1_error",
	"dma_mm2s_0_error", "dma_mm2s_1_error", "axi-mm_slave_tile_error",
	"axi-mm_decode_nsu_error", "axi-mm_slave_nsu_error", "axi-mm_unsupported_traffic",
	"axi-mm_unsecure_access_in_secure_mode", "axi-mm_byte_strobe_error",
	/* AIE-ML, those AIE has not */
	"stream_switch_port_parity_error", "control_pkt_error", "stream_pkt_parity_error",
	"decompression_underflow", "processor_bus_error", "axi_mm_slave_error", "dma_mm2s_error",
	"dma_s2mm_error", "lock_error", "axi_mm_byte_strobe_error",
	"axi_mm_unsecure_access_in_secure_mode", "axi_mm_unsupported_traffic",
	"axi_mm_slave_nsu_error", "axi_mm_decode_nsu_error", "axi_mm_slave_tile_error"};
#define NERRORS (sizeof errors / sizeof errors[0])

const char *aieth__aie_module_name(unsigned m) { return m < AIE_MOD_COUNT ? modules[m] : "?"; }
const char *aieth__aie_error_category_name(unsigned c)
{
	return c < NCATEGORIES ? categories[c] : "?";
}
const char *aieth__aie_error_name(unsigned n) { return n < NERRORS ? errors[n] : "?"; }

static int lookup(const char *const *list, size_t count, const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < count; i++)
		if (strlen(list[i]) == n && strncasecmp(list[i], s, n) == 0)
			return (int)i;
	return -1;
}

int aieth__aie__error_category(const char *s, size_t n)
{
	return lookup(categories, NCATEGORIES, s, n);
}
int aieth__aie__error_index(const char *s, size_t n) { return lookup(errors, NERRORS, s, n); }

void aieth__aie__tile_add_error(aie_tile *t, int module, int category, int name)
{
	int i;
	for (i = 0; i < t->nerrors; i++)
		if (t->errors[i].module == module && t->errors[i].category == category &&
		    t->errors[i].name == name)
			return;
	if (t->nerrors >= AIE_MAX_ERRORS) {
		t->errors_dropped++;
		return;
	}
	t->errors[t->nerrors].module = (uint8_t)module;
	t->errors[t->nerrors].category = (uint8_t)category;
	t->errors[t->nerrors].name = (uint16_t)name;
	t->nerrors++;
}

/* "core: " and the rest of the line: the module, or -1. */
static int module_of(const char *s, size_t n, const char **r, size_t *rn)
{
	int m;
	for (m = 0; m < AIE_MOD_COUNT; m++) {
		char key[16];
		snprintf(key, sizeof key, "%s: ", modules[m]);
		if (aieth__aie__starts(s, n, key, r, rn))
			return m;
		/* "core: " with nothing set: the driver writes "core: \n", and
		 * a line's trailing blank may be cut */
		if (n == strlen(modules[m]) + 1 && strncmp(s, key, n) == 0) {
			*r = s + n;
			*rn = 0;
			return m;
		}
	}
	return -1;
}

int aieth__aie_parse_event(const char *text, size_t len, aie_tile *t, char *note, size_t cap)
{
	aie_lines l = {text, text + len, 0};
	const char *s, *r;
	size_t n, rn, k;
	aie_bars b;
	const char *f;
	int more;
	int seen = 0;
	if (aieth__aie__clean(text, len, note, cap))
		return -1;
	memset(t->nevents, 0, sizeof t->nevents);
	t->events_gated = 0;
	while (aieth__aie__next_line(&l, &s, &n)) {
		int m, last = -1;
		if (n == 0)
			continue;
		if ((m = module_of(s, n, &r, &rn)) < 0)
			return aieth__aie__fail(note, cap, l.no,
						"'%.*s' is not 'core:', 'memory:' or 'pl:'",
						(int)(n > 40 ? 40 : n), s);
		if (seen & (1 << m))
			return aieth__aie__fail(note, cap, l.no, "%s: a second time", modules[m]);
		seen |= 1 << m;
		if (rn == 11 && strncmp(r, "clock_gated", 11) == 0) {
			t->events_gated = 1;
			t->clock_gated = 1;
			continue;
		}
		b.p = r;
		b.end = r + rn;
		b.trailing = 0;
		while ((more = aieth__aie__next_bar(&b, &f, &k)) > 0) {
			uint32_t v;
			if (k > 3 || aieth__aie__number(f, k, &v) || (k > 1 && f[0] == '0'))
				return aieth__aie__fail(note, cap, l.no,
							"%s: '%.*s' is not an event number",
							modules[m], (int)(k > 40 ? 40 : k), f);
			if (v >= AIE_MAX_EVENTS)
				return aieth__aie__fail(
					note, cap, l.no,
					"%s: event %u: the driver prints events 0 to %d",
					modules[m], v, AIE_MAX_EVENTS - 1);
			if ((int)v <= last)
				return aieth__aie__fail(
					note, cap, l.no,
					"%s: event %u after %d (the driver writes them "
					"ascending, once)",
					modules[m], v, last);
			last = (int)v;
			t->events[m][t->nevents[m]++] = (uint8_t)v;
		}
		if (more < 0)
			return aieth__aie__fail(note, cap, l.no, "%s: ends with '|'", modules[m]);
	}
	if (!seen)
		return aieth__aie__fail(note, cap, 0, "no module line (empty or cut short)");
	t->has_events = seen;
	return 0;
}

int aieth__aie_parse_error(const char *text, size_t len, aie_tile *t, char *note, size_t cap)
{
	aie_lines l = {text, text + len, 0};
	const char *s, *r;
	size_t n, rn, k;
	aie_bars b;
	const char *f;
	int more;
	if (aieth__aie__clean(text, len, note, cap))
		return -1;
	t->nerrors = t->errors_dropped = 0;
	/* no error asserted: the driver writes nothing */
	while (aieth__aie__next_line(&l, &s, &n)) {
		const char *colon;
		int m, c;
		if (n == 0)
			continue;
		if ((m = module_of(s, n, &r, &rn)) < 0)
			return aieth__aie__fail(note, cap, l.no,
						"'%.*s' is not 'core:', 'memory:' or 'pl:'",
						(int)(n > 40 ? 40 : n), s);
		colon = memchr(r, ':', rn);
		if (!colon || colon + 1 >= r + rn || colon[1] != ' ')
			return aieth__aie__fail(note, cap, l.no, "%s: no '<category>: <errors>'",
						modules[m]);
		if ((c = aieth__aie__error_category(r, (size_t)(colon - r))) < 0)
			return aieth__aie__fail(note, cap, l.no,
						"%s: error category '%.*s' is unknown", modules[m],
						(int)(colon - r > 40 ? 40 : colon - r), r);
		rn -= (size_t)(colon + 2 - r);
		r = colon + 2;
		if (rn == 0)
			return aieth__aie__fail(note, cap, l.no, "%s: %s: no error named",
						modules[m], categories[c]);
		b.p = r;
		b.end = r + rn;
		b.trailing = 0;
		while ((more = aieth__aie__next_bar(&b, &f, &k)) > 0) {
			int e = aieth__aie__error_index(f, k);
			if (e < 0)
				return aieth__aie__fail(
					note, cap, l.no,
					"%s: %s: error '%.*s' is not in the driver's tables",
					modules[m], categories[c], (int)(k > 40 ? 40 : k), f);
			aieth__aie__tile_add_error(t, m, c, e);
		}
		if (more < 0)
			return aieth__aie__fail(note, cap, l.no, "%s: ends with '|'", modules[m]);
	}
	t->has_errors = 1;
	return 0;
}
