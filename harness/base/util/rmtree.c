/* SPDX-License-Identifier: MIT */
/* rmtree.c - removing a scratch folder with everything in it (fileio.h). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

#include "util/fileio.h"

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(p);
	return 0;
}

void aieth__remove_tree(const char *dir)
{
	/* depth first, never following a link out of the folder */
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
