#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# remote_tls.sh - one CA setting for every https client, and TLS and HTTP
# failures in the user's words. An https th_server with a
# private lab CA (lib.sh lab_ca/lab_cert): the CA bundle's precedence
# (--cacert > AIETH_CACERT > CURL_CA_BUNDLE > SSL_CERT_FILE > the system's),
# an unreadable bundle refused before any connection naming the variable,
# and each failure's sentence with its fix: an unknown CA, a certificate
# for another name, an expired one, plain http to the https port, TLS to a
# plain port, a server that closes the connection without a reply,
# nothing listening; a server trusted by its pinned key instead; uploads
# and th_assets trust the same bundle.
. "$(dirname "$0")/../lib.sh"
RT=$B/bin/run_test
TA=$B/bin/th_assets
SPEC=$S/examples/adder_func/test.json
th_server_setup
command -v openssl >/dev/null || { echo "remote_tls.sh: skipped (no openssl)"; exit 0; }
# the machine's own settings would decide the "system's" cases
unset AIETH_CACERT CURL_CA_BUNDLE SSL_CERT_FILE

C=$TMP/lab; O=$TMP/other
lab_ca "$C" && lab_ca "$O" || { bad "openssl could not make the CAs"; finish; exit 1; }
lab_cert "$C" srv "DNS:localhost,IP:127.0.0.1"
lab_cert "$C" boardlab "DNS:board.lab"
lab_cert "$C" old "DNS:localhost,IP:127.0.0.1" 20200101000000Z 20200201000000Z
start_server "$TMP/log_srv" --tls-cert "$C/srv.crt" --tls-key "$C/srv.key"
has "$TMP/log_srv" "(https, backend emu"
HP=${U#http://}; US=https://$HP
start_server "$TMP/log_name" --tls-cert "$C/boardlab.crt" --tls-key "$C/boardlab.key"
UN=https://${U#http://}
start_server "$TMP/log_old" --tls-cert "$C/old.crt" --tls-key "$C/old.key"
UO=https://${U#http://}
start_server "$TMP/log_plain"
UP=$U

# run EXIT ARGS...: run_test against the remote backend, report in $TMP/o
run() {
  local want=$1; shift
  rm -rf "$TMP/o"
  expect "$want" "$RT" -q --backend remote "$@" -o "$TMP/o" "$SPEC"
}
# said TEXT: the run's error (stderr or report.json) says TEXT
said() {
  { cat "$TMP/err"; [[ -f $TMP/o/report.json ]] && jq -r '[.. | .message? // empty] | .[]' "$TMP/o/report.json"; } >"$TMP/said"
  has "$TMP/said" "$1"
}

# --- where the CA bundle comes from, strongest first
run 0 --server "$US" --cacert "$C/ca.crt"
AIETH_CACERT=$C/ca.crt run 0 --server "$US"
CURL_CA_BUNDLE=$C/ca.crt run 0 --server "$US"
SSL_CERT_FILE=$C/ca.crt run 0 --server "$US"
AIETH_CACERT=$O/ca.crt run 0 --server "$US" --cacert "$C/ca.crt"         # the flag wins
AIETH_CACERT=$C/ca.crt CURL_CA_BUNDLE=$O/ca.crt SSL_CERT_FILE=$O/ca.crt run 0 --server "$US"
CURL_CA_BUNDLE=$C/ca.crt SSL_CERT_FILE=$O/ca.crt run 0 --server "$US"
AIETH_CACERT=$O/ca.crt CURL_CA_BUNDLE=$C/ca.crt run 3 --server "$US"     # AIETH_CACERT wins
said "(the CA bundle $O/ca.crt)"
SSL_CERT_FILE=$O/ca.crt run 3 --server "$US"
said "(the CA bundle $O/ca.crt)"
# a bundle that cannot be read: an input mistake (exit 2) naming where it
# came from, before any connection (a lower variable is not read)
AIETH_CACERT=$TMP/none.pem CURL_CA_BUNDLE=$C/ca.crt run 2 --server "$US"
said "AIETH_CACERT=$TMP/none.pem: the CA bundle cannot be read: No such file or directory (name a readable PEM file of CA certificates, or unset AIETH_CACERT for the system's)"
SSL_CERT_FILE=$TMP run 2 --server "$US"
said "SSL_CERT_FILE=$TMP: the CA bundle cannot be read: not a regular file"
run 2 --server "$US" --cacert "$TMP/none.pem"
said "--cacert $TMP/none.pem: the CA bundle cannot be read: No such file or directory"
AIETH_CACERT="" run 3 --server "$US"                                       # empty: unset
said "(the system's CA bundle)"
# plain http needs no CA: a variable's stale bundle does not stop it
AIETH_CACERT=$TMP/none.pem run 0 --server "$UP"

# --- each failure in words, with the fix
run 3 --server "$US"
said "server $US: GET /v1/health: TLS: the server's certificate is not signed by a CA this client trusts (the system's CA bundle); give the lab CA's certificate with --cacert FILE or AIETH_CACERT=FILE"
run 3 --server "$UN" --cacert "$C/ca.crt"
said "TLS: the server's certificate is not issued for 127.0.0.1, the host in the URL; use a name the certificate carries"
run 3 --server "$UO" --cacert "$C/ca.crt"
said "TLS: the server's certificate has expired; its operator must issue a new one (th_server --tls-cert) and restart the server"
run 3 --server "http://$HP" --cacert "$C/ca.crt"
said "$HP serves https, and this client spoke plain http to it: the URL must say https://$HP"
run 3 --server "https://${UP#http://}"
said "TLS: the handshake with ${UP#http://} failed"
said "if it serves plain http there, the URL must say http://"
python3 "$S/tests/tools/closing_listener.py" "$TMP/cport" &
PIDS+=($!)
for i in $(seq 100); do [[ -s $TMP/cport ]] && break; sleep 0.1; done
CP=$(cat "$TMP/cport")
run 3 --server "http://127.0.0.1:$CP"
said "127.0.0.1:$CP closed the connection without a reply (the server stopped, failed or refused this client: its log says why)"
FP=$(free_port)
run 3 --server "http://127.0.0.1:$FP"
said "nothing answers at 127.0.0.1:$FP"
# libcurl's own words are gone
if grep -rqF -e "SSL peer certificate" -e "Server returned nothing" "$TMP/said"; then
  bad "libcurl's words in a message: $(cat "$TMP/said")"; else ok; fi

# --- a pinned key (--pinned-key): the server trusted by its key, the CA
# bundle and the host name not read; another key refused in words; the form
# and the scheme checked before any connection
pin_of() {
  echo "sha256//$(openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der \
    | openssl dgst -sha256 -binary | base64)"
}
PS=$(pin_of "$C/srv.crt"); PB=$(pin_of "$C/boardlab.crt")
run 0 --server "$UN" --pinned-key "$PB"                      # a name it does not carry, no CA
AIETH_CACERT=$O/ca.crt run 0 --server "$US" --pinned-key "$PS" # a CA that does not vouch: not read
run 3 --server "$US" --pinned-key "$PB"
said "TLS: $HP's public key is not the pinned one (aieth_remote_opts.pinned_key)"
run 2 --server "$US" --pinned-key "md5//x"
said "pinned_key \"md5//x\": \"sha256//\" and the base64 of a SHA-256 (44 characters"
run 2 --server "http://$HP" --pinned-key "$PS"
said "only an https:// server has a key to pin"

# --- uploads trust the same bundle (th_server answers the POST: 404)
AIETH_CACERT=$C/ca.crt expect 0 "$RT" -q -o "$TMP/u1" --spool "$TMP/spool1" --upload "$US/hook" "$SPEC"
jq -r '.uploads[0] | "\(.status) \(.http_code)"' "$TMP/u1/report.json" >"$TMP/u1.st"
has "$TMP/u1.st" "failed 404"
expect 0 "$RT" -q -o "$TMP/u2" --spool "$TMP/spool2" --upload "$US/hook" "$SPEC"
jq -r '.uploads[0] | tostring' "$TMP/u2/report.json" >"$TMP/u2.st"
has "$TMP/u2.st" "not signed by a CA this client trusts (the system's CA bundle); give the lab CA's certificate with --upload-cacert FILE or AIETH_CACERT=FILE"
AIETH_CACERT=$O/ca.crt expect 0 "$RT" -q -o "$TMP/u3" --spool "$TMP/spool3" --upload-cacert "$C/ca.crt" \
  --upload "$US/hook" "$SPEC"
jq -r '.uploads[0] | "\(.status) \(.http_code)"' "$TMP/u3/report.json" >"$TMP/u3.st"
has "$TMP/u3.st" "failed 404"

# the uploads' words are the same helper's: plain http to the https port
expect 0 "$RT" -q -o "$TMP/u4" --spool "$TMP/spool4" --upload "http://$HP/hook" "$SPEC"
jq -r '.uploads[0] | tostring' "$TMP/u4/report.json" >"$TMP/u4.st"
has "$TMP/u4.st" "$HP serves https, and this client spoke plain http to it: the URL must say https://$HP (and --upload-cacert FILE or AIETH_CACERT=FILE name a lab CA)"

# --- th_assets too (th_server's 404: the TLS part passed)
AIETH_CACERT=$C/ca.crt expect 3 "$TA" fetch "$US/none.tar.gz" --dest "$TMP/a1"
has "$TMP/err" "HTTP 404"
expect 3 "$TA" fetch "$US/none.tar.gz" --dest "$TMP/a2"
has "$TMP/err" "not signed by a CA this client trusts (the system's CA bundle)"
CURL_CA_BUNDLE=$TMP/none.pem expect 2 "$TA" fetch "$US/none.tar.gz" --dest "$TMP/a3"
has "$TMP/err" "CURL_CA_BUNDLE=$TMP/none.pem: the CA bundle cannot be read"
finish
