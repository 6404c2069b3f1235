/* SPDX-License-Identifier: MIT */
/*
 * libadf_elf.c - the section table of an ELF object (32 or 64 bit, either
 * byte order). libadf.a's hw.o and sw.o are ELF containers whose named
 * sections hold the AIE CDOs (.aie.cdo.<stage>.bin); only names, offsets
 * and sizes are needed, so nothing else of ELF is interpreted.
 */
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "th_package/libadf.h"
#include "util/error.h"

#define ELF_MAX_SECTIONS 65536u
#define ELF_MAX_STRTAB (16u << 20)
#define SHT_NOBITS 8u

typedef struct {
	int is64, be;
} elf_fmt;

static uint64_t rd(const elf_fmt *f, const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[f->be ? n - 1 - i : i] << (8 * i);
	return v;
}

int aieth__elf_sections(const char *what, uint64_t file_size, aieth_elf_read_fn rd_at, void *rctx,
			aieth_elf_section_fn fn, void *fctx)
{
	uint8_t eh[64], sh[64];
	elf_fmt f;
	uint64_t shoff, shnum, shstrndx, shentsize, str_off, str_size, i;
	char *strtab = NULL;
	int rc;

	if (file_size < 52 || (rc = rd_at(rctx, 0, eh, file_size < 64 ? 52 : 64)))
		return file_size < 52
			       ? aieth__fail(AIETH_EPARSE, "%s: too short for an ELF header", what)
			       : rc;
	if (memcmp(eh, "\177ELF", 4) || (eh[4] != 1 && eh[4] != 2) || (eh[5] != 1 && eh[5] != 2))
		return aieth__fail(AIETH_EPARSE, "%s: not an ELF object (bad identification)",
				   what);
	f.is64 = eh[4] == 2;
	f.be = eh[5] == 2;
	if (f.is64 && file_size < 64)
		return aieth__fail(AIETH_EPARSE, "%s: too short for an ELF64 header", what);
	shoff = f.is64 ? rd(&f, eh + 0x28, 8) : rd(&f, eh + 0x20, 4);
	shentsize = f.is64 ? rd(&f, eh + 0x3a, 2) : rd(&f, eh + 0x2e, 2);
	shnum = f.is64 ? rd(&f, eh + 0x3c, 2) : rd(&f, eh + 0x30, 2);
	shstrndx = f.is64 ? rd(&f, eh + 0x3e, 2) : rd(&f, eh + 0x32, 2);
	if (shoff == 0)
		return AIETH_OK; /* no section table */
	if (shentsize != (f.is64 ? 64u : 40u))
		return aieth__fail(AIETH_EPARSE, "%s: section header size: expected %u, found %llu",
				   what, f.is64 ? 64u : 40u, (unsigned long long)shentsize);
	if (shoff > file_size || file_size - shoff < shentsize)
		return aieth__fail(AIETH_EPARSE,
				   "%s: section table offset %llu lies beyond the end "
				   "(%llu bytes)",
				   what, (unsigned long long)shoff, (unsigned long long)file_size);
	/* more than 0xff00 sections: the real count and string index are in entry 0 */
	if ((rc = rd_at(rctx, shoff, sh, (size_t)shentsize)))
		return rc;
	if (shnum == 0)
		shnum = f.is64 ? rd(&f, sh + 0x20, 8) : rd(&f, sh + 0x14, 4);
	if (shstrndx == 0xffff)
		shstrndx = rd(&f, sh + (f.is64 ? 0x28 : 0x18), 4);
	if (shnum > ELF_MAX_SECTIONS || shnum > (file_size - shoff) / shentsize)
		return aieth__fail(AIETH_EPARSE, "%s: %llu section headers do not fit in the file",
				   what, (unsigned long long)shnum);
	if (shstrndx >= shnum)
		return aieth__fail(AIETH_EPARSE,
				   "%s: section name table index %llu: expected below "
				   "%llu",
				   what, (unsigned long long)shstrndx, (unsigned long long)shnum);
	if ((rc = rd_at(rctx, shoff + shstrndx * shentsize, sh, (size_t)shentsize)))
		return rc;
	str_off = f.is64 ? rd(&f, sh + 0x18, 8) : rd(&f, sh + 0x10, 4);
	str_size = f.is64 ? rd(&f, sh + 0x20, 8) : rd(&f, sh + 0x14, 4);
	if (str_size > ELF_MAX_STRTAB || str_off > file_size || str_size > file_size - str_off)
		return aieth__fail(AIETH_EPARSE,
				   "%s: section name table (offset %llu, %llu bytes) "
				   "lies outside the file",
				   what, (unsigned long long)str_off, (unsigned long long)str_size);
	strtab = malloc((size_t)str_size + 1);
	if (!strtab)
		return aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
	if ((rc = rd_at(rctx, str_off, strtab, (size_t)str_size)))
		goto out;
	strtab[str_size] = '\0';
	for (i = 1; i < shnum; i++) {
		uint64_t name, type, off, size;
		if ((rc = rd_at(rctx, shoff + i * shentsize, sh, (size_t)shentsize)))
			goto out;
		name = rd(&f, sh, 4);
		type = rd(&f, sh + 4, 4);
		off = f.is64 ? rd(&f, sh + 0x18, 8) : rd(&f, sh + 0x10, 4);
		size = f.is64 ? rd(&f, sh + 0x20, 8) : rd(&f, sh + 0x14, 4);
		if (type == SHT_NOBITS || name >= str_size)
			continue;
		if (off > file_size || size > file_size - off) {
			rc = aieth__fail(AIETH_EPARSE,
					 "%s: section %s (offset %llu, %llu bytes) lies "
					 "outside the file (%llu bytes)",
					 what, strtab + name, (unsigned long long)off,
					 (unsigned long long)size, (unsigned long long)file_size);
			goto out;
		}
		if ((rc = fn(fctx, strtab + name, off, size)))
			goto out;
	}
	rc = AIETH_OK;
out:
	free(strtab);
	return rc;
}
