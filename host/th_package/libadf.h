/* SPDX-License-Identifier: MIT */
/*
 * libadf.h - reading a compiled AIE graph for the packager: libadf.a (an ar
 * archive whose members are plain files or ELF objects with the CDOs in
 * named sections) or an aiecompiler Work/ directory. It finds
 * aie_control_config.json, aie_trace_config.json and the AIE CDO files.
 * Not installed.
 */
#ifndef AIETH_LIBADF_H
#define AIETH_LIBADF_H

#include <stddef.h>
#include <stdint.h>

/* Largest control/trace config read into memory. */
#define AIETH_LIBADF_MAX_JSON (64u << 20)

/* The CDO stages, in the order the AIE PDI loads them. "enable" starts the
 * cores; with deferred AIE start (what the harness needs) it is left out. */
typedef enum {
	AIETH_CDO_PARTITION_RESET = 0,
	AIETH_CDO_RESET,
	AIETH_CDO_CLOCK_GATING,
	AIETH_CDO_ERROR_HANDLING,
	AIETH_CDO_ELFS,
	AIETH_CDO_INIT,
	AIETH_CDO_ENABLE,
	AIETH_CDO_NUM_STAGES
} aieth_cdo_stage;

const char *aieth__cdo_stage_name(aieth_cdo_stage s);

typedef struct {
	int present;
	char *path;   /* the file bootgen reads */
	char *source; /* "libadf.a: sw.o section .aie.cdo.init.bin" */
	uint64_t size;
} aieth_cdo_file;

typedef struct {
	char *control_config; /* aie_control_config.json text (NUL-terminated) */
	size_t control_config_len;
	char *control_config_source;
	char *trace_config; /* aie_trace_config.json or NULL */
	size_t trace_config_len;
	aieth_cdo_file cdo[AIETH_CDO_NUM_STAGES];
	size_t num_cdos;
	int merged_ignored;    /* aie.merged.cdo.bin was present and not used */
	unsigned elf_in_place; /* ELF members read where they lie (not spooled) */
} aieth_graph_inputs;

/* Read path: a directory is a Work/ directory (or one that contains Work/),
 * anything else an ar archive. ELF members are read at random where they
 * lie in the archive (pread: a file cut short meanwhile is an error, never
 * a signal), or spooled to work_dir (which must exist) when libarchive's
 * view of their place cannot be confirmed; with extract, the CDOs of an archive
 * are written there too, as files for bootgen (else only checked). */
int aieth__graph_read(aieth_graph_inputs *g, const char *path, const char *work_dir, int extract);
/* An ar archive in memory; with work_dir NULL nothing is written (the
 * fuzz target). */
int aieth__graph_read_mem(aieth_graph_inputs *g, const char *what, const void *data, size_t len,
			  const char *work_dir);
void aieth__graph_free(aieth_graph_inputs *g);

/* ELF section table walk (libadf_elf.c). */
typedef int (*aieth_elf_read_fn)(void *ctx, uint64_t off, void *buf, size_t n);
typedef int (*aieth_elf_section_fn)(void *ctx, const char *name, uint64_t off, uint64_t size);
int aieth__elf_sections(const char *what, uint64_t file_size, aieth_elf_read_fn rd, void *rctx,
			aieth_elf_section_fn fn, void *fctx);

#endif
