/* SPDX-License-Identifier: MIT */
/*
 * gen_package_inputs - writes synthetic th_package inputs for the
 * end-to-end tests and the benchmark (tests/data/package/README.md).
 *
 *   gen_package_inputs --board B --out DIR          the standard fixtures
 *   gen_package_inputs --board B --big BYTES --out FILE [--elf]
 *                                                   one libadf.a whose elfs CDO
 *                                                   carries BYTES of payload
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkg_fixtures.h"

int main(int argc, char **argv)
{
	const char *board_name = "vck190", *out = NULL, *data_dir = NULL;
	unsigned long long big = 0;
	int elf = 0, i;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--board") && i + 1 < argc)
			board_name = argv[++i];
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--data-dir") && i + 1 < argc)
			data_dir = argv[++i];
		else if (!strcmp(argv[i], "--big") && i + 1 < argc)
			big = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--elf"))
			elf = 1;
		else {
			fprintf(stderr, "usage: gen_package_inputs --board B --out DIR | --board B "
					"--big BYTES --out FILE [--elf]\n");
			return 2;
		}
	}
	if (!out) {
		fprintf(stderr, "gen_package_inputs: --out is required\n");
		return 2;
	}
	if (big) {
		aieth_board *b;
		pf_graph g;
		int rc;
		if (aieth_board_load(&b, board_name, data_dir)) {
			fprintf(stderr, "gen_package_inputs: %s\n", aieth_error_message());
			return 2;
		}
		rc = pf_graph_for_board(&g, b, 4);
		g.elf = elf;
		g.elfs_bytes = big;
		if (!rc)
			rc = pf_write_libadf(out, &g);
		aieth_board_free(b);
		return rc ? 1 : 0;
	}
	return pf_write_standard(out, board_name, data_dir) ? 1 : 0;
}
