/* SPDX-License-Identifier: MIT */
/*
 * The layout of every public struct of harness/include as this compiler
 * lays it out: sizeof and alignment of the struct, offset and size of each
 * member (nested members as a.b). The list of structs and members,
 * abi_layouts.inc, is generated from the headers by scripts/abi.py, so a
 * member added to a header is listed without editing this file. Read by
 * make abi (against harness/abi/layouts.txt) and by the Python binding's
 * test (tests/python/test_abi_layouts.py, against its ctypes structures).
 */
#include <stddef.h>
#include <stdio.h>

#define ABI_HEADERS /* the first time: the headers */
#include "abi_layouts.inc"
#undef ABI_HEADERS

#define S(t) printf("%s size %zu align %zu\n", #t, sizeof(t), _Alignof(t));
#define M(t, m) printf("%s.%s offset %zu size %zu\n", #t, #m, offsetof(t, m), sizeof(((t *)0)->m));

int main(void)
{
#include "abi_layouts.inc"
	return 0;
}
