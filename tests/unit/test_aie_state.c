/* SPDX-License-Identifier: MIT */
/*
 * test_aie_state.c - the AI Engine array's state (aie/aie_state.h): the
 * driver's core, lock and dma files in the AIE and AIE-ML formats parsed
 * strictly (garbage, cut-short, mixed and oversized input each a note),
 * a stand-in sysfs tree (AIETH_SYSFS_ROOT) read under a deadline with a
 * truncated, a garbage and a FIFO file among good ones (notes, never a
 * hang), the words of a hang and the JSON.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aie/aie_state.h"
#include "tu.h"

static char note[AIE_NOTE_LEN];

#define PARSE(fn, text, t) fn(text, strlen(text), t, note, sizeof note)

static void test_core(void)
{
	aie_tile t;
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aie_parse_core,
			      "status: enable|west_lock_stall\npc: 0x00000230\nlr: 0x00000010\n"
			      "sp: 0x00070020\n",
			      &t),
			0);
	CU_ASSERT_EQUAL(t.core_flags, (1u << AIE_CS_ENABLE) | (1u << AIE_CS_LOCK_STALL_W));
	CU_ASSERT_EQUAL(t.pc, 0x230);
	CU_ASSERT_EQUAL(t.sp, 0x70020);
	CU_ASSERT(aie_tile_stuck(&t));
	/* AIE spells enable "enabled" and has SS1 */
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "status: enabled|stream_stall_ss1\npc: 0x10\n", &t),
			0);
	CU_ASSERT_EQUAL(t.core_flags, (1u << AIE_CS_ENABLE) | (1u << AIE_CS_STREAM_STALL_SS1));
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "status: disabled\npc: 0x0\n", &t), 0);
	CU_ASSERT(t.core_disabled);
	CU_ASSERT(!aie_tile_stuck(&t));
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "status: clock_gated\n", &t), 0);
	CU_ASSERT(t.clock_gated);
	/* refused, each with a note */
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "status: enable|bogus_stall\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "'bogus_stall' is unknown"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "status: enable|\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "status: enable\npc: 0xZZ\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "line 2"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "status: enable\npc: 0x100000000\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "pc: 0x1\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "no status"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "", &t), -1);
	CU_ASSERT_EQUAL(aie_parse_core("status: en\0able", 15, &t, note, sizeof note), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "not text"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_core, "hello world\n", &t), -1);
}

static void test_lock(void)
{
	aie_tile t;
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aie_parse_lock, "0: 0\n1: 2\n2: 63\n", &t), 0); /* AIE-ML */
	CU_ASSERT_EQUAL(t.nlocks, 3);
	CU_ASSERT_EQUAL(t.lock[1], 2);
	CU_ASSERT_EQUAL(t.lock_is_state, 0);
	CU_ASSERT_EQUAL(PARSE(aie_parse_lock, "0: released_for_write\n1: acquired_for_read\n", &t),
			0); /* AIE */
	CU_ASSERT_EQUAL(t.lock[1], 3);
	CU_ASSERT_EQUAL(t.lock_is_state, 1);
	CU_ASSERT_EQUAL(PARSE(aie_parse_lock, "0: 1\n1: acquired_for_read\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "mixed"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_lock, "0: 1\n2: 1\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "out of order"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_lock, "0: 256\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aie_parse_lock, "0:\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aie_parse_lock, "", &t), -1);
}

static void test_dma(void)
{
	aie_tile t;
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aie_parse_dma,
			      "channel_status: mm2s: running|idle, s2mm: idle|idle\n"
			      "queue_size: mm2s: 0|0, s2mm: 2|0\n"
			      "queue_status: mm2s: okay|okay, s2mm: okay|okay\n"
			      "current_bd: mm2s: 3|0, s2mm: 1|0\n",
			      &t),
			0);
	CU_ASSERT_EQUAL(t.nmm2s, 2);
	CU_ASSERT_EQUAL(t.ns2mm, 2);
	CU_ASSERT_STRING_EQUAL(t.mm2s[0].status, "running");
	CU_ASSERT_EQUAL(t.s2mm[0].queue_size, 2);
	CU_ASSERT_EQUAL(t.s2mm[0].current_bd, 1);
	CU_ASSERT_STRING_EQUAL(t.s2mm[1].queue_status, "okay");
	CU_ASSERT(aie_tile_stuck(&t)); /* S2MM 0 idle with BDs queued */
	/* AIE has fifo_len, channels cut short are refused */
	CU_ASSERT_EQUAL(PARSE(aie_parse_dma,
			      "channel_status: mm2s: idle|idle, s2mm: idle|idle\nfifo_len: 0 0\n",
			      &t),
			0);
	CU_ASSERT_EQUAL(PARSE(aie_parse_dma,
			      "channel_status: mm2s: idle|idle, s2mm: idle|idle\n"
			      "queue_size: mm2s: 0, s2mm: 2|0\n",
			      &t),
			-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "channels"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_dma, "channel_status: mm2s: idle|idle\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aie_parse_dma, "channel_status: mm2s: idle|, s2mm: idle\n", &t), -1);
	CU_ASSERT_EQUAL(
		PARSE(aie_parse_dma, "channel_status: mm2s: a|b|c|d|e|f|g, s2mm: idle\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "more than"));
	CU_ASSERT_EQUAL(PARSE(aie_parse_dma, "queue_size: mm2s: 0, s2mm: 0\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aie_parse_dma, "", &t), -1);
}

static char root[64];

static char said[8][AIE_NOTE_LEN];
static int nsaid;

static void say(void *ctx, const char *line)
{
	(void)ctx;
	if (nsaid < 8)
		snprintf(said[nsaid++], sizeof said[0], "%s", line);
}

static void test_tree(void)
{
	aie_state *s = malloc(sizeof *s);
	char p[256], big[6000];
	json_object *j;
	const char *txt;
	time_t t0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	snprintf(root, sizeof root, "/tmp/aieth-aiestate-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(root));
	setenv("AIETH_SYSFS_ROOT", root, 1);
	/* no driver */
	aie_state_init(s, "sysfs");
	CU_ASSERT_EQUAL(aie_state_read_sysfs(s, 1000), 0);
	CU_ASSERT_EQUAL(s->nnotes, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "class/aie"));
	tu_mkdir(root, "class");
	tu_mkdir(root, "class/aie");
	tu_mkdir(root, "class/aie/aiepart_24_2");
	tu_mkdir(root, "class/aie/aiepart_24_2/24_0");
	tu_mkdir(root, "class/aie/aiepart_24_2/25_1");
	tu_mkdir(root, "class/aie/aiepart_24_2/25_2");
	tu_mkdir(root, "class/aie/aiepart_24_2/25_3");
	tu_mkdir(root, "class/aie/aiepart_24_2/25_4");
	tu_put(root, "class/aie/aiepart_24_2/24_0/dma",
	       "channel_status: mm2s: idle|idle, s2mm: idle|idle\n"
	       "queue_size: mm2s: 0|0, s2mm: 2|0\n"
	       "queue_status: mm2s: okay|okay, s2mm: okay|okay\n"
	       "current_bd: mm2s: 0|0, s2mm: 4|0\n");
	tu_put(root, "class/aie/aiepart_24_2/24_0/lock", "0: 0\n1: 1\n");
	tu_put(root, "class/aie/aiepart_24_2/25_1/core",
	       "status: enable|west_lock_stall\npc: 0x00000230\nlr: 0x0\nsp: 0x0\n");
	tu_put(root, "class/aie/aiepart_24_2/25_1/lock", "0: 0\n1: 1\n");
	tu_put(root, "class/aie/aiepart_24_2/25_2/core",
	       "status: enable|core_processor_bus_sta"); /* cut */
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	tu_put(root, "class/aie/aiepart_24_2/25_3/core", big); /* huge */
	tu_put(root, "class/aie/aiepart_24_2/25_3/lock", "\x01\x02garbage");
	snprintf(p, sizeof p, "%s/class/aie/aiepart_24_2/25_4/core", root);
	CU_ASSERT_EQUAL(mkfifo(p, 0600), 0); /* slow */
	aie_state_init(s, "sysfs");
	snprintf(s->graph, sizeof s->graph, "gr");
	t0 = time(NULL);
	CU_ASSERT_EQUAL(aie_state_read_sysfs(s, 500), 2);
	CU_ASSERT(time(NULL) - t0 < 10); /* bounded, never a hang */
	CU_ASSERT_EQUAL(s->tiles[0].kind, AIE_TILE_SHIM);
	CU_ASSERT_EQUAL(s->tiles[1].kind, AIE_TILE_CORE);
	CU_ASSERT_EQUAL(s->nnotes, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "25_2/core: line 1: core status flag"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[1], "25_3/core: larger than 4096"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[2], "25_3/lock: byte 0 is 0x01"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[3], "25_4/core: no answer within the deadline"));
	nsaid = 0;
	CU_ASSERT_EQUAL(aie_state_words(s, say, NULL, 8), 2);
	CU_ASSERT_STRING_EQUAL(said[0],
			       "DMA S2MM 0 of shim (24,0) idle with 2 BDs queued (current BD 4)");
	CU_ASSERT_STRING_EQUAL(said[1],
			       "graph gr: core (25,1) stalled on lock acquire (west) (PC 0x230)");
	j = aie_state_json(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	txt = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"status\":[\"Enable\",\"Lock_Stall_W\"]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"kind\":\"shim\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"queue_size\":2"));
	json_object_put(j);
	/* a deadline already spent: nothing read, a note, at once */
	aie_state_init(s, "sysfs");
	CU_ASSERT_EQUAL(aie_state_read_sysfs(s, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "deadline of 0 ms reached"));
	snprintf(p, sizeof p, "rm -rf %s", root);
	CU_ASSERT_EQUAL(system(p), 0);
	free(s);
}

TU_MAIN("aie_state", {"core file", test_core}, {"lock file", test_lock}, {"dma file", test_dma},
	{"a stand-in sysfs tree", test_tree})
