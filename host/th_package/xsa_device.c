/* SPDX-License-Identifier: MIT */
/*
 * xsa_device.c - the XSA against the board's device (a VEK280
 * graph packaged against a VCK190 XSA must be refused). The facts are the
 * board files' device_part and device_id_code; the XSA gives the part in
 * xsa.json (when it states one) and the IDCODE in its device image.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "th_package/xsa_device.h"
#include "util/error.h"
#include "util/path.h"

static int xd_prefix_ci(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (!*s || (*s | 0x20) != (*prefix | 0x20))
			return 0;
	return 1;
}

static int xd_same_device(uint32_t a, uint32_t b)
{
	return (a & AIETH_IDCODE_DEVICE_MASK) == (b & AIETH_IDCODE_DEVICE_MASK);
}

/* Another board file of the data directory that states this IDCODE. */
static int xd_foreign_owner(const aieth_board_info *in, uint32_t id, const char *data_dir,
			    char *owner, size_t cap)
{
	char *dir = aieth__path_join(aieth__data_dir(data_dir), "platforms"), *f;
	struct dirent *de;
	DIR *d;
	size_t seen = 0, n;
	int found = 0;
	if (!dir)
		return 0;
	d = opendir(dir);
	while (d && !found && (de = readdir(d)) && seen < AIETH_XSA_MAX_BOARDS) {
		aieth_board *b = NULL;
		const aieth_board_info *bi;
		n = strlen(de->d_name);
		if (n < 6 || strcmp(de->d_name + n - 5, ".json"))
			continue;
		seen++;
		f = aieth__path_join(dir, de->d_name);
		if (f && aieth_board_load(&b, f, data_dir) == AIETH_OK) {
			bi = aieth_board_get_info(b);
			if (strcmp(bi->name, in->name) && bi->has_device_id_code &&
			    xd_same_device(bi->device_id_code, id)) {
				snprintf(owner, cap, "%s's (%s)", bi->name,
					 bi->device_part[0] ? bi->device_part : "its device");
				found = 1;
			}
		}
		aieth_board_free(b);
		free(f);
	}
	if (d)
		closedir(d);
	free(dir);
	aieth__error_clear(); /* a broken other board file is not this run's error */
	return found;
}

int aieth__xsa_check_device(const aieth_xsa_info *x, const char *xsa_path, const aieth_board *board,
			    const char *data_dir)
{
	const aieth_board_info *in = aieth_board_get_info(board);
	const char *part = in->device_part && in->device_part[0] ? in->device_part : NULL;
	char owner[200];
	if (part && x->part[0] && !xd_prefix_ci(x->part, part))
		return aieth__fail(AIETH_EINVAL,
				   "%s: member xsa.json: part: expected %s... (board "
				   "%s, --board), found \"%s\": the XSA is for another device",
				   xsa_path, part, in->name, x->part);
	if (!x->has_id_code)
		return AIETH_OK;
	if (in->has_device_id_code && !xd_same_device(x->id_code, in->device_id_code))
		return aieth__fail(AIETH_EINVAL,
				   "%s: device IDCODE: expected 0x%08x (board %s, %s; "
				   "revision bits 31..28 not compared), found 0x%08x (member %s): "
				   "the XSA is for another device",
				   xsa_path, (unsigned)in->device_id_code, in->name,
				   part ? part : "--board", (unsigned)x->id_code, x->pdi_member);
	if (!in->has_device_id_code &&
	    xd_foreign_owner(in, x->id_code, data_dir, owner, sizeof owner))
		return aieth__fail(
			AIETH_EINVAL,
			"%s: device IDCODE 0x%08x (member %s): expected "
			"board %s's device (%s, --board), found board %s: the XSA is for "
			"another device",
			xsa_path, (unsigned)x->id_code, x->pdi_member, in->name,
			part ? part : "not stated", owner);
	return AIETH_OK;
}
