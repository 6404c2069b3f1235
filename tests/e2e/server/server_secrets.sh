#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# th_server's secrets at start and on reload (docs/server.md, docs/security.md):
# a token file group or others may read is refused (exit 2, mode named), a
# FIFO as token file is refused at once (no wait for a writer), SIGHUP reads
# the token file again (a bad new file keeps the old tokens) instead of
# stopping the server, and a TLS certificate whose key is another one's is
# named as such (exit 2). Every wait is bounded; servers are stopped by the trap.
. "$(dirname "$0")/../lib.sh"
th_server_setup

TOKA=secrets-token-alice-0123456789
TOKB=secrets-token-bob-0123456789
M="$TMP/tokens"

# --- a token file others may read: exit 2, the file and its mode named
printf 'alice %s\n' "$TOKA" >"$M"
chmod 644 "$M"
expect 2 timeout 20 "$TS" --listen 127.0.0.1:0 --token-file "$M"
has "$TMP/err" "$M"
has "$TMP/err" "mode 0644"
chmod 640 "$M"
expect 2 timeout 20 "$TS" --listen 127.0.0.1:0 --token-file "$M"
has "$TMP/err" "mode 0640"

# --- a FIFO (nobody writes it): refused at once, not waited on
mkfifo "$TMP/fifo"
chmod 600 "$TMP/fifo"
expect 2 timeout 20 "$TS" --listen 127.0.0.1:0 --token-file "$TMP/fifo"
has "$TMP/err" "$TMP/fifo"
has "$TMP/err" "not a regular file"

# --- SIGHUP reloads the token file
chmod 600 "$M"
start_server "$TMP/log" --token-file "$M"
req 200 -H "Authorization: Bearer $TOKA" "$U/v1/metrics"
req 401 -H "Authorization: Bearer $TOKB" "$U/v1/metrics"
# reloaded: wait for the Nth reload line of the log (10 s at most)
reloaded() {
  local i
  for i in $(seq 100); do
    [[ $(grep -c 'SIGHUP: token file' "$TMP/log") -ge $1 ]] && return 0
    kill -0 "$SP" 2>/dev/null || break
    sleep 0.1
  done
  bad "no SIGHUP line $1 in the log: $(cat "$TMP/log")"
}
printf 'bob %s\n' "$TOKB" >"$M.new" && chmod 600 "$M.new" && mv "$M.new" "$M"
kill -HUP "$SP"
reloaded 1
has "$TMP/log" "token file $M reloaded: 1 tokens"
kill -0 "$SP" 2>/dev/null && ok || bad "th_server stopped on SIGHUP"
req 200 -H "Authorization: Bearer $TOKB" "$U/v1/metrics"
req 401 -H "Authorization: Bearer $TOKA" "$U/v1/metrics"
# a bad new file (others may read it): logged, the tokens in use stay
printf 'alice %s\n' "$TOKA" >"$M" && chmod 644 "$M"
kill -HUP "$SP"
reloaded 2
has "$TMP/log" "not reloaded, the tokens in use stay"
has "$TMP/log" "mode 0644"
req 200 -H "Authorization: Bearer $TOKB" "$U/v1/metrics"
req 401 -H "Authorization: Bearer $TOKA" "$U/v1/metrics"
if grep -qF -e "$TOKA" -e "$TOKB" "$TMP/log"; then bad "a token in the log"; else ok; fi
stop_server

# --- TLS: a certificate with another certificate's key: exit 2, named
if command -v openssl >/dev/null; then
  for n in 1 2; do
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/k$n.pem" -out "$TMP/c$n.pem" \
      -days 2 -subj /CN=127.0.0.1 >/dev/null 2>&1
  done
  expect 2 timeout 20 "$TS" --listen 127.0.0.1:0 --tls-cert "$TMP/c1.pem" --tls-key "$TMP/k2.pem"
  has "$TMP/err" "TLS certificate $TMP/c1.pem: the key $TMP/k2.pem is not this certificate's key"
  if grep -q "cannot listen" "$TMP/err"; then bad "a key mismatch reported as a listen failure"; else ok; fi
  # a key file that holds no key, a certificate file that holds none
  expect 2 timeout 20 "$TS" --listen 127.0.0.1:0 --tls-cert "$TMP/c1.pem" --tls-key "$TMP/c2.pem"
  has "$TMP/err" "TLS key $TMP/c2.pem: not an unencrypted PEM private key"
  expect 2 timeout 20 "$TS" --listen 127.0.0.1:0 --tls-cert "$TMP/k1.pem" --tls-key "$TMP/k1.pem"
  has "$TMP/err" "TLS certificate $TMP/k1.pem: not a PEM certificate"
  expect 2 timeout 20 "$TS" --listen 127.0.0.1:0 --tls-cert "$TMP/none.pem" --tls-key "$TMP/k1.pem"
  has "$TMP/err" "$TMP/none.pem"
  # the right pair still serves
  start_server "$TMP/log_tls" --tls-cert "$TMP/c1.pem" --tls-key "$TMP/k1.pem"
  req 200 -k "https://${U#http://}/v1/health"
  stop_server
else
  echo "server_secrets.sh: no openssl: TLS cases skipped"
fi
finish
