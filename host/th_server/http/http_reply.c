/* SPDX-License-Identifier: MIT */
/*
 * http_reply.c - th_server's HTTP replies: a body with its status, JSON,
 * and the {"error": {"code", "message"}} every refusal uses
 * (docs/http-api.md), and the aieth error codes as statuses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "th_server/srv_core.h"

#ifdef AIETH_HAVE_MHD

#include "th_server/http/http_internal.h"

/* status classes counted for the metrics */
const unsigned aieth__srv_metric_codes[SRV_NCODES] = {200, 201, 202, 204, 206, 400, 401, 403,
						      404, 405, 409, 411, 413, 415, 416, 422,
						      429, 431, 500, 501, 503, 504, 507};

enum MHD_Result aieth__http_reply_hdr(struct MHD_Connection *c, req_ctx *r, unsigned status,
				      const char *type, const char *body, size_t len,
				      const char *hname, const char *hvalue)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	resp = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	if (type)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (hname && hvalue && *hvalue)
		MHD_add_response_header(resp, hname, hvalue);
	if (status == 401)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	/* a connection no request of which carried a token serves one
	 * request: a health poll cannot hold its place (docs/server.md) */
	if (!r->keep)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	r->status = status;
	r->out = len;
	r->answered = 1;
	return ret;
}

enum MHD_Result aieth__http_reply(struct MHD_Connection *c, req_ctx *r, unsigned status,
				  const char *type, const char *body, size_t len, const char *allow)
{
	return aieth__http_reply_hdr(c, r, status, type, body, len, MHD_HTTP_HEADER_ALLOW, allow);
}

enum MHD_Result aieth__http_reply_json_hdr(struct MHD_Connection *c, req_ctx *r, unsigned status,
					   struct json_object *o, const char *hname,
					   const char *hvalue)
{
	/* o NULL: its builder ran out of memory */
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL;
	enum MHD_Result ret;
	if (!text) {
		json_object_put(o);
		return aieth__http_reply(
			c, r, 500, "application/json",
			"{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}", 56,
			NULL);
	}
	ret = aieth__http_reply_hdr(c, r, status, "application/json", text, strlen(text), hname,
				    hvalue);
	json_object_put(o);
	return ret;
}

enum MHD_Result aieth__http_reply_json(struct MHD_Connection *c, req_ctx *r, unsigned status,
				       struct json_object *o)
{
	return aieth__http_reply_json_hdr(c, r, status, o, NULL, NULL);
}

static const char *code_name(unsigned status)
{
	switch (status) {
	case 400: return "bad_request";
	case 401: return "unauthorized";
	case 403: return "forbidden";
	case 404: return "not_found";
	case 405: return "method_not_allowed";
	case 409: return "conflict";
	case 411: return "length_required";
	case 413: return "too_large";
	case 415: return "unsupported_media_type";
	case 422: return "device_error";
	case 429: return "queue_full";
	case 431: return "headers_too_large";
	case 501: return "not_implemented";
	case 503: return "draining";
	case 504: return "timeout";
	case 507: return "insufficient_storage";
	default: return "internal";
	}
}

enum MHD_Result aieth__http_reply_err(struct MHD_Connection *c, req_ctx *r, unsigned status,
				      const char *allow, const char *fmt, ...)
{
	char msg[1024];
	struct json_object *o, *e;
	const char *text;
	enum MHD_Result ret;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	o = json_object_new_object();
	e = json_object_new_object();
	json_object_object_add(e, "code", json_object_new_string(code_name(status)));
	json_object_object_add(e, "message", json_object_new_string(msg));
	json_object_object_add(o, "error", e);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (!text)
		text = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
	ret = aieth__http_reply(c, r, status, "application/json", text, strlen(text), allow);
	json_object_put(o);
	return ret;
}

/* An aieth error code as an HTTP status. */
unsigned aieth__http_status_of(int rc)
{
	switch (rc) {
	case AIETH_EINVAL:
	case AIETH_EPARSE: return 400;
	case AIETH_ENOTFOUND: return 404;
	case AIETH_ESTATE: return 409;
	case AIETH_ETIMEOUT: return 504;
	case AIETH_ENOMEM: return 500;
	default: return 422;
	}
}

#endif /* AIETH_HAVE_MHD */
