#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs.sh - every command the documentation tells a user to run works as
# written.
#
# Which blocks: every fenced ```sh block of README.md, CONTRIBUTING.md,
# SECURITY.md, docs/*.md, examples/README.md and python/README.md, and every
# ```python block, run as a script of the source tree's package runs
# (`PYTHONPATH=python python3`, /usr/bin/python3 on the PATH below: Debian's,
# with its numpy). Every fence must name its language: ```sh for commands to
# run, ```python for Python to run, ```text (or ```console, ```json, ...) for
# output, synopses and files; a bare ``` fails this test, so a command cannot
# hide from it.
#
# Where: each file gets a fresh copy of the tree (the files git knows,
# committed or not, without build folders) with a copy of this build as
# build/ (so the documents' `make` finds everything up to date), and runs
# its blocks in order in one bash shell from the copy's root, stdin from
# /dev/null, build/bin on PATH, HOME and TMPDIR in the copy, and none of the
# AIETH_* variables of the test environment: programs find the board files
# next to themselves, as for a user. The shell runs in namespaces of its
# own (`unshare -rmn`): a network with loopback only (the documents' fixed
# ports, 8443 and 8080, never meet another test's), and a file system where
# every mount but this test's temporary folder is read-only (a block that
# writes to /etc, /usr, /tmp or /dev/shm fails, even as root). Without such
# namespaces the test fails, unless AIETH_DOCS_UNSANDBOXED=1 lets the blocks
# run on the machine as it is.
#
# Installs: DESTDIR is set to a folder in the copy, so `make install` as
# written installs there; PKG_CONFIG_PATH, PKG_CONFIG_SYSROOT_DIR and
# LD_LIBRARY_PATH point into it, so pkg-config and the programs built
# against the installed library find it there, as they would find
# /usr/local after a real install. `bash scripts/install-deps.sh` runs as
# written: it installs nothing when the packages are present.
#
# Exit status: a block without a marker passes when every command in it
# succeeds (the ERR trap's rules, those of `set -e`: a command tested by
# if/while/&&/|| may fail, the last one of an && or || list may not) and
# the block's last command exits 0.
#   <!-- docs-test: exit N -->   on the line before the fence (```sh or
#                                ```python): the block's
#                                last command must exit N (the others are
#                                not checked)
#   <!-- docs-test: skip REASON --> on the line before the fence: the block
#                                does not run (needs a board, the internet,
#                                AMD's tools, ...); printed with its reason
#
# Files: what a file's commands leave in the tree must be ignored by
# .gitignore (a user following the text keeps a clean `git status`).
#
# Output: one line per block (ok, skip and its reason, FAIL and why) and the
# counts; a failing file's whole shell output. Each file's shell ends after
# 300 s (a hang is a failure).
#
# Not run under AIETH_RUN_WRAPPER (the cross build: its programs are
# aarch64, the documents run build/bin/... directly) nor AIETH_SAN=1 (the
# documents are the same; the gcc build's run checks them): it says so and
# passes.
. "$(dirname "$0")/../lib.sh"

if [[ -n ${AIETH_RUN_WRAPPER:-} ]]; then
  echo "docs.sh: skipped under AIETH_RUN_WRAPPER (the cross build): the documents run the native build/bin"
  exit 0
fi
if [[ ${AIETH_SAN:-} == 1 ]]; then
  echo "docs.sh: skipped in the sanitizer build: the documents are checked by the gcc build's run"
  exit 0
fi

# The checker itself, on a made-up document: a failing command in the
# middle of a block, a wrong exit, a skip, an expected exit, and shell state
# carried from block to block; then the fences it refuses.
mkdir -p "$TMP/self/doc"
cat >"$TMP/self/doc/a.md" <<'MD'
```sh
x=1
false
true
```
<!-- docs-test: skip a reason -->
```sh
exit 9
```
<!-- docs-test: exit 3 -->
```sh
[ "$x" = 1 ] && (exit 3)
```
  <!-- docs-test: exit 0 -->
  ```sh
  (exit 3)
  ```
```text
false
```
MD
(cd "$TMP/self/doc" && python3 "$S/tests/e2e/docs_blocks.py" "$TMP/self/out" a.md >"$TMP/self/list") ||
  bad "docs_blocks.py refused a good document"
(cd "$TMP/self/doc" && bash "$TMP/self/out/1/run.sh" >/dev/null 2>&1)
printf 'begin 1 1\nfail 1 line 3 exited 1\nskip 7 a reason\nbegin 3 11\nok 11\nbegin 4 15\nfail 15 exit 3, the text says 0\ndone\n' >"$TMP/self/want"
if diff "$TMP/self/want" "$TMP/self/out/1/results" >&2; then ok; else bad "the checker's verdicts on a made-up document"; fi
has "$TMP/self/list" "1 a.md 4 1 5"
# Python blocks: run with python3, their exit status is the block's
printf '```python\nimport sys; sys.exit(0)\n```\n<!-- docs-test: exit 3 -->\n```python\nraise SystemExit(3)\n```\n```python\nraise ValueError("x")\n```\n' >"$TMP/self/doc/c.md"
(cd "$TMP/self/doc" && python3 "$S/tests/e2e/docs_blocks.py" "$TMP/self/outc" c.md >/dev/null) ||
  bad "docs_blocks.py refused Python blocks"
(cd "$TMP/self/doc" && bash "$TMP/self/outc/1/run.sh" >/dev/null 2>&1)
printf 'begin 1 1\nok 1\nbegin 2 5\nok 5\nbegin 3 8\nfail 8 exit 1\ndone\n' >"$TMP/self/wantc"
if diff "$TMP/self/wantc" "$TMP/self/outc/1/results" >&2; then ok; else bad "the checker's verdicts on Python blocks"; fi
printf 'text\n```\nls\n```\n<!-- docs-test: skip -->\n```sh\nls\n```\n<!-- docs-test: exit 1 -->\n\n```sh\nls\n```\n' >"$TMP/self/doc/b.md"
(cd "$TMP/self/doc" && python3 "$S/tests/e2e/docs_blocks.py" "$TMP/self/out2" b.md >/dev/null 2>"$TMP/self/err") &&
  bad "docs_blocks.py accepted bad fences"
has "$TMP/self/err" "b.md:2: fence without a language"
has "$TMP/self/err" "b.md:5: bad docs-test marker"
has "$TMP/self/err" "b.md:9: docs-test marker not on the line before a fence"

cd "$S" || exit 1
files=(README.md CONTRIBUTING.md SECURITY.md docs/*.md examples/README.md python/README.md)
# when debugging: AIETH_DOCS="README.md docs/x.md" a subset, AIETH_DOCS_VERBOSE=1
# every shell's output
[[ -n ${AIETH_DOCS:-} ]] && read -r -a files <<<"$AIETH_DOCS"
if ! python3 "$S/tests/e2e/docs_blocks.py" "$TMP/blocks" "${files[@]}" >"$TMP/list" 2>"$TMP/parse"; then
  bad "the documents' fences: $(cat "$TMP/parse")"
fi

# The tree as a fresh clone has it: git's files (tracked, and new ones not
# ignored) when this is a git checkout, else everything but build folders.
have_git=
if git -C "$S" rev-parse --git-dir >/dev/null 2>&1; then
  have_git=1
  git -C "$S" ls-files -z -co --exclude-standard | grep -zv '^build' >"$TMP/files"
else
  (cd "$S" && find . -path './build*' -prune -o ! -type d -print0) >"$TMP/files"
fi
# The sandbox: a network namespace of its own (loopback only), and a mount
# namespace where every mount but this test's folder is read-only (/, /tmp,
# /dev/shm, /run, /proc ... each one: a mount below / keeps its own flags),
# so that a block writing to the system (/etc, /usr/local, /dev/shm) fails
# instead (this test may run as root). Each mount is remounted with the
# flags it had (nosuid, nodev, ...: a user namespace may add "ro", never
# drop a flag), then the mount table is read again: a mount still writable
# fails the test before any block runs. Devices (/dev/null) stay writable:
# "ro" is about files. Where unshare cannot make the namespaces, nothing
# runs unless AIETH_DOCS_UNSANDBOXED=1 says to run on the machine as it is.
# (cd "$PWD": the folder the shell started in, through the new mount)
cat >"$TMP/sandbox.sh" <<'SANDBOX'
# sandbox.sh SCRATCH CMD...: CMD with every mount read-only but SCRATCH
scratch=$1; shift
mount --bind "$scratch" "$scratch" || exit 97
# mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... (octal escapes)
while read -r _ _ _ _ mp opts _; do
  mp=$(printf '%b' "$mp")
  case $mp/ in "$scratch"/*) continue ;; esac
  keep=$(tr , '\n' <<<"$opts" | grep -xE 'nosuid|nodev|noexec|relatime|noatime|nodiratime|strictatime' | paste -sd, -)
  mount -o "remount,bind,ro${keep:+,$keep}" "$mp" 2>/dev/null ||
    { echo "sandbox.sh: cannot make $mp read-only" >&2; exit 97; }
done </proc/self/mountinfo
# the visible mount of each mount point is the last one listed for it
left=$(awk '{ top[$5] = $6 } END { for (m in top) print m, top[m] }' /proc/self/mountinfo |
  awk -v s="$scratch" '$2 !~ /(^|,)ro(,|$)/ && $1 != s && index($1, s "/") != 1 { print $1 }')
if [[ -n $left ]]; then echo "sandbox.sh: still writable: $left" >&2; exit 97; fi
ip link set lo up || exit 97
cd "$PWD" && exec "$@"
SANDBOX
sandbox=(unshare -rmn bash "$TMP/sandbox.sh" "$TMP")
if ! "${sandbox[@]}" true 2>"$TMP/sandbox.err"; then
  if [[ ${AIETH_DOCS_UNSANDBOXED:-} != 1 ]]; then
    bad "no sandbox for the documents' commands (unshare -rmn and read-only mounts: $(tr '\n' ' ' <"$TMP/sandbox.err")): they would run on this machine's file system and network; AIETH_DOCS_UNSANDBOXED=1 runs them so"
    finish
    exit 1
  fi
  echo "docs.sh: AIETH_DOCS_UNSANDBOXED=1 and no sandbox here: the blocks run on the machine's file system and loopback"
  sandbox=()
else
  # the sandbox holds: a write outside the scratch folder fails, one in it works
  for f in /tmp /dev/shm "$S"; do
    [[ -d $f ]] || continue
    if "${sandbox[@]}" sh -c 'touch "$1/.aieth-docs-probe"' sh "$f" 2>/dev/null; then
      rm -f "$f/.aieth-docs-probe"
      bad "the sandbox let a block write to $f"
    else ok; fi
  done
  if "${sandbox[@]}" sh -c 'touch "$1/probe" && echo x >/dev/null' sh "$TMP"; then ok; else bad "the sandbox refused a write to its own folder $TMP"; fi
fi

nrun=0 nskip=0 nfail=0 ncmd=0
while read -r n file nblk nskp nc; do
  root=$TMP/copy$n
  mkdir -p "$root/tree" "$root/home" "$root/tmp" "$root/destdir"
  if [[ $nblk != "$nskp" ]]; then   # (only skipped blocks: nothing runs, no copy)
    tar -C "$S" --null -T "$TMP/files" -cf - 2>/dev/null | tar -C "$root/tree" -xf -
    cp -a "$B" "$root/tree/build"
  fi
  lib=$root/destdir/usr/local/lib
  (cd "$root/tree" &&
   timeout -k 5 300 env -i PATH="$root/tree/build/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
     HOME="$root/home" TMPDIR="$root/tmp" LANG=C.UTF-8 TERM=dumb USER="${USER:-root}" \
     DESTDIR="$root/destdir" PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root/destdir" \
     LD_LIBRARY_PATH="$lib" \
     "${sandbox[@]}" bash "$TMP/blocks/$n/run.sh") >"$root/log" 2>&1
  st=$?
  res=$TMP/blocks/$n/results
  file_bad=0
  while read -r what line rest; do
    case $what in
      ok) echo "  ok    $file:$line"; nrun=$((nrun + 1)) ;;
      skip) echo "  skip  $file:$line: $rest"; nskip=$((nskip + 1)) ;;
      fail) echo "  FAIL  $file:$line: $rest"; nrun=$((nrun + 1)); nfail=$((nfail + 1)); file_bad=1 ;;
    esac
  done <"$res"
  if ! grep -qx done "$res"; then
    last=$(grep '^begin' "$res" | tail -n 1)
    why="exit $st"; [[ $st == 124 || $st == 137 ]] && why="300 s passed"
    echo "  FAIL  $file:${last##* }: the shell ended in this block ($why)"
    nrun=$((nrun + 1)); nfail=$((nfail + 1)); file_bad=1
  fi
  ncmd=$((ncmd + nc))
  # what the file's commands left in the tree is ignored by .gitignore (a
  # user following the text from the tree's root keeps a clean git status)
  [[ -n $have_git && $nblk != "$nskp" ]] && (cd "$root/tree" && find . -path ./build -prune -o ! -type d -print | sed 's|^\./||' | sort) >"$TMP/after"
  tr '\0' '\n' <"$TMP/files" | sed 's|^\./||' | sort >"$TMP/before"
  comm -13 "$TMP/before" "$TMP/after" >"$TMP/new"
  git -C "$S" check-ignore --no-index --stdin <"$TMP/new" >"$TMP/ignored" 2>/dev/null
  left=; [[ -n $have_git && $nblk != "$nskp" ]] && left=$(comm -23 "$TMP/new" <(sort "$TMP/ignored") | head -n 5)
  if [[ -n $left ]]; then
    echo "  FAIL  $file: its commands leave files .gitignore does not ignore: $(echo $left)"
    file_bad=1
  fi
  if [[ $file_bad == 1 ]]; then
    bad "$file: see its shell's output below"
    sed 's/^/  | /' "$root/log" >&2
  else
    ok
    [[ -n ${AIETH_DOCS_VERBOSE:-} ]] && sed 's/^/  | /' "$root/log"
  fi
  rm -rf "$root"
done <"$TMP/list"
echo "docs.sh: $nrun blocks ran ($ncmd commands), $nskip skipped, $nfail failed"
finish
