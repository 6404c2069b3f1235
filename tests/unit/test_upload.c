/* SPDX-License-Identifier: MIT */
/*
 * test_upload.c - the parsers and encoders of host/upload: --upload
 * URLs (kinds, SQUAD's identifiers, InfluxDB's db, credentials refused),
 * line protocol escaping, the SQUAD name rule, spool file names (they sort
 * oldest first) and entries (round trip, truncation found), credentials
 * (longest prefix, malformed lines, no dot segments in a prefix or a
 * target), the HTTP status classes, credentials only for the request URL
 * their target makes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aieth.h"
#include "upload/upload.h"
#include "tu.h"
#include "upload/upload_internal.h"
#include "util/error.h"

#define MSG_HAS(s) CU_ASSERT_PTR_NOT_NULL(strstr(aieth_error_message(), (s)))

static void test_url_squad(void)
{
	up_target t;
	CU_ASSERT_EQUAL(aieth__up_parse_url(
				"squad+https://squad.example.com/team/proj/1.2.3/vck190-emu", &t),
			0);
	CU_ASSERT_EQUAL(t.kind, UP_SQUAD);
	CU_ASSERT_STRING_EQUAL(t.team, "team");
	CU_ASSERT_STRING_EQUAL(t.project, "proj");
	CU_ASSERT_STRING_EQUAL(t.build, "1.2.3");
	CU_ASSERT_STRING_EQUAL(t.env, "vck190-emu");
	CU_ASSERT_STRING_EQUAL(t.url,
			       "https://squad.example.com/api/submit/team/proj/1.2.3/vck190-emu");
	/* a path prefix (SQUAD behind a proxy) and a port; one trailing slash */
	CU_ASSERT_EQUAL(aieth__up_parse_url("squad+http://h:8000/squad/a/b/c/d/", &t), 0);
	CU_ASSERT_STRING_EQUAL(t.url, "http://h:8000/squad/api/submit/a/b/c/d");
	/* SQUAD's identifier rule, too few segments */
	CU_ASSERT_EQUAL(aieth__up_parse_url("squad+https://h/a/b/c", &t), AIETH_EINVAL);
	MSG_HAS("TEAM");
	CU_ASSERT_EQUAL(aieth__up_parse_url("squad+https://h/a/b/-c/d", &t), AIETH_EINVAL);
	MSG_HAS("BUILD");
	CU_ASSERT_EQUAL(aieth__up_parse_url("squad+https://h/a/b/c/d?x=1", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__up_parse_url("squad+https://h/a//c/d", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__up_parse_url("squad+ftp://h/a/b/c/d", &t), AIETH_EINVAL);
	MSG_HAS("unknown scheme");
}

static void test_url_influx_webhook(void)
{
	up_target t;
	CU_ASSERT_EQUAL(aieth__up_parse_url("influx+http://127.0.0.1:8086/aieth", &t), 0);
	CU_ASSERT_EQUAL(t.kind, UP_INFLUX);
	CU_ASSERT_STRING_EQUAL(t.db, "aieth");
	CU_ASSERT_STRING_EQUAL(t.url, "http://127.0.0.1:8086/write?db=aieth&precision=ms");
	CU_ASSERT_EQUAL(aieth__up_parse_url("influx+https://h/proxy/db1", &t), 0);
	CU_ASSERT_STRING_EQUAL(t.url, "https://h/proxy/write?db=db1&precision=ms");
	CU_ASSERT_EQUAL(aieth__up_parse_url("influx+http://h:8086/", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__up_parse_url("influx+http://h:8086/a%20b", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__up_parse_url("https://hooks.example.com/x?y=1", &t), 0);
	CU_ASSERT_EQUAL(t.kind, UP_WEBHOOK);
	CU_ASSERT_STRING_EQUAL(t.url, "https://hooks.example.com/x?y=1");
	CU_ASSERT_EQUAL(aieth__up_parse_url("https://h/x#frag", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__up_parse_url("http:///x", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__up_parse_url("http://h/a b", &t), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__up_parse_url("", &t), AIETH_EINVAL);
	/* credentials never in a URL, and the message does not repeat them */
	CU_ASSERT_EQUAL(aieth__up_parse_url("https://user:s3cret@h/x", &t), AIETH_EINVAL);
	MSG_HAS("user:password@");
	CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "s3cret"));
	CU_ASSERT_EQUAL(aieth__upload_check_url("influx+https://user@h/db"), AIETH_EINVAL);
	CU_ASSERT_EQUAL(aieth__upload_check_url("influx+https://h/db"), 0);
}

static char *lp(const char *s, int what)
{
	static char out[256];
	sbuf b = SB_INIT(SB_DOC_MAX);
	aieth__up_lp_escape(&b, s, what);
	snprintf(out, sizeof out, "%s", b.p ? b.p : "");
	free(b.p);
	return out;
}

static void test_line_protocol_escaping(void)
{
	CU_ASSERT_STRING_EQUAL(lp("a b,c=d", UP_LP_MEASUREMENT), "a\\ b\\,c=d");
	CU_ASSERT_STRING_EQUAL(lp("a b,c=d", UP_LP_KEY), "a\\ b\\,c\\=d");
	CU_ASSERT_STRING_EQUAL(lp("say \"hi\" \\ ok", UP_LP_STRING), "say \\\"hi\\\" \\\\ ok");
	/* newlines cannot be escaped; a backslash would escape a separator */
	CU_ASSERT_STRING_EQUAL(lp("x\ny\\", UP_LP_KEY), "x_y_");
	CU_ASSERT_STRING_EQUAL(lp("x\ny", UP_LP_STRING), "x y");
	CU_ASSERT_STRING_EQUAL(lp("", UP_LP_KEY), "");
}

static void test_squad_name(void)
{
	sbuf b = SB_INIT(SB_DOC_MAX);
	aieth__up_squad_name(&b, "a/b[c]\nd");
	CU_ASSERT_STRING_EQUAL(b.p, "a_b_c__d");
	free(b.p);
}

static void test_spool_names(void)
{
	char a[128], b[128], c[128];
	CU_ASSERT_EQUAL(aieth__up_spool_name(a, sizeof a, 999, 7, 0, "squad"), 0);
	CU_ASSERT_STRING_EQUAL(a, "00000000000000000999-7-0.squad.spool");
	CU_ASSERT_EQUAL(aieth__up_spool_name(b, sizeof b, 1000, 7, 0, "influx"), 0);
	CU_ASSERT_EQUAL(
		aieth__up_spool_name(c, sizeof c, 1795519498549533523ull, 123456, 42, "webhook"),
		0);
	/* fixed width: the order of names is the order of time */
	CU_ASSERT_TRUE(strcmp(a, b) < 0);
	CU_ASSERT_TRUE(strcmp(b, c) < 0);
	CU_ASSERT_TRUE(aieth__up_spool_name_ok(a) && aieth__up_spool_name_ok(b) &&
		       aieth__up_spool_name_ok(c));
	CU_ASSERT_FALSE(aieth__up_spool_name_ok(".00000000000000000999-7-0.squad.spool.tmp.1.0"));
	CU_ASSERT_FALSE(aieth__up_spool_name_ok("0000000000000000999-7-0.squad.spool"));
	CU_ASSERT_FALSE(aieth__up_spool_name_ok("00000000000000000999-7-0..spool"));
	CU_ASSERT_FALSE(aieth__up_spool_name_ok("00000000000000000999-7-0.SQUAD.spool"));
	CU_ASSERT_FALSE(aieth__up_spool_name_ok("readme.txt"));
	CU_ASSERT_EQUAL(aieth__up_spool_name(a, 10, 999, 7, 0, "squad"), -1);
	CU_ASSERT_EQUAL(aieth__up_spool_name(a, sizeof a, 999, 7, 0, "../x"), -1);
}

static void test_spool_entry(void)
{
	up_entry e, back;
	sbuf b = SB_INIT(SB_DOC_MAX);
	uint8_t key[32], other[32];
	char *mac;
	memset(key, 0x5a, sizeof key);
	memset(other, 0x5b, sizeof other);
	memset(&e, 0, sizeof e);
	strcpy(e.run, "1700000000000-42");
	strcpy(e.target, "influx+http://h:8086/db");
	strcpy(e.url, "http://h:8086/write?db=db&precision=ms");
	strcpy(e.ctype, "text/plain; charset=utf-8");
	e.body = "m,t=1 f=1i 1\n\0binary";
	e.len = 20;
	CU_ASSERT_EQUAL(aieth__up_spool_format(&e, key, &b), 0);
	CU_ASSERT_EQUAL(aieth__up_spool_parse(b.p, b.n, "x.spool", &back), 0);
	CU_ASSERT_EQUAL(strncmp(b.p, "aieth-spool 2\nrun 1700000000000-42\ntarget ", 42), 0);
	CU_ASSERT_STRING_EQUAL(back.run, e.run);
	CU_ASSERT_STRING_EQUAL(back.target, e.target);
	CU_ASSERT_STRING_EQUAL(back.url, e.url);
	CU_ASSERT_STRING_EQUAL(back.ctype, e.ctype);
	CU_ASSERT_EQUAL(back.len, 20);
	CU_ASSERT_EQUAL(memcmp(back.body, e.body, 20), 0);
	/* the check: it verifies with the key, not with another; any byte
	 * changed (the body, the run, the target) breaks it */
	CU_ASSERT_EQUAL(aieth__up_spool_verify(b.p, b.n, &back, key, "x.spool"), 0);
	CU_ASSERT_EQUAL(aieth__up_spool_verify(b.p, b.n, &back, other, "x.spool"), AIETH_EINVAL);
	MSG_HAS("x.spool: its check does not match this spool's key");
	MSG_HAS("run 1700000000000-42");
	b.p[b.n - 1] ^= 1;
	CU_ASSERT_EQUAL(aieth__up_spool_parse(b.p, b.n, "x.spool", &back), 0);
	CU_ASSERT_EQUAL(aieth__up_spool_verify(b.p, b.n, &back, key, "x.spool"), AIETH_EINVAL);
	b.p[b.n - 1] ^= 1;
	b.p[19] ^= 1; /* a digit of the run id */
	CU_ASSERT_EQUAL(aieth__up_spool_parse(b.p, b.n, "x.spool", &back), 0);
	CU_ASSERT_EQUAL(aieth__up_spool_verify(b.p, b.n, &back, key, "x.spool"), AIETH_EINVAL);
	b.p[19] ^= 1;
	CU_ASSERT_EQUAL(aieth__up_spool_parse(b.p, b.n, "x.spool", &back), 0);
	CU_ASSERT_EQUAL(aieth__up_spool_verify(b.p, b.n, &back, key, "x.spool"), 0);
	/* a malformed check line */
	mac = strstr(b.p, "\nmac ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mac);
	mac[6] = 'G';
	CU_ASSERT_EQUAL(aieth__up_spool_parse(b.p, b.n, "x.spool", &back), AIETH_EPARSE);
	MSG_HAS("mac is not 64 lowercase hex digits");
	mac[6] = '0';
	/* the format before the check: refused, with what to do */
	CU_ASSERT_EQUAL(aieth__up_spool_parse("aieth-spool 1\ntarget x\n", 23, "old.spool", &back),
			AIETH_EUNSUPPORTED);
	MSG_HAS("old.spool: written by an older aieth (spool format 1");
	MSG_HAS("send it with that older version (run_test --flush-spool) or delete it");
	/* truncated, or a request URL that is not the target's */
	CU_ASSERT_EQUAL(aieth__up_spool_parse(b.p, b.n - 1, "x.spool", &back), AIETH_EPARSE);
	MSG_HAS("truncated");
	strcpy(e.url, "http://elsewhere/write?db=db&precision=ms");
	b.n = 0;
	CU_ASSERT_EQUAL(aieth__up_spool_format(&e, key, &b), 0);
	CU_ASSERT_EQUAL(aieth__up_spool_parse(b.p, b.n, "x.spool", &back), AIETH_EPARSE);
	CU_ASSERT_EQUAL(aieth__up_spool_parse("aieth-spool 2\n", 14, "x.spool", &back),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(aieth__up_spool_parse("", 0, "x.spool", &back), AIETH_EPARSE);
	free(b.p);
}

/* The spool is the user's alone: a folder group or others may write, or
 * of another uid, is refused with the component named; a planted entry
 * (a forged check, another format, another owner) is refused, kept and
 * never sent; what we write is 0600 in a 0700 folder. */
static char spool_tmp[64];

static const char *sp(const char *name)
{
	static char buf[8][256];
	static int slot;
	char *b = buf[slot++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", spool_tmp, name);
	return b;
}

static void put(const char *path, const char *text, size_t n, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, text, n), (ssize_t)n);
	CU_ASSERT_EQUAL(fchmod(fd, mode), 0);
	close(fd);
}

static void test_spool_folder(void)
{
	aieth__upload_opts o = AIETH_UPLOAD_OPTS_INIT;
	char *log = NULL, want[300], cmd[128], dir[256];
	uint8_t forged[32];
	up_entry e;
	sbuf b = SB_INIT(SB_DOC_MAX);
	struct stat st;
	size_t left = 99;
	snprintf(spool_tmp, sizeof spool_tmp, "/tmp/aieth-upspool-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(spool_tmp));
	/* a world-writable folder on the way (no sticky bit): refused, named */
	CU_ASSERT_EQUAL(mkdir(sp("pub"), 0777), 0);
	CU_ASSERT_EQUAL(chmod(sp("pub"), 0777), 0);
	CU_ASSERT_EQUAL(mkdir(sp("pub/spool"), 0700), 0);
	snprintf(dir, sizeof dir, "%s", sp("pub/spool"));
	o.spool_dir = dir;
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_EINVAL);
	snprintf(want, sizeof want, "spool %s: its component %s (owner uid %u, mode 0777)",
		 sp("pub/spool"), sp("pub"), (unsigned)geteuid());
	MSG_HAS(want);
	free(log);
	/* the spool itself group-writable: refused */
	CU_ASSERT_EQUAL(chmod(sp("pub"), 0755), 0);
	CU_ASSERT_EQUAL(chmod(sp("pub/spool"), 0770), 0);
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_EINVAL);
	MSG_HAS("mode 0770: group or others may write it");
	free(log);
	/* another uid's (as root) */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(chmod(sp("pub/spool"), 0700), 0);
		CU_ASSERT_EQUAL(chown(sp("pub/spool"), 65534, 65534), 0);
		CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_EINVAL);
		MSG_HAS("owned by uid 65534 (mode 0700), not by us (uid 0)");
		free(log);
	}
	/* a spool of ours: an entry with a forged check (a key of its own, the
	 * format right), one of the format before, one owned by another uid
	 * or writable by others: all refused, kept, never sent (the target
	 * is a port nobody listens on: a send would be "spooled" with a
	 * connection error, not "refused") */
	CU_ASSERT_EQUAL(mkdir(sp("mine"), 0755), 0);
	snprintf(dir, sizeof dir, "%s", sp("mine"));
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK); /* makes the key */
	free(log);
	CU_ASSERT_EQUAL(stat(sp("mine"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
	CU_ASSERT_EQUAL(stat(sp("mine/.key"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	CU_ASSERT_EQUAL(st.st_size, 32);
	memset(&e, 0, sizeof e);
	strcpy(e.run, "1-1");
	strcpy(e.target, "http://127.0.0.1:9/hook");
	strcpy(e.url, "http://127.0.0.1:9/hook");
	strcpy(e.ctype, "application/json");
	e.body = "{\"forged\": true}";
	e.len = strlen(e.body);
	memset(forged, 0x11, sizeof forged);
	CU_ASSERT_EQUAL(aieth__up_spool_format(&e, forged, &b), 0);
	put(sp("mine/00000000000000000001-1-0.webhook.spool"), b.p, b.n, 0600);
	put(sp("mine/00000000000000000002-1-0.webhook.spool"),
	    "aieth-spool 1\ntarget http://127.0.0.1:9/hook\nurl http://127.0.0.1:9/hook\n"
	    "content-type application/json\nlength 2\n\n{}",
	    115, 0600);
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK);
	CU_ASSERT_EQUAL(left, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	snprintf(want, sizeof want, "upload ? (from the spool): refused, %s",
		 sp("mine/00000000000000000001-1-0.webhook.spool"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "its check does not match this spool's key"));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "written by an older aieth (spool format 1"));
	CU_ASSERT_PTR_NULL(strstr(log, "spooled"));
	CU_ASSERT_PTR_NULL(strstr(log, "delivered"));
	free(log);
	CU_ASSERT_EQUAL(access(sp("mine/00000000000000000001-1-0.webhook.spool"), F_OK), 0);
	CU_ASSERT_EQUAL(access(sp("mine/00000000000000000002-1-0.webhook.spool"), F_OK), 0);
	CU_ASSERT_EQUAL(access(sp("mine/failed"), F_OK), -1);
	CU_ASSERT_EQUAL(unlink(sp("mine/00000000000000000001-1-0.webhook.spool")), 0);
	CU_ASSERT_EQUAL(unlink(sp("mine/00000000000000000002-1-0.webhook.spool")), 0);
	/* an entry with the right check but writable by others, or another
	 * uid's: refused too */
	{
		uint8_t key[32];
		int fd = open(sp("mine/.key"), O_RDONLY);
		CU_ASSERT_EQUAL(read(fd, key, 32), 32);
		close(fd);
		b.n = 0;
		CU_ASSERT_EQUAL(aieth__up_spool_format(&e, key, &b), 0);
	}
	put(sp("mine/00000000000000000003-1-0.webhook.spool"), b.p, b.n, 0622);
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK);
	CU_ASSERT_EQUAL(left, 1);
	CU_ASSERT(log && strstr(log, "mode 0622: group or others may write it"));
	free(log);
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(chmod(sp("mine/00000000000000000003-1-0.webhook.spool"), 0600), 0);
		CU_ASSERT_EQUAL(
			chown(sp("mine/00000000000000000003-1-0.webhook.spool"), 65534, 65534), 0);
		CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK);
		CU_ASSERT_EQUAL(left, 1);
		CU_ASSERT(log && strstr(log, "owned by uid 65534, not by us"));
		free(log);
	}
	/* ours, with the right check: sent (here: tried, and spooled again -
	 * nobody listens on port 9) */
	CU_ASSERT_EQUAL(
		chown(sp("mine/00000000000000000003-1-0.webhook.spool"), geteuid(), getegid()), 0);
	CU_ASSERT_EQUAL(chmod(sp("mine/00000000000000000003-1-0.webhook.spool"), 0600), 0);
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK);
	CU_ASSERT_EQUAL(left, 1);
	CU_ASSERT(log && strstr(log, "(from the spool): spooled"));
	CU_ASSERT_PTR_NULL(log ? strstr(log, "refused") : NULL);
	free(log);
	free(b.p);
	snprintf(cmd, sizeof cmd, "rm -rf %s", spool_tmp);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* A file of the spool (made 0600) modified age seconds ago. */
static void put_aged(const char *name, time_t age)
{
	struct timespec t[2];
	t[0].tv_sec = t[1].tv_sec = time(NULL) - age;
	t[0].tv_nsec = t[1].tv_nsec = 0;
	put(sp(name), "x", 1, 0600);
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, sp(name), t, AT_SYMLINK_NOFOLLOW), 0);
}

/* A flush removes the temporary files (".tmp.*") a writer that died left
 * in the spool and its failed/, older than an hour; a fresh one (a writer
 * at work), another file, a link or a folder of that name is kept. */
static void test_spool_temps(void)
{
	aieth__upload_opts o = AIETH_UPLOAD_OPTS_INIT;
	struct timespec t[2];
	char *log = NULL, dir[256], cmd[128];
	size_t left = 99;
	snprintf(spool_tmp, sizeof spool_tmp, "/tmp/aieth-upspool-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(spool_tmp));
	CU_ASSERT_EQUAL(mkdir(sp("s"), 0700), 0);
	CU_ASSERT_EQUAL(mkdir(sp("s/failed"), 0700), 0);
	snprintf(dir, sizeof dir, "%s", sp("s"));
	o.spool_dir = dir;
	put_aged("s/.tmp.00000000000000000001-1-0.webhook.spool", 2 * 3600);
	put_aged("s/.tmp.key.1.00112233", 3601 + 60);
	put_aged("s/failed/.tmp.00000000000000000002-1-0.squad.spool", 2 * 3600);
	put_aged("s/.tmp.00000000000000000003-1-0.webhook.spool", 60);
	put_aged("s/failed/.tmp.00000000000000000004-1-0.squad.spool", 0);
	put_aged("s/notes.txt", 2 * 3600);
	CU_ASSERT_EQUAL(mkdir(sp("s/.tmp.dir"), 0700), 0);
	CU_ASSERT_EQUAL(symlink("notes.txt", sp("s/.tmp.link")), 0);
	t[0].tv_sec = t[1].tv_sec = time(NULL) - 2 * 3600;
	t[0].tv_nsec = t[1].tv_nsec = 0;
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, sp("s/.tmp.dir"), t, 0), 0);
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, sp("s/.tmp.link"), t, AT_SYMLINK_NOFOLLOW), 0);
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK);
	CU_ASSERT_EQUAL(left, 0);
	CU_ASSERT(log && strstr(log, "removed 3 temporary file(s) older than 3600 s"));
	free(log);
	CU_ASSERT_EQUAL(access(sp("s/.tmp.00000000000000000001-1-0.webhook.spool"), F_OK), -1);
	CU_ASSERT_EQUAL(access(sp("s/.tmp.key.1.00112233"), F_OK), -1);
	CU_ASSERT_EQUAL(access(sp("s/failed/.tmp.00000000000000000002-1-0.squad.spool"), F_OK), -1);
	CU_ASSERT_EQUAL(access(sp("s/.tmp.00000000000000000003-1-0.webhook.spool"), F_OK), 0);
	CU_ASSERT_EQUAL(access(sp("s/failed/.tmp.00000000000000000004-1-0.squad.spool"), F_OK), 0);
	CU_ASSERT_EQUAL(access(sp("s/notes.txt"), F_OK), 0);
	CU_ASSERT_EQUAL(access(sp("s/.tmp.dir"), F_OK), 0);
	CU_ASSERT_EQUAL(faccessat(AT_FDCWD, sp("s/.tmp.link"), F_OK, AT_SYMLINK_NOFOLLOW), 0);
	/* nothing old left: nothing said */
	CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK);
	CU_ASSERT_PTR_NULL(log ? strstr(log, "temporary") : NULL);
	free(log);
	/* as root: another uid's old temporary is not ours to remove */
	if (geteuid() == 0) {
		put_aged("s/.tmp.theirs", 2 * 3600);
		CU_ASSERT_EQUAL(lchown(sp("s/.tmp.theirs"), 65534, 65534), 0);
		CU_ASSERT_EQUAL(aieth__upload_flush(&o, &log, &left), AIETH_OK);
		CU_ASSERT_EQUAL(access(sp("s/.tmp.theirs"), F_OK), 0);
		free(log);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", spool_tmp);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_credentials(void)
{
	static const char text[] = "# comment\n"
				   "\n"
				   "squad+https://squad.example.com/ token general\r\n"
				   "squad+https://squad.example.com/team/ token specific\n"
				   "influx+http://h:8086/ basic user:pw\n";
	up_cred c;
	CU_ASSERT_EQUAL(aieth__up_creds_parse(text, sizeof text - 1, "creds",
					      "squad+https://squad.example.com/team/p/b/e", &c),
			0);
	CU_ASSERT_EQUAL(c.type, UP_CRED_TOKEN);
	CU_ASSERT_STRING_EQUAL(c.value, "specific");
	CU_ASSERT_EQUAL(aieth__up_creds_parse(text, sizeof text - 1, "creds",
					      "squad+https://squad.example.com/other/p/b/e", &c),
			0);
	CU_ASSERT_STRING_EQUAL(c.value, "general");
	CU_ASSERT_EQUAL(aieth__up_creds_parse(text, sizeof text - 1, "creds",
					      "influx+http://h:8086/db", &c),
			0);
	CU_ASSERT_EQUAL(c.type, UP_CRED_BASIC);
	CU_ASSERT_STRING_EQUAL(c.value, "user:pw");
	CU_ASSERT_EQUAL(aieth__up_creds_parse(text, sizeof text - 1, "creds", "https://other/", &c),
			0);
	CU_ASSERT_EQUAL(c.type, UP_CRED_NONE);
	/* malformed lines name the file and line, never the value */
	CU_ASSERT_EQUAL(aieth__up_creds_parse("x token a b\n", 12, "creds", "x", &c), AIETH_EPARSE);
	MSG_HAS("creds:1");
	CU_ASSERT_EQUAL(aieth__up_creds_parse("\nx basic nocolon\n", 17, "creds", "x", &c),
			AIETH_EPARSE);
	MSG_HAS("creds:2");
	CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "nocolon"));
	CU_ASSERT_EQUAL(aieth__up_creds_parse("x password y\n", 13, "creds", "x", &c),
			AIETH_EPARSE);
}

/* the credential found for target among text's lines ("" for none) */
static const char *cred_for(const char *text, const char *target)
{
	static up_cred c;
	if (aieth__up_creds_parse(text, strlen(text), "creds", target, &c))
		return "(error)";
	return c.type == UP_CRED_NONE ? "" : c.value;
}

static void test_credentials_match_components(void)
{
	static const char hosts[] = "http://127.0.0.1 token loopback\n"
				    "squad+https://squad.example.com token squad\n"
				    "squad+https://squad.example.com/aie-lab/ token lab\n"
				    "influx+http://m.example.com:8086/ token influx\n"
				    "https://[::1]:8443/hook token v6\n";
	up_cred c;

	/* the host is a whole component: no longer host matches it */
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "http://127.0.0.1/x"), "loopback");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "http://127.0.0.12/x"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "http://127.0.0.1.evil.net/x"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "squad+https://squad.example.com/t/p/b/e"), "squad");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "squad+https://squad.example.com.evil.net/t/p/b/e"),
			       "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "squad+https://SQUAD.example.com/t/p/b/e"), "squad");
	/* the scheme and the port: http is not https, a default port is itself */
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "squad+http://squad.example.com/t/p/b/e"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "https://squad.example.com/t/p/b/e"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "http://127.0.0.1:80/x"), "loopback");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "http://127.0.0.1:8080/x"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "squad+https://squad.example.com:8443/t/p/b/e"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "influx+http://m.example.com:8086/db"), "influx");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "influx+http://m.example.com:80866/db"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "influx+http://m.example.com/db"), "");
	/* whole path segments, the most of them winning */
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "squad+https://squad.example.com/aie-lab/p/b/e"),
			       "lab");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "squad+https://squad.example.com/aie-lab-x/p/b/e"),
			       "squad");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "https://[::1]:8443/hook"), "v6");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "https://[::1]:8443/hook/a?x=1"), "v6");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "https://[::1]:8443/hooks"), "");
	CU_ASSERT_STRING_EQUAL(cred_for(hosts, "https://[::1]/hook"), "");
	/* a prefix that is no URL is a mistake in the file, named */
	CU_ASSERT_EQUAL(aieth__up_creds_parse("squad.example.com token t\n", 26, "creds", "x", &c),
			AIETH_EPARSE);
	MSG_HAS("creds:1: the URL-PREFIX is not SCHEME://HOST");
	CU_ASSERT_EQUAL(aieth__up_creds_parse("ftp://h/ token t\n", 17, "creds", "x", &c),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(aieth__up_creds_parse("http://u:p@h/ token t\n", 22, "creds", "x", &c),
			AIETH_EPARSE);
	MSG_HAS("user:password@");
	CU_ASSERT_EQUAL(aieth__up_creds_parse("http://h:99999/ token t\n", 24, "creds", "x", &c),
			AIETH_EPARSE);
	MSG_HAS("a bad port");
	CU_ASSERT_EQUAL(aieth__up_creds_parse("http://h/?a token t\n", 20, "creds", "x", &c),
			AIETH_EPARSE);
	CU_ASSERT_EQUAL(aieth__up_creds_parse("http:// token t\n", 16, "creds", "x", &c),
			AIETH_EPARSE);
	MSG_HAS("no host");
}

static void test_credentials_env(void)
{
	up_cred c;
	/* the environment: per kind first */
	setenv("AIETH_INFLUX_TOKEN", "itok", 1);
	setenv("AIETH_UPLOAD_TOKEN", "utok", 1);
	CU_ASSERT_EQUAL(aieth__up_creds_find(NULL, "influx+http://h/db", UP_INFLUX, &c), 0);
	CU_ASSERT_STRING_EQUAL(c.value, "itok");
	CU_ASSERT_EQUAL(aieth__up_creds_find(NULL, "https://h/x", UP_WEBHOOK, &c), 0);
	CU_ASSERT_STRING_EQUAL(c.value, "utok");
	setenv("AIETH_UPLOAD_TOKEN", "two words", 1);
	CU_ASSERT_EQUAL(aieth__up_creds_find(NULL, "https://h/x", UP_WEBHOOK, &c), AIETH_EINVAL);
	unsetenv("AIETH_INFLUX_TOKEN");
	unsetenv("AIETH_UPLOAD_TOKEN");
}

/* the number of lines of text that contain needle */
static int lines_with(const char *text, const char *needle)
{
	int n = 0;
	const char *p = text;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		n += strstr(line, needle) != NULL;
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

/* A sweep's points (name[axis=value,...]) in the payloads: InfluxDB tags
 * escape '=' and ',' (a '[' needs none), SQUAD keys map '[' and ']' only,
 * so every point keeps a key of its own. */
static void test_payload_sweep_points(void)
{
	static const char report[] =
		"{\"run\": {\"id\": \"r1\", \"tool_version\": \"0.1.0\"},"
		" \"environment\": {\"board\": \"vck190\", \"backend\": \"emu\"},"
		" \"tests\": ["
		"  {\"name\": \"a[size=16,mode=perf]\", \"status\": \"pass\", \"transactions\": []},"
		"  {\"name\": \"a[size=32,mode=perf]\", \"status\": \"fail\", \"transactions\": []}]}";
	struct json_object *root = json_tokener_parse(report), *tj, *v;
	sbuf b = SB_INIT(SB_DOC_MAX);
	const char *tests;
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_EQUAL_FATAL(aieth__up_payload_influx(root, 1000, &b), 0);
	CU_ASSERT_EQUAL(
		lines_with(b.p, "test=a[size\\=16\\,mode\\=perf],version=0.1.0 status=\"pass\""),
		1);
	CU_ASSERT_EQUAL(
		lines_with(b.p, "test=a[size\\=32\\,mode\\=perf],version=0.1.0 status=\"fail\""),
		1);
	free(b.p);
	aieth__sb_init(&b, SB_DOC_MAX);
	CU_ASSERT_EQUAL_FATAL(aieth__up_payload_squad(root, "{}", "BND", &b), 0);
	tests = strstr(b.p, "filename=\"tests.json\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tests);
	tests = strstr(tests, "\r\n\r\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tests);
	tj = json_tokener_parse(tests + 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tj);
	CU_ASSERT(json_object_object_get_ex(tj, "a_size=16,mode=perf_/result", &v) &&
		  !strcmp(json_object_get_string(v), "pass"));
	CU_ASSERT(json_object_object_get_ex(tj, "a_size=32,mode=perf_/result", &v) &&
		  !strcmp(json_object_get_string(v), "fail"));
	json_object_put(tj);
	free(b.p);
	json_object_put(root);
}

/* Namesakes never replace each other: tests and transactions equal once
 * escaped become NAME#2, a repeated latency bound gets #2 (SQUAD) or seq=2
 * (InfluxDB). */
static void test_payload_namesakes(void)
{
	static const char report[] =
		"{\"run\": {\"id\": \"r1\", \"tool_version\": \"0.1.0\"},"
		" \"environment\": {\"board\": \"vck190\", \"backend\": \"emu\"},"
		" \"tests\": ["
		"  {\"name\": \"t/x\", \"status\": \"fail\", \"transactions\": ["
		"    {\"name\": \"p\", \"channels\": [{\"plio\": \"A\", \"verdict\": \"fail\", \"cycles\": 1}],"
		"     \"latencies\": [{\"from\": \"A\", \"to\": \"B\", \"cycles\": 3},"
		"                     {\"from\": \"A\", \"to\": \"B\", \"cycles\": 4}]},"
		"    {\"name\": \"p\", \"channels\": [{\"plio\": \"A\", \"verdict\": \"pass\", \"cycles\": 2}]}]},"
		"  {\"name\": \"t_x\", \"status\": \"pass\", \"transactions\": []},"
		"  {\"name\": \"t/x\", \"status\": \"pass\", \"transactions\": []}]}";
	struct json_object *root = json_tokener_parse(report), *tj = NULL, *v;
	sbuf b = SB_INIT(SB_DOC_MAX);
	const char *tests;

	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_EQUAL_FATAL(aieth__up_payload_squad(root, "{}", "BND", &b), 0);
	/* the "tests" part: the JSON between its headers and the next boundary */
	tests = strstr(b.p, "filename=\"tests.json\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tests);
	tests = strstr(tests, "\r\n\r\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tests);
	tj = json_tokener_parse(tests + 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tj);
	CU_ASSERT_EQUAL(json_object_object_length(tj), 5);
	CU_ASSERT(json_object_object_get_ex(tj, "t_x/result", &v) &&
		  !strcmp(json_object_get_string(v), "fail"));
	CU_ASSERT(json_object_object_get_ex(tj, "t_x#2/result", &v) &&
		  !strcmp(json_object_get_string(v), "pass"));
	CU_ASSERT(json_object_object_get_ex(tj, "t_x#3/result", &v) &&
		  !strcmp(json_object_get_string(v), "pass"));
	CU_ASSERT(json_object_object_get_ex(tj, "t_x/p/A", &v) &&
		  !strcmp(json_object_get_string(v), "fail"));
	CU_ASSERT(json_object_object_get_ex(tj, "t_x/p#2/A", &v) &&
		  !strcmp(json_object_get_string(v), "pass"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "\"t_x/p/latency.A.B.cycles\":3"));
	CU_ASSERT_PTR_NOT_NULL(strstr(b.p, "\"t_x/p/latency.A.B.cycles#2\":4"));
	json_object_put(tj);
	free(b.p);

	aieth__sb_init(&b, SB_DOC_MAX);
	CU_ASSERT_EQUAL_FATAL(aieth__up_payload_influx(root, 1000, &b), 0);
	CU_ASSERT_EQUAL(lines_with(b.p, "aieth_test,"), 3);
	CU_ASSERT_EQUAL(lines_with(b.p, "test=t/x,version=0.1.0 status=\"fail\""), 1);
	CU_ASSERT_EQUAL(lines_with(b.p, "test=t/x#2,version=0.1.0 status=\"pass\""), 1);
	CU_ASSERT_EQUAL(lines_with(b.p, "test=t_x,version=0.1.0 status=\"pass\""), 1);
	CU_ASSERT_EQUAL(lines_with(b.p, "plio=A,transaction=p,version=0.1.0 "), 1);
	CU_ASSERT_EQUAL(lines_with(b.p, "plio=A,transaction=p#2,version=0.1.0 "), 1);
	CU_ASSERT_EQUAL(lines_with(b.p, "to=B,transaction=p,version=0.1.0 cycles=3i"), 1);
	CU_ASSERT_EQUAL(lines_with(b.p, "to=B,transaction=p,version=0.1.0,seq=2 cycles=4i"), 1);
	free(b.p);
	json_object_put(root);
}

static void test_http_classes(void)
{
	CU_ASSERT_EQUAL(aieth__up_http_class(200), UP_SENT);
	CU_ASSERT_EQUAL(aieth__up_http_class(204), UP_SENT);
	CU_ASSERT_EQUAL(aieth__up_http_class(0), UP_RETRY);
	CU_ASSERT_EQUAL(aieth__up_http_class(408), UP_RETRY);
	CU_ASSERT_EQUAL(aieth__up_http_class(429), UP_RETRY);
	CU_ASSERT_EQUAL(aieth__up_http_class(503), UP_RETRY);
	CU_ASSERT_EQUAL(aieth__up_http_class(400), UP_PERMANENT);
	CU_ASSERT_EQUAL(aieth__up_http_class(401), UP_PERMANENT);
	CU_ASSERT_EQUAL(aieth__up_http_class(302), UP_PERMANENT);
}

/* "." and ".." path segments, as written or percent-encoded (a server
 * decodes them), are refused for every kind: libcurl or the server would
 * resolve them and the request would leave the path its credentials were
 * matched by. The message names the URL and the segment. */
static void test_url_dot_segments(void)
{
	static const char *const bad[] = {
		"influx+http://h/lab/../other/db",
		"influx+http://h/lab/./db",
		"influx+https://h/../db",
		"squad+http://h/lab/../other/team/p/b/e",
		"squad+https://h/./t/p/b/e",
		"squad+http://h/lab/%2e%2e/t/p/b/e",
		"http://h/lab/../other/hook",
		"http://h/lab/./hook",
		"https://h/lab/..",
		"https://h/lab/.",
		"http://h/lab/..?x=1",
		"http://h/lab/%2e%2e/other",
		"http://h/lab/%2E%2E/other",
		"http://h/lab/.%2e/other",
		"http://h/lab/%2E./other",
		"http://h/lab/%2e/hook",
		"http://h/lab/..%2Fother",
		"http://h/lab/x%2F..%2F..%2Fother",
		"http://h/lab/..%5Cother",
		"http://h/lab/..\\other",
		"http://h/lab/x\\..\\..\\other",
		"http://h/lab/%252e%252e/other",
		"http://h/lab/.%252E/other",
		"http://h/lab/..%252Fother",
	};
	static const char *const good[] = {
		"http://h/lab/...", /* not a dot segment */
		"http://h/lab/.hidden",
		"http://h/lab/a..b",
		"http://h/lab/%2e%2e%2e",
		"http://h/lab/group%2Fproject/hook", /* GitLab-style ids stay */
		"http://h/lab/hook?path=../x",       /* the query is not resolved */
		"http://h/lab/%2",
		"http://h/lab/%zz.",
		"https://h",
		"https://h/",
		"influx+http://h/a.b/db.1",
		"squad+https://h/pre.fix/t/p/b/e",
	};
	up_target t;
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		int rc = aieth__up_parse_url(bad[i], &t);
		CU_ASSERT_EQUAL(rc, AIETH_EINVAL);
		if (rc != AIETH_EINVAL)
			fprintf(stderr, "accepted: %s\n", bad[i]);
		else
			MSG_HAS(bad[i]);
	}
	CU_ASSERT_EQUAL(aieth__up_parse_url("http://h/lab/%2e%2E/other", &t), AIETH_EINVAL);
	MSG_HAS("segment \"%2e%2E\" is \".\" or \"..\"");
	CU_ASSERT_EQUAL(aieth__up_parse_url("influx+http://h/lab/../other/db", &t), AIETH_EINVAL);
	MSG_HAS("segment \"..\"");
	CU_ASSERT_EQUAL(aieth__upload_check_url("squad+http://h/lab/../x/t/p/b/e"), AIETH_EINVAL);
	for (i = 0; i < sizeof good / sizeof *good; i++) {
		int rc = aieth__up_parse_url(good[i], &t);
		CU_ASSERT_EQUAL(rc, 0);
		if (rc)
			fprintf(stderr, "refused: %s: %s\n", good[i], aieth_error_message());
	}
}

/* A credentials line whose prefix has a dot segment is refused when the
 * file is read (naming the file, the line and the segment, never the
 * value); a target with one gets no credentials, from the file or the
 * environment. */
static void test_credentials_dot_segments(void)
{
	static const char *const bad[] = {
		"http://h/lab/../ token t0p\n",
		"http://h/lab/.. token t0p\n",
		"squad+https://h/./lab/ token t0p\n",
		"influx+http://h:8086/lab/%2e%2e/ token t0p\n",
		"https://h/lab/.%2E/x token t0p\n",
		"https://h/lab/x%2f..%2F token t0p\n",
	};
	static const char two[] = "http://h/ token general\nhttp://h/lab/%2E/ token t0p\n";
	up_cred c;
	size_t i;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(
			aieth__up_creds_parse(bad[i], strlen(bad[i]), "creds", "http://h/x", &c),
			AIETH_EPARSE);
		MSG_HAS("creds:1: the URL-PREFIX's path segment");
		CU_ASSERT_PTR_NULL(strstr(aieth_error_message(), "t0p"));
		CU_ASSERT_EQUAL(c.type, UP_CRED_NONE);
	}
	CU_ASSERT_EQUAL(aieth__up_creds_parse(two, sizeof two - 1, "creds", "http://h/lab/x", &c),
			AIETH_EPARSE);
	MSG_HAS("creds:2");
	MSG_HAS("\"%2E\"");
	/* the target: refused by aieth__up_parse_url already, and here too */
	CU_ASSERT_EQUAL(aieth__up_creds_parse("http://h/lab/ token t0p\n", 24, "creds",
					      "http://h/lab/../x", &c),
			AIETH_EINVAL);
	CU_ASSERT_EQUAL(c.type, UP_CRED_NONE);
	CU_ASSERT_STRING_EQUAL(cred_for("http://h/lab/ token t0p\n", "http://h/lab/%2e%2e/x"),
			       "(error)");
	CU_ASSERT_STRING_EQUAL(cred_for("http://h/lab/ token t0p\n", "http://h/lab/..x"), "t0p");
	setenv("AIETH_WEBHOOK_TOKEN", "envtok", 1);
	CU_ASSERT_NOT_EQUAL(aieth__up_creds_find(NULL, "http://h/lab/../x", UP_WEBHOOK, &c), 0);
	CU_ASSERT_EQUAL(c.type, UP_CRED_NONE);
	CU_ASSERT_EQUAL(aieth__up_creds_find(NULL, "http://h/lab/x", UP_WEBHOOK, &c), 0);
	CU_ASSERT_STRING_EQUAL(c.value, "envtok");
	unsetenv("AIETH_WEBHOOK_TOKEN");
}

/* Credentials go only to the request URL their --upload URL makes: a
 * (spooled) entry whose URL is another is not sent, nothing is tried. */
static void test_http_creds_bound_to_target(void)
{
#ifdef AIETH_HAVE_CURL
	aieth__upload_opts o = AIETH_UPLOAD_OPTS_INIT;
	up_cred cred = {UP_CRED_TOKEN, "t0p"};
	up_entry e;
	char err[600];
	long code = -1;
	memset(&e, 0, sizeof e);
	snprintf(e.target, sizeof e.target, "http://127.0.0.1:9/lab/hook");
	snprintf(e.url, sizeof e.url, "http://127.0.0.1:9/other/hook");
	snprintf(e.ctype, sizeof e.ctype, "application/json");
	e.body = "{}";
	e.len = 2;
	CU_ASSERT_EQUAL(aieth__up_http_post(&e, UP_WEBHOOK, &cred, &o, &code, err, sizeof err),
			UP_PERMANENT);
	CU_ASSERT_EQUAL(code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "credentials are not sent"));
	snprintf(e.target, sizeof e.target, "influx+http://127.0.0.1:9/lab/db");
	snprintf(e.url, sizeof e.url, "http://127.0.0.1:9/lab/../write?db=db&precision=ms");
	CU_ASSERT_EQUAL(aieth__up_http_post(&e, UP_INFLUX, &cred, &o, &code, err, sizeof err),
			UP_PERMANENT);
#endif
}

/* aieth__upload_opts is versioned: refused before the spool is touched. */
static void test_opts_version(void)
{
	aieth__upload_opts o = AIETH_UPLOAD_OPTS_INIT;
	size_t left;
	TU_OPTS_INIT(aieth__upload_opts, AIETH_UPLOAD_OPTS_INIT, aieth__upload_opts_init,
		     AIETH_UPLOAD_OPTS_VERSION);
	o.spool_dir = "/dev/null/aieth-spool"; /* nobody can create it, root included */
	TU_OPTS_REFUSED(aieth__upload_flush(&o, NULL, &left), o.version, "aieth_upload_opts",
			"AIETH_UPLOAD_OPTS_INIT or aieth_upload_opts_init",
			AIETH_UPLOAD_OPTS_VERSION);
}

TU_MAIN("upload", {"options version", test_opts_version}, {"squad URLs", test_url_squad},
	{"influx and webhook URLs", test_url_influx_webhook},
	{"line protocol escaping", test_line_protocol_escaping}, {"squad names", test_squad_name},
	{"spool names", test_spool_names}, {"spool entries", test_spool_entry},
	{"the spool is the user's alone", test_spool_folder},
	{"a flush removes old temporary files", test_spool_temps},
	{"credentials", test_credentials},
	{"credentials match by URL components", test_credentials_match_components},
	{"credentials from the environment", test_credentials_env},
	{"payload namesakes stay apart", test_payload_namesakes},
	{"sweep points in the payloads", test_payload_sweep_points},
	{"http classes", test_http_classes}, {"URL dot segments refused", test_url_dot_segments},
	{"credentials: dot segments refused", test_credentials_dot_segments},
	{"credentials only for their target's request URL", test_http_creds_bound_to_target})
