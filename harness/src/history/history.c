/* SPDX-License-Identifier: MIT */
/*
 * history.c - the run history's database: opening it safely (a user's
 * file: no link followed, nothing but a regular file), WAL mode and a busy
 * timeout (concurrent writers wait, never fail or corrupt it), the schema
 * and its migrations (a "meta" table holds the version).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "history/history_internal.h"
#include "util/error.h"
#include "util/opts.h"

AIETH__OPTS_INIT_FN(aieth_history_opts, AIETH_HISTORY_OPTS_INIT, AIETH_HISTORY_OPTS_VERSION);

/* The application's mark in the meta table: an SQLite file of another
 * program is refused, not written into. */
#define HIST_APP "aieth-history"

/* Version 1: runs, tests and their figures. Version 2: the repeat
 * statistics of report schema /2 (min, max, MAD, runs) per figure. */
const char *const aieth__hist_migrations[] = {
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"INSERT INTO meta VALUES('application','" HIST_APP "');"
	"INSERT INTO meta VALUES('schema_version','1');"
	"CREATE TABLE runs(id INTEGER PRIMARY KEY, run_key TEXT NOT NULL UNIQUE,"
	" run_id TEXT NOT NULL, started_at TEXT NOT NULL, t REAL NOT NULL,"
	" label TEXT NOT NULL, host TEXT NOT NULL, status TEXT NOT NULL,"
	" exit_code INTEGER NOT NULL, report_path TEXT NOT NULL, added_at REAL NOT NULL);"
	"CREATE INDEX runs_t ON runs(t);"
	"CREATE TABLE tests(id INTEGER PRIMARY KEY,"
	" run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, board TEXT NOT NULL, backend TEXT NOT NULL,"
	" status TEXT NOT NULL);"
	"CREATE INDEX tests_key ON tests(name, board, backend);"
	"CREATE INDEX tests_run ON tests(run);"
	"CREATE TABLE figures(test INTEGER NOT NULL REFERENCES tests(id) ON DELETE CASCADE,"
	" kind TEXT NOT NULL, txn_index INTEGER NOT NULL, txn TEXT NOT NULL,"
	" a TEXT NOT NULL, b TEXT NOT NULL, metric TEXT NOT NULL, value REAL,"
	" thr_min REAL, thr_max REAL, tol_pct REAL);"
	"CREATE INDEX figures_key ON figures(test, txn_index, metric, a);",
	"ALTER TABLE figures ADD COLUMN stat_min REAL;"
	"ALTER TABLE figures ADD COLUMN stat_max REAL;"
	"ALTER TABLE figures ADD COLUMN stat_mad REAL;"
	"ALTER TABLE figures ADD COLUMN stat_runs INTEGER;"
	"UPDATE meta SET value='2' WHERE key='schema_version';",
};

int aieth__hist_db_fail(struct aieth_history *h, const char *what)
{
	int e = sqlite3_extended_errcode(h->db);
	int code = (e & 0xff) == SQLITE_NOTADB || (e & 0xff) == SQLITE_CORRUPT ? AIETH_EPARSE
		   : (e & 0xff) == SQLITE_NOMEM                                ? AIETH_ENOMEM
									       : AIETH_EIO;
	return aieth__fail(code, "history %s: %s: %s%s", h->path, what, sqlite3_errmsg(h->db),
			   (e & 0xff) == SQLITE_NOTADB ? " (not an aieth history)" : "");
}

static int exec(struct aieth_history *h, const char *sql, const char *what)
{
	return sqlite3_exec(h->db, sql, NULL, NULL, NULL) == SQLITE_OK
		       ? 0
		       : aieth__hist_db_fail(h, what);
}

/* -1: no meta table (a new, empty database), else the version; *foreign 1
 * when the file has tables but is not ours. */
static int read_version(struct aieth_history *h, int *version, int *foreign)
{
	sqlite3_stmt *st = NULL;
	int rc, tables = 0, app = 0;
	*version = -1;
	*foreign = 0;
	if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return aieth__hist_db_fail(h, "reading its tables");
	}
	tables = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (!tables)
		return 0;
	rc = sqlite3_prepare_v2(h->db, "SELECT key, value FROM meta", -1, &st, NULL);
	if (rc) {
		*foreign = 1;
		return 0;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		if (!k || !v)
			continue;
		if (!strcmp(k, "application"))
			app = !strcmp(v, HIST_APP);
		else if (!strcmp(k, "schema_version")) {
			char *end;
			long n = strtol(v, &end, 10);
			*version = *end || n < 1 || n > 1000000 ? 0 : (int)n;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return aieth__hist_db_fail(h, "reading its meta table");
	if (!app || *version == 0)
		*foreign = 1;
	return 0;
}

/* Bring the schema to AIETH_HISTORY_SCHEMA_VERSION inside one write
 * transaction: two programs creating or migrating at once do it once. */
static int migrate(struct aieth_history *h)
{
	int v, foreign, rc;
	if ((rc = read_version(h, &v, &foreign)))
		return rc;
	if (foreign)
		return aieth__fail(AIETH_EPARSE,
				   "history %s: an SQLite database that is not an aieth "
				   "history (no meta table of application \"" HIST_APP
				   "\"): refused, nothing written",
				   h->path);
	if (v > AIETH_HISTORY_SCHEMA_VERSION)
		return aieth__fail(AIETH_EPARSE,
				   "history %s: schema version %d is newer than the %d this "
				   "program knows: use a newer aieth (nothing written)",
				   h->path, v, AIETH_HISTORY_SCHEMA_VERSION);
	if (v == AIETH_HISTORY_SCHEMA_VERSION)
		return 0;
	if (h->read_only)
		return aieth__fail(AIETH_ESTATE,
				   "history %s: schema version %d, this program reads %d: "
				   "open it for writing once (run_test history add) to migrate",
				   h->path, v < 0 ? 0 : v, AIETH_HISTORY_SCHEMA_VERSION);
	if ((rc = exec(h, "BEGIN IMMEDIATE", "starting the migration")))
		return rc;
	if ((rc = read_version(h, &v, &foreign)))
		goto fail;
	for (v = v < 0 ? 0 : v; v < AIETH_HISTORY_SCHEMA_VERSION; v++)
		if ((rc = exec(h, aieth__hist_migrations[v], "migrating its schema")))
			goto fail;
	if ((rc = exec(h, "COMMIT", "committing the migration")))
		goto fail;
	return 0;
fail:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int aieth__hist_open_db(struct aieth_history **out, sqlite3 *db, const char *name, int read_only)
{
	struct aieth_history *h = calloc(1, sizeof *h);
	int rc;
	if (!h || !(h->path = strdup(name))) {
		free(h);
		sqlite3_close(db);
		return aieth__fail(AIETH_ENOMEM, "history: out of memory");
	}
	h->db = db;
	h->read_only = read_only;
	/* a hostile database cannot make one value take the memory */
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
	sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
	if ((rc = migrate(h))) {
		aieth_history_close(h);
		return rc;
	}
	*out = h;
	return 0;
}

/* The path: nothing there (created without following a link planted in
 * between) or a regular file; anything else is refused before SQLite. */
static int check_path(const char *path, int read_only)
{
	struct stat st;
	int fd;
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return aieth__fail(AIETH_EINVAL,
					   "history %s: a symbolic link: name the database "
					   "file itself (a link is never followed)",
					   path);
		if (!S_ISREG(st.st_mode))
			return aieth__fail(
				AIETH_EINVAL, "history %s: %s, not a regular file: refused", path,
				S_ISDIR(st.st_mode) ? "a folder" : "a device, FIFO or socket");
		return 0;
	}
	if (errno != ENOENT)
		return aieth__fail(AIETH_EIO, "history %s: %s", path, strerror(errno));
	if (read_only)
		return aieth__fail(AIETH_EIO, "history %s: no such file", path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0 && errno != EEXIST) /* EEXIST: another writer made it first */
		return aieth__fail(AIETH_EIO, "history %s: cannot create it: %s", path,
				   strerror(errno));
	if (fd >= 0)
		close(fd);
	return 0;
}

int aieth_history_open(aieth_history **out, const char *path, const aieth_history_opts *opts)
{
	aieth_history_opts def = AIETH_HISTORY_OPTS_INIT;
	struct aieth_history *h;
	sqlite3 *db = NULL;
	int rc, flags, tries;
	aieth__error_clear();
	if (!out || !path)
		return aieth__fail(AIETH_EINVAL, "aieth_history_open: NULL argument");
	*out = NULL;
	if (!opts)
		opts = &def;
	if ((rc = aieth__opts_version("aieth_history_opts", "aieth_history_opts", opts->version,
				      AIETH_HISTORY_OPTS_VERSION)))
		return rc;
	if (!*path)
		return aieth__fail(AIETH_EINVAL, "history: an empty path");
	if ((rc = check_path(path, opts->read_only)))
		return rc;
	flags = (opts->read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
		SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		rc = aieth__fail(AIETH_EIO, "history %s: %s", path,
				 db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, opts->busy_timeout_ms ? (int)opts->busy_timeout_ms : 60000);
	/* WAL: one writer at a time, readers beside it. Switching needs the
	 * lock a concurrent opener may hold a moment: a few tries. */
	for (tries = 0; !opts->read_only && tries < 50; tries++) {
		sqlite3_stmt *st = NULL;
		rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
		if (!rc)
			rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db);
		sqlite3_finalize(st);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		sqlite3_sleep(100);
	}
	if (!opts->read_only && rc != SQLITE_OK) {
		int e = sqlite3_errcode(db);
		rc = aieth__fail(e == SQLITE_NOTADB ? AIETH_EPARSE : AIETH_EIO, "history %s: %s%s",
				 path, sqlite3_errmsg(db),
				 e == SQLITE_NOTADB ? " (not an aieth history)" : "");
		sqlite3_close(db);
		return rc;
	}
	sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
	if ((rc = aieth__hist_open_db(&h, db, path, opts->read_only)))
		return rc;
	*out = h;
	return 0;
}

void aieth_history_close(aieth_history *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h->path);
	free(h);
}

int aieth_history_num_runs(aieth_history *h, uint64_t *out)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;
	aieth__error_clear();
	if (!h || !out)
		return aieth__fail(AIETH_EINVAL, "aieth_history_num_runs: NULL argument");
	if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM runs", -1, &st, NULL) ||
	    sqlite3_step(st) != SQLITE_ROW)
		rc = aieth__hist_db_fail(h, "counting its runs");
	else
		*out = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}
