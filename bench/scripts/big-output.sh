#!/bin/bash
# Daemon memory for one large command output (issue 17, item 5).
#
#   cargo build --release --bins && bench/scripts/big-output.sh [MB]
#
# Starts a daemon on a scratch home, reads its resident memory when idle,
# resets the kernel's peak counter (clear_refs 5), runs one `lctx run` whose
# output is MB megabytes of base64 (default 200), and prints the peak
# (VmHWM) and what is still resident two seconds later. Linux only.
# BIN_DIR=target/debug measures a debug build instead (slower; for a quick
# look only: docs/benchmarks.md reports release figures).
set -eu
MB=${1:-200}
BIN=${BIN_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/target/release}
HOME_DIR=$(mktemp -d)
PROJECT=$(mktemp -d)
trap 'LEAN_CTX_HOME=$HOME_DIR "$BIN/lctx" daemon stop >/dev/null 2>&1 || true; rm -rf "$HOME_DIR" "$PROJECT"' EXIT
cd "$PROJECT" && git init -q .
export LEAN_CTX_HOME=$HOME_DIR
"$BIN/lctx" daemon start >/dev/null
pid=$("$BIN/lctx" daemon status | sed -n 's/.*(pid \([0-9]*\)).*/\1/p' | head -1)
"$BIN/lctx" run -- true >/dev/null
sleep 1
kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$pid/status"; }
idle=$(kb VmRSS)
echo 5 >"/proc/$pid/clear_refs"
start=$(date +%s.%N)
set +e
"$BIN/lctx" run --timeout 600 -- "head -c $((MB * 3 / 4 * 1000000)) /dev/urandom | base64" >/dev/null
rc=$?
set -e
end=$(date +%s.%N)
peak=$(kb VmHWM)
sleep 2
after=$(kb VmRSS)
printf 'output %d MB: rc %d, %.1f s; daemon idle %d MiB, peak %d MiB (+%d), resident after %d MiB (+%d)\n' \
  "$MB" "$rc" "$(echo "$end - $start" | bc)" $((idle / 1024)) $((peak / 1024)) $(((peak - idle) / 1024)) \
  $((after / 1024)) $(((after - idle) / 1024))
