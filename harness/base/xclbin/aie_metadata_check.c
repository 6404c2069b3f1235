/* SPDX-License-Identifier: MIT */
/*
 * aie_metadata_check.c - a graph's PLIOs against a board (the PLIO rules of
 * the precompiled XSA: AMD's include/aie/test_harness_port_name.hpp and
 * cfg/<board>_aie_constraints.json), and the whole-file check
 * behind `th_package check`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "util/error.h"
#include "xclbin/pdi_format.h"
#include "xclbin/xclbin_format.h"
#include "xclbin/problems.h"
#include "xclbin/xclbin_object.h"
#include "xclbin/xclbin_text.h"

/* "PLIO_NN_TO_AIE" / "PLIO_NN_FROM_AIE": 1 with NN and the direction. */
static int parse_plio_name(const char *n, unsigned *nn, aieth_dir *dir)
{
	if (strncmp(n, "PLIO_", 5) || n[5] < '0' || n[5] > '9' || n[6] < '0' || n[6] > '9' ||
	    n[7] != '_')
		return 0;
	*nn = (unsigned)(n[5] - '0') * 10 + (unsigned)(n[6] - '0');
	if (*nn == 0)
		return 0;
	if (!strcmp(n + 8, "TO_AIE"))
		*dir = AIETH_DIR_TO_AIE;
	else if (!strcmp(n + 8, "FROM_AIE"))
		*dir = AIETH_DIR_FROM_AIE;
	else
		return 0;
	return 1;
}

/* The board file's aie_hw_gen; for a board file without it the values XRT
 * uses for the first two generations (hw_gen in aie_parser.cpp); 0 = not
 * known. */
static uint32_t expected_hw_gen(const aieth_board_info *in)
{
	const char *generation = in->aie_generation;
	if (in->aie_hw_gen)
		return in->aie_hw_gen;
	if (!strcmp(generation, "AIE"))
		return 1;
	if (!strcmp(generation, "AIE-ML"))
		return 2;
	return 0;
}

static const char *dir_word(aieth_dir d)
{
	return d == AIETH_DIR_TO_AIE ? "slave (PL to AIE, slaveOrMaster 0)"
				     : "master (AIE to PL, slaveOrMaster 1)";
}

size_t aieth_aie_meta_check(const aieth_aie_meta *m, const aieth_board *board,
			    aieth_problem_fn report, void *ctx)
{
	const aieth_board_info *in = aieth_board_get_info(board);
	aieth_problems s = {NULL, report, ctx, 0};
	size_t i, j, used[2] = {0, 0};
	uint32_t want_gen = expected_hw_gen(in);
	uint32_t hw_gen = aieth_aie_meta_hw_gen(m);
	aieth_aie_plio p, q;
	aieth_plio bp;
	unsigned nn;
	aieth_dir dir;

	if (want_gen && hw_gen && hw_gen != want_gen)
		aieth__problem(
			&s,
			"AIE_METADATA driver_config.hw_gen: expected %u (%s, board %s), found %u",
			(unsigned)want_gen, in->aie_generation, in->name, (unsigned)hw_gen);
	for (i = 0; i < aieth_aie_meta_num_plios(m); i++) {
		aieth_aie_meta_plio(m, i, &p);
		used[p.dir]++;
		if (!parse_plio_name(p.logical_name, &nn, &dir)) {
			aieth__problem(
				&s,
				"PLIO %s: name: expected a predefined name PLIO_NN_TO_AIE or "
				"PLIO_NN_FROM_AIE (NN = 01..%02u), found \"%s\"",
				p.name, (unsigned)in->channels, p.logical_name);
			continue;
		}
		if (nn > in->channels) {
			aieth__problem(
				&s,
				"PLIO %s (%s): channel: expected PLIO_01..PLIO_%02u (board %s has %u "
				"channels per direction), found PLIO_%02u",
				p.logical_name, p.name, (unsigned)in->channels, in->name,
				(unsigned)in->channels, nn);
			continue;
		}
		if (p.dir != dir)
			aieth__problem(&s, "PLIO %s (%s): direction: expected %s, found %s",
				       p.logical_name, p.name, dir_word(dir), dir_word(p.dir));
		if (p.width_bits && p.width_bits != in->stream_width_bits)
			aieth__problem(&s, "PLIO %s (%s): width: expected %u bits, found %u bits",
				       p.logical_name, p.name, (unsigned)in->stream_width_bits,
				       (unsigned)p.width_bits);
		if (aieth_board_plio_find(board, p.logical_name, &bp) == AIETH_OK) {
			if (p.shim_column != bp.shim_column)
				aieth__problem(&s,
					       "PLIO %s (%s): shim column: expected %u (the XSA's "
					       "placement), found %u",
					       p.logical_name, p.name, (unsigned)bp.shim_column,
					       (unsigned)p.shim_column);
			if (p.stream_id != bp.shim_channel)
				aieth__problem(
					&s,
					"PLIO %s (%s): shim channel (stream_id): expected %u (the "
					"XSA's placement), found %u",
					p.logical_name, p.name, (unsigned)bp.shim_channel,
					(unsigned)p.stream_id);
		}
		for (j = 0; j < i; j++) {
			aieth_aie_meta_plio(m, j, &q);
			if (!strcmp(p.logical_name, q.logical_name)) {
				aieth__problem(
					&s,
					"PLIO %s: users: expected one graph port, found two (%s "
					"and %s)",
					p.logical_name, q.name, p.name);
				break;
			}
		}
	}
	for (i = 0; i < 2; i++)
		if (used[i] > in->channels)
			aieth__problem(&s,
				       "PLIOs %s: count: expected at most %u (board %s), found %zu",
				       i ? "FROM_AIE" : "TO_AIE", (unsigned)in->channels, in->name,
				       used[i]);
	aieth__error_clear();
	return s.count;
}

/* EMBEDDED_METADATA and BUILD_METADATA sections as XRT's tools parse
 * them (xclbin_text.c): not XML, or JSON without its root, is refused by
 * xclbinutil (and EMBEDDED_METADATA by the runtime's load too). */
static void check_text_sections(aieth_problems *s, const aieth_xclbin *x)
{
	size_t i, len;
	void *text;
	char label[96], why[200];
	int bad;
	for (i = 0; i < x->nsec; i++) {
		uint32_t k = x->sec[i].pub.kind;
		if ((k != XB_KIND_EMBEDDED_METADATA && k != XB_KIND_BUILD_METADATA) ||
		    !x->sec[i].readable || !x->sec[i].pub.size)
			continue;
		aieth__xb_section_label(&x->sec[i].pub, i, label, sizeof label);
		if (aieth_xclbin_section_read(x, i, XB_MAX_AIE_META, &text, &len)) {
			aieth__problem(s, "%s", aieth_error_message());
			continue;
		}
		if (k == XB_KIND_EMBEDDED_METADATA) {
			bad = aieth__xml_check(text, len, why, sizeof why);
			if (bad)
				aieth__problem(
					s,
					"%s: %s: expected XML (XRT xclbinutil "
					"SectionEmbeddedMetadata.cxx and core/common/"
					"xclbin_parser.cpp read it with boost read_xml), found %s",
					x->path, label, why);
		} else {
			bad = aieth__build_metadata_check(text, len, why, sizeof why);
			if (bad)
				aieth__problem(
					s,
					"%s: %s: expected JSON with a \"build_metadata\" root "
					"(XRT xclbinutil SectionBuildMetadata.cxx: read_json, then "
					"get_child(\"build_metadata\")), found %s",
					x->path, label, why);
		}
		free(text);
	}
}

size_t aieth_xclbin_check(const aieth_xclbin *x, const aieth_board *board, aieth_problem_fn report,
			  void *ctx)
{
	return aieth__xclbin_check_flags(x, board, report, ctx, 0);
}

size_t aieth__xclbin_check_flags(const aieth_xclbin *x, const aieth_board *board,
				 aieth_problem_fn report, void *ctx, unsigned flags)
{
	aieth_problems s = {NULL, report, ctx, 0};
	const aieth_xclbin_header *h = &x->hdr;
	aieth_aie_meta *m = NULL;
	size_t i, idx, n;
	char label[96], what[400];

	n = aieth_xclbin_num_problems(x);
	for (i = 0; i < n; i++)
		aieth__problem(&s, "%s", aieth_xclbin_problem(x, i));
	/* AIE-only rules (how zocl loads an xclbin with an action mask) */
	if (h->action_mask & ~(AIETH_XCLBIN_AM_LOAD_AIE | AIETH_XCLBIN_AM_LOAD_PDI))
		aieth__problem(
			&s,
			"%s: m_actionMask: expected only LOAD_AIE (0x1) and LOAD_PDI (0x2), found "
			"0x%04x",
			x->path, (unsigned)h->action_mask);
	/* XRT takes an xclbin as AIE-only from LOAD_AIE alone (xclbin_parser
	 * is_aie_only); LOAD_PDI alone sends the load on to scheduler set-up */
	if (!(h->action_mask & AIETH_XCLBIN_AM_LOAD_AIE))
		aieth__problem(
			&s,
			"%s: m_actionMask: expected LOAD_AIE (0x1) set in an AIE-only xclbin (XRT "
			"takes it as AIE-only from that bit alone; without it the load fails with "
			"\"No xml metadata in xclbin\"), found 0x%04x",
			x->path, (unsigned)h->action_mask);
	if (aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_PDI, &idx))
		aieth__problem(
			&s,
			"%s: sections: expected a PDI section (the AIE configuration), found none",
			x->path);
	else if (!x->sec[idx].pub.size)
		aieth__problem(&s,
			       "%s: section %zu (PDI): size: expected a PDI image, found 0 bytes",
			       x->path, idx);
	else if (x->sec[idx].readable) {
		/* what XRT's PDI loader and the PLM refuse (xclbin_pdi.c) */
		xb_section_reader r = {x, x->sec[idx].pub.offset};
		aieth__xb_section_label(&x->sec[idx].pub, idx, label, sizeof label);
		snprintf(what, sizeof what, "%s: %s", x->path, label);
		s.count += aieth__pdi_check(
			aieth__xb_read_section, &r, x->sec[idx].pub.size, what, board, report, ctx,
			flags | (x->fd < 0 || x->win ? AIETH_PDI_READ_MEM : 0u));
	}
	check_text_sections(&s, x);
	for (i = 0; i < x->nsec; i++)
		if (x->sec[i].pub.kind == XB_KIND_PARTITION_METADATA) {
			aieth__xb_section_label(&x->sec[i].pub, i, label, sizeof label);
			aieth__problem(
				&s,
				"%s: %s: expected none in an AIE-only xclbin (zocl would take the "
				"DTBO load path), found one",
				x->path, label);
		}
	if (aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_AIE_METADATA, &idx)) {
		aieth__problem(&s,
			       "%s: sections: expected an AIE_METADATA section (the graph's "
			       "aie_control_config.json), found none",
			       x->path);
	} else if (aieth_xclbin_aie_meta(x, &m)) {
		aieth__problem(&s, "%s", aieth_error_message());
	} else {
		snprintf(what, sizeof what, "%s: AIE_METADATA", x->path);
		s.count += aieth__aie_meta_xrt_check(m, what, report, ctx);
		if (!aieth_aie_meta_num_graphs(m))
			aieth__problem(
				&s,
				"%s: AIE_METADATA aie_metadata.graphs: expected at least one graph, "
				"found none",
				x->path);
		if (board)
			s.count += aieth_aie_meta_check(m, board, report, ctx);
	}
	aieth_aie_meta_free(m);
	aieth__error_clear();
	return s.count;
}

int aieth_xclbin_aie_meta(const aieth_xclbin *x, aieth_aie_meta **out)
{
	size_t idx, len;
	void *text;
	char what[600];
	int rc;
	*out = NULL;
	if ((rc = aieth_xclbin_section_find(x, AIETH_XCLBIN_KIND_AIE_METADATA, &idx)))
		return rc;
	if ((rc = aieth_xclbin_section_read(x, idx, XB_MAX_AIE_META, &text, &len)))
		return rc;
	snprintf(what, sizeof what, "%s: AIE_METADATA", x->path);
	rc = aieth_aie_meta_parse(out, what, text, len);
	free(text);
	return rc;
}
