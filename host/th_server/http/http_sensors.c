/* SPDX-License-Identifier: MIT */
/*
 * http_sensors.c - GET /v1/sensors: the board's sensors as last read
 * (server/srv_sensors.h; docs/http-api.md). Token rules as every path but
 * the health check (http_server.c's head checks).
 */
#ifdef AIETH_HAVE_MHD

#include <stdlib.h>

#include <microhttpd.h>

#include "th_server/http/http_internal.h"
#include "th_server/srv_sensors.h"

enum MHD_Result aieth__http_sensors(struct MHD_Connection *c, req_ctx *r, aieth__server *s)
{
	char *text = NULL;
	size_t len = 0;
	enum MHD_Result ret;
	if (aieth__srv_sensors_reply(s->sensors, srv_now_ms(), &text, &len))
		return aieth__http_reply_err(c, r, 500, NULL, "GET /v1/sensors: %s",
					     aieth_error_message());
	ret = aieth__http_reply(c, r, 200, "application/json", text, len, NULL);
	free(text);
	return ret;
}

#endif /* AIETH_HAVE_MHD */
