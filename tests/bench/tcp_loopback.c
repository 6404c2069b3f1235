/* SPDX-License-Identifier: MIT */
/*
 * tcp_loopback.c - `make bench`: raw TCP throughput on 127.0.0.1 on this
 * machine, now: one thread writes N MiB into a socket, another reads them.
 * The yardstick for the remote backend's data rate (bench_remote.sh).
 *
 * usage: tcp_loopback [MIB]   (default 1024; 1..65536)
 * Prints "loopback TCP: R MiB/s (best of 3 x MIB MiB, 1 MiB writes)" and
 * "loopback TCP CPU: C ns per byte (...)": the least CPU time (user +
 * system, getrusage: both threads, the sender and the receiver) per byte
 * moved of the three runs, the yardstick of the remote path's CPU per byte.
 * Every socket call has a 10 s timeout: a stuck peer ends the run (exit 1).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK = 1 << 20 };

struct reader {
	int fd;
	unsigned long long want, got;
	int err;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void set_timeouts(int fd)
{
	struct timeval tv = {10, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static void *read_all(void *arg)
{
	struct reader *r = arg;
	char *buf = malloc(CHUNK);
	if (!buf) {
		r->err = ENOMEM;
		return NULL;
	}
	while (r->got < r->want) {
		ssize_t n = recv(r->fd, buf, CHUNK, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r->err = n < 0 ? errno : EPIPE;
			break;
		}
		r->got += (unsigned long long)n;
	}
	free(buf);
	return NULL;
}

/* CPU seconds of the process so far (every thread), user + system. */
static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* One run: a listening socket, a connection, N bytes through it; *secs
 * its wall time, *cpu the CPU time of both ends. */
static int one_run(unsigned long long bytes, double *secs, double *cpu)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof a;
	struct reader r;
	pthread_t th;
	char *buf;
	int ls, cs, as, rc = 0;
	unsigned long long sent = 0;
	double t0, c0;

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
	    getsockname(ls, (struct sockaddr *)&a, &alen)) {
		perror("tcp_loopback: listen on 127.0.0.1");
		return -1;
	}
	cs = socket(AF_INET, SOCK_STREAM, 0);
	if (cs < 0 || connect(cs, (struct sockaddr *)&a, sizeof a)) {
		perror("tcp_loopback: connect");
		close(ls);
		return -1;
	}
	as = accept(ls, NULL, NULL);
	close(ls);
	if (as < 0) {
		perror("tcp_loopback: accept");
		close(cs);
		return -1;
	}
	set_timeouts(cs);
	set_timeouts(as);
	buf = malloc(CHUNK);
	if (!buf) {
		close(cs);
		close(as);
		return -1;
	}
	memset(buf, 0x5a, CHUNK);
	memset(&r, 0, sizeof r);
	r.fd = as;
	r.want = bytes;
	t0 = now();
	c0 = cpu_s();
	if (pthread_create(&th, NULL, read_all, &r)) {
		free(buf);
		close(cs);
		close(as);
		return -1;
	}
	while (sent < bytes) {
		size_t n = bytes - sent < CHUNK ? (size_t)(bytes - sent) : CHUNK;
		ssize_t w = send(cs, buf, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror("tcp_loopback: send");
			rc = -1;
			break;
		}
		sent += (unsigned long long)w;
	}
	if (rc)
		shutdown(cs, SHUT_RDWR); /* the reader sees the end and returns */
	pthread_join(th, NULL);
	*secs = now() - t0;
	*cpu = cpu_s() - c0;
	if (!rc && (r.err || r.got != bytes)) {
		fprintf(stderr, "tcp_loopback: received %llu of %llu bytes: %s\n", r.got, bytes,
			strerror(r.err ? r.err : EPIPE));
		rc = -1;
	}
	free(buf);
	close(cs);
	close(as);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long mib = 1024;
	double best = 0, least = -1;
	int i;
	if (argc > 2 ||
	    (argc == 2 && (sscanf(argv[1], "%lu", &mib) != 1 || mib < 1 || mib > 65536))) {
		fprintf(stderr, "usage: tcp_loopback [MIB]   (1..65536, default 1024)\n");
		return 2;
	}
	for (i = 0; i < 3; i++) {
		double s, c;
		if (one_run((unsigned long long)mib << 20, &s, &c))
			return 1;
		if ((double)mib / s > best)
			best = (double)mib / s;
		if (least < 0 || c < least)
			least = c;
	}
	printf("loopback TCP: %.0f MiB/s (best of 3 x %lu MiB, 1 MiB writes)\n", best, mib);
	printf("loopback TCP CPU: %.3f ns per byte (sender + receiver, user + system, least of "
	       "3)\n",
	       least * 1e9 / (double)((unsigned long long)mib << 20));
	return 0;
}
