/* SPDX-License-Identifier: MIT */
/*
 * pkg_fixtures.h - synthetic but well-formed th_package inputs, generated
 * (no real XSA or libadf.a can be in the tree): an XSA zip with its
 * metadata members and a device PDI header, a libadf.a ar archive (plain
 * CDO members or an ELF sw.o with .aie.cdo.* sections) with an
 * aie_control_config.json, and the same as an aiecompiler Work/ directory.
 * The CDOs are binary CDO v2 files that bootgen accepts.
 */
#ifndef PKG_FIXTURES_H
#define PKG_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

#include "aieth.h"

typedef struct {
	const char *logical;             /* PLIO name, e.g. "PLIO_01_TO_AIE" */
	char port[64];                   /* graph port, e.g. "mygraph.in0" */
	int from_aie;                    /* slaveOrMaster */
	unsigned column, channel, width; /* width 0: key left out */
	char name_buf[32];
} pf_plio;

typedef struct {
	const char *graph; /* graph name ("mygraph") */
	unsigned hw_gen;
	unsigned num_columns;
	pf_plio plios[80];
	size_t nplios;
	int elf;             /* CDOs as sections of an ELF member sw.o */
	int with_enable;     /* add aie.cdo.enable.bin */
	int with_trace;      /* add aie_trace_config.json */
	int no_control;      /* leave aie_control_config.json out */
	int bad_cdo;         /* corrupt the init CDO's header checksum */
	uint64_t elfs_bytes; /* payload of the elfs CDO (default 4 KiB) */
} pf_graph;

typedef struct {
	const char *board; /* xsa.json "board" */
	const char *vbnv;  /* xsa.json "platformVBNV" (NULL: left out) */
	uint32_t id_code, ext_id_code;
	int no_pdi;            /* leave the device image out */
	const char *omit;      /* member to leave out: "xsa.json", ... */
	const char *json_text; /* replaces the xsa.json text */
	const char *part;      /* xsa.json "part" (NULL: left out) */
} pf_xsa;

/* A graph with n PLIO pairs PLIO_01..PLIO_n placed as the board's
 * constraints say, 128 bits wide. */
int pf_graph_for_board(pf_graph *g, const aieth_board *board, size_t pairs);
/* Set one PLIO's name (copied). */
void pf_plio_rename(pf_plio *p, const char *name);

/* The aie_control_config.json text of g (caller frees). */
char *pf_control_config(const pf_graph *g);
int pf_write_libadf(const char *path, const pf_graph *g);
int pf_write_workdir(const char *dir, const pf_graph *g);
int pf_write_xsa(const char *path, const pf_xsa *x);
/* A VCK190 / board default: IDCODE of the XC VC1902 (package.idCode, UG1076). */
#define PF_IDCODE_VC1902 0x14ca8093u
/* The fixture XSAs' IDCODE for a board whose board file states none
 * (VEK280, VEK385: their real codes are not known here); no real device's. */
#define PF_IDCODE_FIXTURE 0x0ffff093u
/* The IDCODE of a board's fixture XSAs. */
uint32_t pf_board_id_code(const aieth_board_info *in);
/* A Gen 2 bootgen stand-in (tests/data/package/fake_bootgen_gen2.sh,
 * relative to the source tree). */
#define PF_FAKE_BOOTGEN_GEN2 "tests/data/package/fake_bootgen_gen2.sh"

/* Write every standard fixture of a board into dir (see
 * tests/data/package/README.md). */
int pf_write_standard(const char *dir, const char *board_name, const char *data_dir);

#endif
