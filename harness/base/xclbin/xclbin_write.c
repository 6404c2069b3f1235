/* SPDX-License-Identifier: MIT */
/* xclbin_write.c - writing xclbin files (see xclbin_write.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aieth.h"
#include "util/copy.h"
#include "util/error.h"
#include "util/fileio.h"
#include "util/hash.h"
#include "xclbin/xclbin_format.h"
#include "xclbin/xclbin_write.h"

/* What the derived UUID covers: everything but the timestamps, so the same
 * graph and XSA give the same UUID whenever they are packaged. Payloads
 * count by their own hash128 (sums, in section order), the one a cache
 * entry is checked against: each byte is hashed once. */
static void hash_meta(aieth_hash128 *h, const xb_wopts *o, const uint64_t *sizes)
{
	uint8_t b[16];
	size_t i;
	static const char domain[] = "aieth th_package xclbin uuid v3";
	aieth__hash128_update(h, domain, sizeof domain);
	aieth__le16_put(b, o->mode);
	aieth__le16_put(b + 2, o->action_mask);
	b[4] = o->version_major;
	b[5] = o->version_minor;
	aieth__le16_put(b + 6, o->version_patch);
	aieth__le64_put(b + 8, o->num_sections);
	aieth__hash128_update(h, b, 16);
	aieth__hash128_update(h, o->vbnv, strlen(o->vbnv) + 1);
	if (o->interface_uuid)
		aieth__hash128_update(h, o->interface_uuid, 16);
	for (i = 0; i < o->num_sections; i++) {
		aieth__le32_put(b, o->sections[i].kind);
		aieth__le64_put(b + 4, sizes[i]);
		aieth__hash128_update(h, b, 12);
		aieth__hash128_update(h, o->sections[i].name, strlen(o->sections[i].name) + 1);
	}
}

static int check_opts(const char *what, const xb_wopts *o)
{
	size_t i;
	if (o->num_sections < 1 || o->num_sections > XB_MAX_SECTIONS)
		return aieth__fail(AIETH_EINVAL, "%s: %zu sections: expected 1..%u", what,
				   o->num_sections, XB_MAX_SECTIONS);
	if (!o->vbnv || strlen(o->vbnv) > 63)
		return aieth__fail(AIETH_EINVAL, "%s: VBNV \"%s\": expected 1..63 characters", what,
				   o->vbnv ? o->vbnv : "");
	if (o->mode > XB_MODE_MAX)
		return aieth__fail(AIETH_EINVAL, "%s: mode %u: expected 0..%u", what,
				   (unsigned)o->mode, XB_MODE_MAX);
	for (i = 0; i < o->num_sections; i++)
		if (!o->sections[i].name || (!o->sections[i].data && !o->sections[i].path))
			return aieth__fail(AIETH_EINVAL, "%s: section %zu: no name or no payload",
					   what, i);
	return AIETH_OK;
}

int aieth__xb_write_fd(int fd, const char *what, const xb_wopts *o, uint8_t uuid_out[16],
		       uint64_t *size_out)
{
	size_t n = o->num_sections, i, tbl;
	uint64_t *sizes = NULL, *offs = NULL, cur, end;
	int *fds = NULL;
	uint8_t *head = NULL, uuid[16];
	static const uint8_t zeros[XB_SECTION_HDR];
	aieth_hash128 h;
	struct stat st;
	int rc;

	if ((rc = check_opts(what, o)))
		return rc;
	sizes = calloc(n, sizeof *sizes);
	offs = calloc(n, sizeof *offs);
	fds = malloc(n * sizeof *fds);
	tbl = XB_PREFIX + n * XB_SECTION_HDR;
	head = malloc(tbl);
	if (!sizes || !offs || !fds || !head) {
		rc = aieth__fail(AIETH_ENOMEM, "%s: out of memory", what);
		goto out;
	}
	for (i = 0; i < n; i++)
		fds[i] = -1;
	/* sizes first: the layout is fixed before a byte is written */
	for (i = 0; i < n; i++) {
		const xb_wsection *s = &o->sections[i];
		if (s->data) {
			sizes[i] = s->size;
			continue;
		}
		if ((rc = aieth__open_input(s->path, &fds[i], &st))) {
			aieth__fail_prefix(rc, "%s section", aieth_xclbin_kind_name(s->kind));
			goto out;
		}
		sizes[i] = (uint64_t)st.st_size;
	}
	cur = tbl;
	for (i = 0; i < n; i++) {
		cur = (cur + XB_ALIGN - 1) / XB_ALIGN * XB_ALIGN;
		offs[i] = cur;
		cur += sizes[i];
	}
	/* XRT and zocl bound the table with sizeof(struct axlf) = 496, so a file
	 * needs 40 bytes after the table: tiny payloads get zero padding */
	end = cur < XB_AXLF_STRUCT + n * XB_SECTION_HDR ? XB_AXLF_STRUCT + n * XB_SECTION_HDR : cur;

	memset(head, 0, tbl);
	memcpy(head + XB_OFF_MAGIC, XB_MAGIC, 8);
	aieth__le32_put(head + XB_OFF_SIGLEN, 0xffffffffu); /* -1: unsigned */
	memset(head + XB_OFF_RESERVED, 0xff, 28);
	memset(head + XB_OFF_KEYBLOCK, 0xff, 256);
	aieth__le64_put(head + XB_OFF_UNIQUE_ID, o->timestamp);
	aieth__le64_put(head + XB_OFF_LENGTH, end);
	aieth__le64_put(head + XB_OFF_TIMESTAMP, o->timestamp);
	aieth__le16_put(head + XB_OFF_VPATCH, o->version_patch);
	head[XB_OFF_VMAJOR] = o->version_major;
	head[XB_OFF_VMINOR] = o->version_minor;
	aieth__le16_put(head + XB_OFF_MODE, o->mode);
	aieth__le16_put(head + XB_OFF_ACTION, o->action_mask);
	if (o->interface_uuid)
		memcpy(head + XB_OFF_IF_UUID, o->interface_uuid, 16);
	memcpy(head + XB_OFF_VBNV, o->vbnv, strlen(o->vbnv));
	if (o->uuid)
		memcpy(head + XB_OFF_UUID, o->uuid, 16);
	aieth__le32_put(head + XB_OFF_NUM_SECTIONS, (uint32_t)n);
	for (i = 0; i < n; i++) {
		uint8_t *sh = head + XB_PREFIX + i * XB_SECTION_HDR;
		size_t nl = strlen(o->sections[i].name);
		aieth__le32_put(sh + XB_SH_KIND, o->sections[i].kind);
		memcpy(sh + XB_SH_NAME, o->sections[i].name, nl > 15 ? 15 : nl);
		aieth__le64_put(sh + XB_SH_OFFSET, offs[i]);
		aieth__le64_put(sh + XB_SH_SIZE, sizes[i]);
	}
	if ((rc = aieth__write_full(fd, head, tbl, what)))
		goto out;

	aieth__hash128_init(&h);
	hash_meta(&h, o, sizes);
	cur = tbl;
	for (i = 0; i < n && !rc; i++) {
		const xb_wsection *s = &o->sections[i];
		aieth_hash128 hs, *ph = (o->uuid && !s->hash_out) || s->hash_in ? NULL : &hs;
		uint8_t sum[16];
		if (offs[i] > cur)
			rc = aieth__write_full(fd, zeros, (size_t)(offs[i] - cur), what);
		if (rc)
			break;
		aieth__hash128_init(&hs);
		if (s->data) {
			aieth__hash128_update(&hs, s->data, s->size);
			rc = aieth__write_full(fd, s->data, s->size, what);
		} else {
			/* in the kernel (a reflink or copy_file_range), hashed from
			 * the written pages: no byte through a user buffer */
			rc = aieth__copy_range_gated(fds[i], 0, sizes[i], fd, ph,
						     s->stable ? AIETH_COPY_STABLE : 0, s->path,
						     what, s->gate);
		}
		aieth__hash128_final(&hs, sum);
		if (s->hash_in)
			memcpy(sum, s->hash_in, 16);
		aieth__hash128_update(&h, sum, 16);
		if (s->hash_out)
			memcpy(s->hash_out, sum, 16);
		cur = offs[i] + sizes[i];
	}
	if (!rc && end > cur)
		rc = aieth__write_full(fd, zeros, (size_t)(end - cur), what);
	if (rc)
		goto out;
	if (o->uuid) {
		memcpy(uuid, o->uuid, 16);
	} else {
		aieth__hash128_final(&h, uuid);
		uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x80); /* RFC 9562 version 8: custom */
		uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80); /* RFC 4122 variant */
		if (pwrite(fd, uuid, 16, XB_OFF_UUID) != 16) {
			rc = aieth__fail(AIETH_EIO, "%s: write error: %s", what, strerror(errno));
			goto out;
		}
	}
	if (uuid_out)
		memcpy(uuid_out, uuid, 16);
	if (size_out)
		*size_out = end;
out:
	if (fds)
		for (i = 0; i < n; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	free(fds);
	free(sizes);
	free(offs);
	free(head);
	return rc;
}

int aieth__xb_write_file(const char *path, const xb_wopts *o, uint8_t uuid_out[16],
			 uint64_t *size_out)
{
	aieth_out out;
	int rc = aieth__out_open(&out, path);
	if (rc)
		return rc;
	rc = aieth__xb_write_fd(out.fd, path, o, uuid_out, size_out);
	if (rc) {
		aieth__out_abort(&out);
		return rc;
	}
	return aieth__out_commit(&out);
}
