/* SPDX-License-Identifier: MIT */
/*
 * report_render.c - report.html and the SVG charts of a report.json read
 * back (tests/e2e/campaign/campaign_html.sh draws hand-made campaign reports with
 * the library's writers, without a run): report_render REPORT.json DIR
 * writes DIR/report.html and DIR/charts/.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "aieth.h"

int main(int argc, char **argv)
{
	aieth_report *r = NULL;
	char html[4096], charts[4096];
	int rc;
	if (argc != 3) {
		fprintf(stderr, "usage: %s REPORT.json DIR\n", argv[0]);
		return 2;
	}
	snprintf(html, sizeof html, "%s/report.html", argv[2]);
	snprintf(charts, sizeof charts, "%s/charts", argv[2]);
	if (aieth_report_load(&r, argv[1]) != AIETH_OK) {
		fprintf(stderr, "%s: %s\n", argv[0], aieth_error_message());
		return 2;
	}
	if (mkdir(charts, 0755) && errno != EEXIST) {
		perror(charts);
		aieth_report_free(r);
		return 2;
	}
	rc = aieth_report_write_html(r, html) || aieth_report_write_svgs(r, charts);
	if (rc)
		fprintf(stderr, "%s: %s\n", argv[0], aieth_error_message());
	aieth_report_free(r);
	return rc ? 2 : 0;
}
