/* SPDX-License-Identifier: MIT */
/*
 * xsa_device.h - is the XSA made for the board's device? Not installed.
 */
#ifndef AIETH_XSA_DEVICE_H
#define AIETH_XSA_DEVICE_H

#include "aieth.h"
#include "th_package/xsa.h"

/* The Xilinx IDCODE without its revision nibble (bits 31..28): the device. */
#define AIETH_IDCODE_DEVICE_MASK 0x0fffffffu
/* Most board files looked at to name the device of a foreign IDCODE. */
#define AIETH_XSA_MAX_BOARDS 256u

/* Compare the XSA's part (xsa.json) and device IDCODE (its device image)
 * with the board's device_part / device_id_code. When the board file does
 * not state its IDCODE, an IDCODE another board file of data_dir (NULL:
 * the default data directory) states is refused too. AIETH_EINVAL naming
 * both devices on a mismatch. */
int aieth__xsa_check_device(const aieth_xsa_info *x, const char *xsa_path, const aieth_board *board,
			    const char *data_dir);

#endif
