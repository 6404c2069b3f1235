/* SPDX-License-Identifier: MIT */
/* xclbin_kinds.c - names of section kinds and modes (xclbinutil's names). */
#include <stdlib.h>
#include <string.h>

#include "aieth.h"
#include "util/error.h"
#include "xclbin/xclbin_format.h"

/* Index = kind number (enum axlf_section_kind, XRT's xclbin.h). */
static const char *const kinds[XB_KIND_MAX + 1] = {
	"BITSTREAM", "CLEARING_BITSTREAM", "EMBEDDED_METADATA", "FIRMWARE", "DEBUG_DATA",
	"SCHED_FIRMWARE", "MEM_TOPOLOGY", "CONNECTIVITY", "IP_LAYOUT", "DEBUG_IP_LAYOUT",
	"DESIGN_CHECKPOINT", "CLOCK_FREQ_TOPOLOGY", "MCS", "BMC", "BUILD_METADATA",
	"KEYVALUE_METADATA", "USER_METADATA", "DNA_CERTIFICATE", "PDI", "BITSTREAM_PARTIAL_PDI",
	"PARTITION_METADATA", "EMULATION_DATA", "SYSTEM_METADATA", "SOFT_KERNEL", "FLASH",
	"AIE_METADATA", "GROUP_TOPOLOGY", "GROUP_CONNECTIVITY", "SMARTNIC", "AIE_RESOURCES",
	"OVERLAY", "VENDER_METADATA", "AIE_PARTITION", "IP_METADATA", "AIE_RESOURCES_BIN",
	"AIE_TRACE_METADATA", "DTBO",
};

static const char *const modes[XB_MODE_MAX + 1] = {
	"FLAT", "PR", "TANDEM_STAGE2", "TANDEM_STAGE2_WITH_PR", "HW_EMU", "SW_EMU", "HW_EMU_PR",
};

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
