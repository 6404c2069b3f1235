/* SPDX-License-Identifier: MIT */
/* xclbin_kinds.c - names of section kinds and modes (xclbinutil's names). */
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "util/error.h"
#include "xclbin/xclbin_format.h"

/* Index = kind number (enum axlf_section_kind, XRT's xclbin.h). */
static const char *const kinds[XB_KIND_MAX + 1] = {
	"BITSTREAM",
	"CLEARING_BITSTREAM",
	"EMBEDDED_METADATA",
	"FIRMWARE",
	"DEBUG_DATA",
	"SCHED_FIRMWARE",
	"MEM_TOPOLOGY",
	"CONNECTIVITY",
	"IP_LAYOUT",
	"DEBUG_IP_LAYOUT",
	"DESIGN_CHECKPOINT",
	"CLOCK_FREQ_TOPOLOGY",
	"MCS",
	"BMC",
	"BUILD_METADATA",
	"KEYVALUE_METADATA",
	"USER_METADATA",
	"DNA_CERTIFICATE",
	"PDI",
	"BITSTREAM_PARTIAL_PDI",
	"PARTITION_METADATA",
	"EMULATION_DATA",
	"SYSTEM_METADATA",
	"SOFT_KERNEL",
	"FLASH",
	"AIE_METADATA",
	"GROUP_TOPOLOGY",
	"GROUP_CONNECTIVITY",
	"SMARTNIC",
	"AIE_RESOURCES",
	"OVERLAY",
	"VENDER_METADATA",
	"AIE_PARTITION",
	"IP_METADATA",
	"AIE_RESOURCES_BIN",
	"AIE_TRACE_METADATA",
	"DTBO",
};

static const char *const modes[XB_MODE_MAX + 1] = {
	"FLAT", "PR", "TANDEM_STAGE2", "TANDEM_STAGE2_WITH_PR", "HW_EMU", "SW_EMU", "HW_EMU_PR",
};

/* Sections that open with a fixed struct (XRT
 * src/runtime_src/core/include/xrt/detail/xclbin.h: struct soft_kernel 80
 * bytes, flash 72, vender_metadata 48, aie_partition 184,
 * aie_resources_bin 76, each fixed by an XCLBIN_STATIC_ASSERT). XRT reads
 * them through that struct (core/common/xclbin_parser.cpp refuses a
 * SOFT_KERNEL or AIE_PARTITION shorter than it; xclbinutil's
 * SectionAIEPartition.cxx and SectionAIEResourcesBin.cxx the same). */
static const struct {
	uint32_t kind;
	unsigned bytes;
	const char *name;
} fixed[] = {
	{23, 80, "struct soft_kernel"},       {24, 72, "struct flash"},
	{31, 48, "struct vender_metadata"},   {32, 184, "struct aie_partition"},
	{34, 76, "struct aie_resources_bin"},
};

unsigned aieth__xb_kind_fixed_header(uint32_t kind, const char **name)
{
	size_t i;
	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (fixed[i].kind == kind) {
			*name = fixed[i].name;
			return fixed[i].bytes;
		}
	return 0;
}

const char *aieth_xclbin_kind_name(uint32_t kind)
{
	return kind <= XB_KIND_MAX ? kinds[kind] : "UNKNOWN";
}

const char *aieth_xclbin_mode_name(uint16_t mode)
{
	return mode <= XB_MODE_MAX ? modes[mode] : "UNKNOWN";
}

int aieth_xclbin_kind_parse(const char *name, uint32_t *kind)
{
	uint32_t k;
	char *end;
	unsigned long v;
	if (!name || !*name || !kind)
		return aieth__fail(AIETH_EINVAL, "section kind: empty");
	for (k = 0; k <= XB_KIND_MAX; k++)
		if (strcmp(name, kinds[k]) == 0) {
			*kind = k;
			return AIETH_OK;
		}
	/* the enum spellings xclbin.h uses for two of them */
	if (strcmp(name, "DESIGN_CHECK_POINT") == 0 || strcmp(name, "ASK_FLASH") == 0) {
		*kind = name[0] == 'D' ? 10u : 24u;
		return AIETH_OK;
	}
	if (name[0] >= '0' && name[0] <= '9') {
		v = strtoul(name, &end, 10);
		if (*end == '\0' && v <= 0xffffffffu) {
			*kind = (uint32_t)v;
			return AIETH_OK;
		}
	}
	return aieth__fail(AIETH_EINVAL,
			   "unknown section kind \"%s\" (use a name such as PDI, AIE_METADATA, "
			   "MEM_TOPOLOGY, or a number)",
			   name);
}
