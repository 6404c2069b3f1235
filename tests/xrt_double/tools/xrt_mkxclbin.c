/* SPDX-License-Identifier: MIT */
/*
 * xrt_mkxclbin - write the xclbins the xrt backend's tests load:
 *   xrt_mkxclbin pl BOARD OUT         the PL DMA kernel of BOARD as XRT
 *                                     sees it: IP_LAYOUT, CONNECTIVITY,
 *                                     MEM_TOPOLOGY, EMBEDDED_METADATA with
 *                                     the kernel's 4 pointer arguments
 *   xrt_mkxclbin aie BOARD OUT GRAPH...  an AIE-only xclbin whose
 *                                     AIE_METADATA lists the graphs; it
 *                                     passes th_package check (every node
 *                                     XRT's edge parser reads, a PDI the
 *                                     PLM would load: pkg_pdi.h), as
 *                                     run_test requires of a design
 * BOARD is a board name or file (AIETH_DATA_DIR). Test tool, not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../data/package/pkg_pdi.h"
#include "aieth.h"
#include "xclbin/xclbin_write.h"

#define K_EMBEDDED_METADATA 2u
#define K_MEM_TOPOLOGY 6u
#define K_CONNECTIVITY 7u
#define K_IP_LAYOUT 8u
#define K_PDI 18u
#define K_AIE_METADATA 25u

static void put32(uint8_t *p, uint32_t v)
{
	int i;
	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	int i;
	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int die(const char *what)
{
	fprintf(stderr, "xrt_mkxclbin: %s: %s\n", what, aieth_error_message());
	return 1;
}

static int write_pl(const aieth_board_info *bi, const char *out)
{
	static const char *const args[4] = {"cfg", "perf", "to_aie_mem", "from_aie_mem"};
	uint8_t ip[8 + 80], mem[8 + 40], conn[4 + 4 * 12];
	char xml[4096];
	size_t n = 0;
	int i;
	xb_wsection sec[4];
	xb_wopts o;

	memset(ip, 0, sizeof ip);
	put32(ip, 1);
	put32(ip + 8, 1);        /* IP_KERNEL */
	put32(ip + 12, 0u << 8); /* AP_CTRL_HS */
	put64(ip + 16, 0xa4000000ull);
	snprintf((char *)ip + 24, 64, "%s:%s_1", bi->pl_kernel, bi->pl_kernel);
	memset(mem, 0, sizeof mem);
	put32(mem, 1);
	mem[8] = 2;                        /* MEM_DRAM */
	mem[9] = 1;                        /* used */
	put64(mem + 16, 2u * 1024 * 1024); /* KB */
	put64(mem + 24, 0);
	memcpy(mem + 32, "DDR", 4);
	memset(conn, 0, sizeof conn);
	put32(conn, 4);
	for (i = 0; i < 4; i++)
		put32(conn + 4 + 12 * i, (uint32_t)i);
	n += (size_t)snprintf(
		xml + n, sizeof xml - n,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<project name=\"%s\"><platform vendor=\"xilinx\" boardid=\"%s\" "
		"name=\"%s\" featureRomTime=\"0\"><version major=\"202610\" "
		"minor=\"1\"/><device name=\"fpga0\" fpgaDevice=\"versal\" "
		"addrWidth=\"0\"><core name=\"OCL_REGION_0\" target=\"bitstream\" "
		"type=\"clc_region\" clockFreq=\"0MHz\" numComputeUnits=\"1\">"
		"<kernel name=\"%s\" language=\"c\" vlnv=\"xilinx.com:hls:%s:1.0\" "
		"workGroupSize=\"1\" interrupt=\"true\" hwControlProtocol=\"ap_ctrl_hs\">"
		"<port name=\"M_AXI_GMEM\" mode=\"master\" range=\"0xFFFFFFFFFFFFFFFF\" "
		"dataWidth=\"128\" portType=\"addressable\" base=\"0x0\"/>"
		"<port name=\"S_AXI_CONTROL\" mode=\"slave\" range=\"0x1000\" "
		"dataWidth=\"32\" portType=\"addressable\" base=\"0x0\"/>",
		bi->pl_kernel, bi->name, bi->base_platform, bi->pl_kernel, bi->pl_kernel);
	for (i = 0; i < 4; i++)
		n += (size_t)snprintf(xml + n, sizeof xml - n,
				      "<arg name=\"%s\" addressQualifier=\"1\" id=\"%d\" "
				      "port=\"M_AXI_GMEM\" size=\"0x8\" offset=\"0x%x\" "
				      "hostOffset=\"0x0\" hostSize=\"0x8\" type=\"void*\"/>",
				      args[i], i, 0x10 + 12 * i);
	snprintf(xml + n, sizeof xml - n, "</kernel></core></device></platform></project>\n");
	sec[0] = (xb_wsection){
		.kind = K_MEM_TOPOLOGY, .name = "MEM_TOPOLOGY", .data = mem, .size = sizeof mem};
	sec[1] = (xb_wsection){
		.kind = K_IP_LAYOUT, .name = "IP_LAYOUT", .data = ip, .size = sizeof ip};
	sec[2] = (xb_wsection){
		.kind = K_CONNECTIVITY, .name = "CONNECTIVITY", .data = conn, .size = sizeof conn};
	sec[3] = (xb_wsection){.kind = K_EMBEDDED_METADATA,
			       .name = "EMBEDDED_METADA",
			       .data = xml,
			       .size = strlen(xml)};
	memset(&o, 0, sizeof o);
	o.sections = sec;
	o.num_sections = 4;
	o.version_major = 2;
	o.version_minor = 13;
	o.timestamp = 1700000000;
	o.vbnv = bi->base_platform;
	return aieth__xb_write_file(out, &o, NULL, NULL) ? die(out) : 0;
}

static int write_aie(const aieth_board_info *bi, const char *out, int ng, char **graphs)
{
	char json[8192];
	uint8_t pdi[PF_PDI_BYTES];
	size_t n = 0;
	int i;
	xb_wsection sec[2];
	xb_wopts o;

	n += (size_t)snprintf(
		json + n, sizeof json - n,
		"{\"aie_metadata\": {\"driver_config\": {\"hw_gen\": %d, "
		"\"base_address\": 2199023255552, \"column_shift\": 23, "
		"\"row_shift\": 18, \"num_columns\": %u, \"num_rows\": 9, "
		"\"shim_row\": 0, \"reserved_row_start\": 0, \"reserved_num_rows\": 0, "
		"\"aie_tile_row_start\": 1, \"aie_tile_num_rows\": 8}, "
		"\"aiecompiler_options\": {\"broadcast_enable_core\": true}, "
		"\"graphs\": {",
		bi->aie_hw_gen                       ? (int)bi->aie_hw_gen
		: !strcmp(bi->aie_generation, "AIE") ? 1
						     : 2,
		bi->aie_columns ? bi->aie_columns : 38);
	for (i = 0; i < ng && n < sizeof json; i++)
		n += (size_t)snprintf(
			json + n, sizeof json - n,
			"%s\"graph%d\": {\"id\": %d, \"name\": \"%s\", "
			"\"core_columns\": [], \"core_rows\": [], "
			"\"iteration_memory_columns\": [], \"iteration_memory_rows\": [], "
			"\"iteration_memory_addresses\": [], \"multirate_triggers\": []}",
			i ? ", " : "", i, i, graphs[i]);
	if (n < sizeof json)
		snprintf(json + n, sizeof json - n,
			 "}, \"RTPs\": {}, \"GMIOs\": {}, \"PLIOs\": {}}}\n");
	pf_pdi_build(pdi, bi->has_device_id_code ? bi->device_id_code : 0x14ca8093u);
	sec[0] = (xb_wsection){
		.kind = K_AIE_METADATA, .name = "AIE_METADATA", .data = json, .size = strlen(json)};
	sec[1] = (xb_wsection){.kind = K_PDI, .name = "PDI", .data = pdi, .size = sizeof pdi};
	memset(&o, 0, sizeof o);
	o.sections = sec;
	o.num_sections = 2;
	o.action_mask = AIETH_XCLBIN_AM_LOAD_AIE;
	o.version_major = 2;
	o.version_minor = 13;
	o.timestamp = 1700000000;
	o.vbnv = bi->base_platform;
	return aieth__xb_write_file(out, &o, NULL, NULL) ? die(out) : 0;
}

int main(int argc, char **argv)
{
	aieth_board *b = NULL;
	int rc;
	if (argc < 4 || (strcmp(argv[1], "pl") && strcmp(argv[1], "aie"))) {
		fprintf(stderr, "usage: xrt_mkxclbin pl|aie BOARD OUT [GRAPH...]\n");
		return 2;
	}
	if (aieth_board_load(&b, argv[2], NULL))
		return die(argv[2]);
	if (!strcmp(argv[1], "pl"))
		rc = write_pl(aieth_board_get_info(b), argv[3]);
	else
		rc = write_aie(aieth_board_get_info(b), argv[3], argc - 4, argv + 4);
	aieth_board_free(b);
	return rc;
}
