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
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core,
			      "status: enable|west_lock_stall\npc: 0x00000230\nlr: 0x00000010\n"
			      "sp: 0x00070020\n",
			      &t),
			0);
	CU_ASSERT_EQUAL(t.core_flags, (1u << AIE_CS_ENABLE) | (1u << AIE_CS_LOCK_STALL_W));
	CU_ASSERT_EQUAL(t.pc, 0x230);
	CU_ASSERT_EQUAL(t.sp, 0x70020);
	CU_ASSERT(aieth__aie_tile_stuck(&t));
	/* AIE spells enable "enabled" and has SS1 */
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(
		PARSE(aieth__aie_parse_core, "status: enabled|stream_stall_ss1\npc: 0x10\n", &t),
		0);
	CU_ASSERT_EQUAL(t.core_flags, (1u << AIE_CS_ENABLE) | (1u << AIE_CS_STREAM_STALL_SS1));
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: disabled\npc: 0x0\n", &t), 0);
	CU_ASSERT(t.core_disabled);
	CU_ASSERT(!aieth__aie_tile_stuck(&t));
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: clock_gated\n", &t), 0);
	CU_ASSERT(t.clock_gated);
	/* refused, each with a note */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: enable|bogus_stall\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "'bogus_stall' is unknown"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: enable|\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "core status ends with '|'"));
	/* an item's own check speaks before a trailing bar */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: enable|bogus|\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "'bogus' is unknown"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: |enable\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "flag '' is unknown"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: enable\npc: 0xZZ\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "line 2"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "status: enable\npc: 0x100000000\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "pc: 0x1\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "no status"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "", &t), -1);
	CU_ASSERT_EQUAL(aieth__aie_parse_core("status: en\0able", 15, &t, note, sizeof note), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "not text"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_core, "hello world\n", &t), -1);
}

static void test_lock(void)
{
	aie_tile t;
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_lock, "0: 0\n1: 2\n2: 63\n", &t), 0); /* AIE-ML */
	CU_ASSERT_EQUAL(t.nlocks, 3);
	CU_ASSERT_EQUAL(t.lock[1], 2);
	CU_ASSERT_EQUAL(t.lock_is_state, 0);
	CU_ASSERT_EQUAL(
		PARSE(aieth__aie_parse_lock, "0: released_for_write\n1: acquired_for_read\n", &t),
		0); /* AIE */
	CU_ASSERT_EQUAL(t.lock[1], 3);
	CU_ASSERT_EQUAL(t.lock_is_state, 1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_lock, "0: 1\n1: acquired_for_read\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "mixed"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_lock, "0: 1\n2: 1\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "out of order"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_lock, "0: 256\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_lock, "0:\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_lock, "", &t), -1);
}

static void test_dma(void)
{
	aie_tile t;
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_dma,
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
	CU_ASSERT(aieth__aie_tile_stuck(&t)); /* S2MM 0 idle with BDs queued */
	/* AIE has fifo_len, channels cut short are refused */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_dma,
			      "channel_status: mm2s: idle|idle, s2mm: idle|idle\nfifo_len: 0 0\n",
			      &t),
			0);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_dma,
			      "channel_status: mm2s: idle|idle, s2mm: idle|idle\n"
			      "queue_size: mm2s: 0, s2mm: 2|0\n",
			      &t),
			-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "channels"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_dma, "channel_status: mm2s: idle|idle\n", &t), -1);
	CU_ASSERT_EQUAL(
		PARSE(aieth__aie_parse_dma, "channel_status: mm2s: idle|, s2mm: idle\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "a field ends with '|'"));
	CU_ASSERT_EQUAL(
		PARSE(aieth__aie_parse_dma, "channel_status: mm2s: idle|idle, s2mm: idle|\n", &t),
		-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "a field ends with '|'"));
	CU_ASSERT_EQUAL(
		PARSE(aieth__aie_parse_dma, "channel_status: mm2s: idle||idle, s2mm: idle\n", &t),
		-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "field is empty"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_dma,
			      "channel_status: mm2s: a|b|c|d|e|f|g, s2mm: idle\n", &t),
			-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "more than"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_dma, "queue_size: mm2s: 0, s2mm: 0\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_dma, "", &t), -1);
}

static char root[64];

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
	aieth__aie_state_init(s, "sysfs");
	CU_ASSERT_EQUAL(aieth__aie_state_read_sysfs(s, 1000), 0);
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
	tu_put(root, "class/aie/aiepart_24_2/25_1/event", "core: 1|26\nmemory: \n");
	tu_put(root, "class/aie/aiepart_24_2/25_1/error", ""); /* none asserted */
	tu_put(root, "class/aie/aiepart_24_2/24_0/event", "pl: 5\n");
	tu_put(root, "class/aie/aiepart_24_2/25_2/core",
	       "status: enable|core_processor_bus_sta"); /* cut */
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	tu_put(root, "class/aie/aiepart_24_2/25_3/core", big); /* huge */
	tu_put(root, "class/aie/aiepart_24_2/25_3/lock", "\x01\x02garbage");
	snprintf(p, sizeof p, "%s/class/aie/aiepart_24_2/25_4/core", root);
	CU_ASSERT_EQUAL(mkfifo(p, 0600), 0); /* slow */
	aieth__aie_state_init(s, "sysfs");
	snprintf(s->graph, sizeof s->graph, "gr");
	t0 = time(NULL);
	CU_ASSERT_EQUAL(aieth__aie_state_read_sysfs(s, 500), 2);
	CU_ASSERT(time(NULL) - t0 < 10); /* bounded, never a hang */
	CU_ASSERT_EQUAL(s->tiles[0].kind, AIE_TILE_SHIM);
	CU_ASSERT_EQUAL(s->tiles[1].kind, AIE_TILE_CORE);
	CU_ASSERT_EQUAL(s->nnotes, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "25_2/core: line 1: core status flag"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[1], "25_3/core: larger than 4096"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[2], "25_3/lock: byte 0 is 0x01"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[3], "25_4/core: no answer within the deadline"));
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(s, tu_say, NULL, 8), 2);
	CU_ASSERT_STRING_EQUAL(tu_said[0],
			       "DMA S2MM 0 of shim (24,0) idle with 2 BDs queued (current BD 4)");
	CU_ASSERT_STRING_EQUAL(tu_said[1],
			       "graph gr: core (25,1) stalled on lock acquire (west) (PC 0x230)");
	j = aieth__aie_state_json(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	txt = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"status\":[\"Enable\",\"Lock_Stall_W\"]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"kind\":\"shim\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"queue_size\":2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"events\":{\"pl\":[5]}"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(txt, "\"events\":{\"core\":[1,26],\"memory\":[]},\"errors\":[]"));
	json_object_put(j);
	/* a deadline already spent: nothing read, a note, at once */
	aieth__aie_state_init(s, "sysfs");
	CU_ASSERT_EQUAL(aieth__aie_state_read_sysfs(s, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "deadline of 0 ms reached"));
	snprintf(p, sizeof p, "rm -rf %s", root);
	CU_ASSERT_EQUAL(system(p), 0);
	free(s);
}

static void test_event(void)
{
	aie_tile t;
	memset(&t, 0, sizeof t);
	/* a core tile: core and memory lines (AIE and AIE-ML alike) */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 1|26|28\nmemory: \n", &t), 0);
	CU_ASSERT_EQUAL(t.has_events, (1 << AIE_MOD_CORE) | (1 << AIE_MOD_MEMORY));
	CU_ASSERT_EQUAL(t.nevents[AIE_MOD_CORE], 3);
	CU_ASSERT_EQUAL(t.events[AIE_MOD_CORE][2], 28);
	CU_ASSERT_EQUAL(t.nevents[AIE_MOD_MEMORY], 0);
	/* a shim or memory tile: pl; a trailing blank cut */
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "pl: 5|127\n", &t), 0);
	CU_ASSERT_EQUAL(t.nevents[AIE_MOD_PL], 2);
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core:\nmemory:\n", &t), 0);
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(
		PARSE(aieth__aie_parse_event, "core: clock_gated\nmemory: clock_gated\n", &t), 0);
	CU_ASSERT(t.events_gated && t.clock_gated);
	/* what the driver never writes */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 3|2\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "line 1: core: event 2 after 3"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 128\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "events 0 to 127"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 1|\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "line 1: core: ends with '|'"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 1|x|\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "'x' is not an event number"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: x\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 01\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 1\ncore: 2\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "line 2: core: a second time"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "shim: 1\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "cut short"));
}

static void test_error(void)
{
	aie_tile t;
	memset(&t, 0, sizeof t);
	/* none asserted: the driver writes nothing */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "", &t), 0);
	CU_ASSERT(t.has_errors && t.nerrors == 0);
	/* AIE: the names of ai-engine-aie.c */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error,
			      "core: bus: axi-mm_slave_error\n"
			      "memory: dma: dma_s2mm_0_error|dma_mm2s_1_error\n",
			      &t),
			0);
	CU_ASSERT_EQUAL(t.nerrors, 3);
	CU_ASSERT_STRING_EQUAL(aieth__aie_module_name(t.errors[1].module), "memory");
	CU_ASSERT_STRING_EQUAL(aieth__aie_error_category_name(t.errors[1].category), "dma");
	CU_ASSERT_STRING_EQUAL(aieth__aie_error_name(t.errors[2].name), "dma_mm2s_1_error");
	/* AIE-ML: a memory tile's (pl) and a core's */
	memset(&t, 0, sizeof t);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error,
			      "pl: lock: lock_error\ncore: instruction: decompression_underflow\n",
			      &t),
			0);
	CU_ASSERT_EQUAL(t.nerrors, 2);
	/* an unknown category, name, module; an empty list; the older
	 * drivers' spelled-out names are not in the tables: a note */
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "core: weird: axi-mm_slave_error\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "category 'weird' is unknown"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "core: bus: no_such_error\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "not in the driver's tables"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error,
			      "core: stream_switch: CORE: Control packet error\n", &t),
			-1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "core: bus: \n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "core: bus\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "shim: bus: axi-mm_slave_error\n", &t), -1);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "core: bus: axi-mm_slave_error|\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "line 1: core: ends with '|'"));
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "core: bus: |axi-mm_slave_error\n", &t), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "error '' is not in the driver's tables"));
}

/* A state with a stalled core that has an error: the words say both. */
static void test_error_words(void)
{
	aie_state *s = malloc(sizeof *s);
	aie_tile *t;
	json_object *j;
	const char *txt;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth__aie_state_init(s, "sysfs");
	t = &s->tiles[s->ntiles++];
	t->col = 25, t->row = 1, t->kind = AIE_TILE_CORE, t->has_core = 1;
	CU_ASSERT_EQUAL(
		PARSE(aieth__aie_parse_core, "status: enable|west_lock_stall\npc: 0x230\n", t), 0);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "core: bus: axi-mm_slave_error\n", t), 0);
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_event, "core: 1|26\nmemory: \n", t), 0);
	t = &s->tiles[s->ntiles++];
	t->col = 24, t->row = 0, t->kind = AIE_TILE_SHIM;
	CU_ASSERT_EQUAL(PARSE(aieth__aie_parse_error, "pl: dma: dma_s2mm_0_error\n", t), 0);
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(s, tu_say, NULL, 8), 2);
	CU_ASSERT_STRING_EQUAL(tu_said[0], "core (25,1) stalled on lock acquire (west) (PC 0x230), "
					   "errors: core bus axi-mm_slave_error");
	CU_ASSERT_STRING_EQUAL(tu_said[1], "shim (24,0), errors: pl dma dma_s2mm_0_error");
	j = aieth__aie_state_json(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	txt = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	CU_ASSERT_PTR_NOT_NULL(strstr(txt, "\"events\":{\"core\":[1,26],\"memory\":[]}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(
		txt,
		"\"errors\":[{\"module\":\"core\",\"category\":\"bus\",\"name\":\"axi-mm_slave_error\"}]"));
	json_object_put(j);
	free(s);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = malloc(1 << 16);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	*len = fread(b, 1, (1 << 16) - 1, f);
	b[*len] = '\0';
	fclose(f);
	return b;
}

/* XRT's aie_status file, shaped as its writer makes it (every value a
 * string, an empty list ""): the same state as the sysfs files give. */
static void test_xrt_status(void)
{
	aie_state *s = malloc(sizeof *s);
	size_t len;
	char *text = slurp(tu_src("tests/data/aie_status/aie_status_edge_2026_12_02_101500.json"),
			   &len),
	     *bad;
	const aie_tile *core, *shim;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	aieth__aie_state_init(s, "xrt-aie-status");
	snprintf(s->graph, sizeof s->graph, "gr");
	CU_ASSERT_EQUAL(aieth__aie_state_from_xrt_status(s, "f.json", text, len, 1, 0), 2);
	CU_ASSERT_EQUAL(s->nnotes, 0);
	core = &s->tiles[0];
	shim = &s->tiles[1];
	/* XRT's core rows count from the first AI Engine row: row 0 is (25,1) */
	CU_ASSERT(core->col == 25 && core->row == 1 && core->kind == AIE_TILE_CORE);
	CU_ASSERT_EQUAL(core->core_flags, (1u << AIE_CS_ENABLE) | (1u << AIE_CS_LOCK_STALL_W));
	CU_ASSERT_EQUAL(core->pc, 0x230u);
	CU_ASSERT(core->nlocks == 2 && core->lock_is_state && core->lock[0] == 1);
	CU_ASSERT(core->ns2mm == 2 && core->s2mm[0].queue_size == 1 &&
		  core->s2mm[0].current_bd == 2);
	CU_ASSERT_STRING_EQUAL(core->s2mm[0].status, "stalled_on_requesting_lock");
	CU_ASSERT(core->nevents[AIE_MOD_CORE] == 3 && core->events[AIE_MOD_CORE][1] == 26);
	CU_ASSERT_EQUAL(core->nerrors, 1);
	CU_ASSERT(shim->col == 24 && shim->row == 0 && shim->kind == AIE_TILE_SHIM);
	CU_ASSERT(shim->ns2mm == 1 && shim->s2mm[0].queue_size == 2);
	tu_nsaid = 0;
	CU_ASSERT_EQUAL(aieth__aie_state_words(s, tu_say, NULL, 8), 3);
	CU_ASSERT_STRING_EQUAL(tu_said[0],
			       "graph gr: core (25,1) stalled on lock acquire (west) (PC "
			       "0x230), errors: core bus axi-mm_slave_error");
	CU_ASSERT_STRING_EQUAL(tu_said[1], "DMA S2MM 0 of core (25,1) stalled_on_requesting_lock "
					   "with 1 BD queued (current BD 2)");
	CU_ASSERT_STRING_EQUAL(tu_said[2],
			       "DMA S2MM 0 of shim (24,0) idle with 2 BDs queued (current BD 4)");
	/* rows not known on this board: kept as XRT's, said so */
	aieth__aie_state_init(s, "xrt-aie-status");
	CU_ASSERT_EQUAL(aieth__aie_state_from_xrt_status(s, "f.json", text, len, -1, -1), 2);
	CU_ASSERT_EQUAL(s->tiles[0].row, 0);
	CU_ASSERT(s->tiles[1].row == 0 && s->tiles[1].kind == AIE_TILE_SHIM);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "rows as XRT numbers them"));
	/* cut short (XRT rewrites it as it runs), not JSON, not its shape */
	aieth__aie_state_init(s, "xrt-aie-status");
	CU_ASSERT_EQUAL(aieth__aie_state_from_xrt_status(s, "f.json", text, len / 2, 1, 0), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "f.json"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "cut short"));
	aieth__aie_state_init(s, "xrt-aie-status");
	CU_ASSERT_EQUAL(aieth__aie_state_from_xrt_status(s, "f.json", "{\"writer\": 1}", 13, 1, 0),
			-1);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "not XRT's aie_status format"));
	/* an unknown key, a flag XRT's format has not, a lock out of order:
	 * notes naming the file and the key; the rest kept */
	bad = malloc(len + 64);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
	memcpy(bad, text, len + 1);
	memcpy(strstr(bad, "west_lock_stall"), "west_lock_stale", 15);
	memcpy(strstr(bad, "\"link_register\""), "\"link_registe?\"", 15);
	aieth__aie_state_init(s, "xrt-aie-status");
	CU_ASSERT_EQUAL(aieth__aie_state_from_xrt_status(s, "f.json", bad, len, 1, 0), 2);
	CU_ASSERT_EQUAL(s->tiles[0].core_flags, 0u);
	CU_ASSERT_EQUAL(s->nnotes, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "key 'link_registe?' is not in XRT's"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[1], "f.json: aie_metadata.graphs[gr].tile(25,1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[1], "'west_lock_stale' is not a core status flag"));
	/* a duplicate key (json-c would keep the last): refused whole */
	memcpy(bad, text, len + 1);
	memcpy(strstr(bad, "\"link_register\""), "\"stack_pointer\"", 15);
	aieth__aie_state_init(s, "xrt-aie-status");
	CU_ASSERT_EQUAL(aieth__aie_state_from_xrt_status(s, "f.json", bad, len, 1, 0), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(s->notes[0], "duplicate key"));
	free(bad);
	free(text);
	free(s);
}

/* The newest aie_status_*.json written since a time, regular files only. */
static void test_xrt_find(void)
{
	char d[64], name[64], p[128];
	snprintf(d, sizeof d, "/tmp/aieth-xrtst-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(d));
	CU_ASSERT_EQUAL(aieth__aie_xrt_status_find(d, 0, name, sizeof name), -1);
	tu_put(d, "aie_status_edge_2026_01_01_000000.json", "{}");
	tu_put(d, "aie_trace_0_0.txt", "");
	tu_mkdir(d, "aie_status_edge_dir.json");
	CU_ASSERT_EQUAL(aieth__aie_xrt_status_find(d, 0, name, sizeof name), 0);
	CU_ASSERT_STRING_EQUAL(name, "aie_status_edge_2026_01_01_000000.json");
	/* written before the session: not this session's */
	CU_ASSERT_EQUAL(
		aieth__aie_xrt_status_find(d, (long long)time(NULL) + 3600, name, sizeof name), -1);
	snprintf(p, sizeof p, "rm -rf %s", d);
	CU_ASSERT_EQUAL(system(p), 0);
}

TU_MAIN("aie_state", {"core file", test_core}, {"lock file", test_lock}, {"dma file", test_dma},
	{"event file", test_event}, {"error file", test_error},
	{"errors in the words and the JSON", test_error_words},
	{"a stand-in sysfs tree", test_tree}, {"XRT's aie_status file", test_xrt_status},
	{"XRT's aie_status file found", test_xrt_find})
