#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer's coverage instrumentation and runs
# each for a short fixed time from its checked-in corpus (docs/operations.md,
# "Fuzzing"). Used by CI; by hand: `fuzz/timed.sh [SECONDS] [TARGET…]`.
#
# No nightly and no cargo-fuzz needed: the flags below are the ones
# `cargo fuzz build --sanitizer none` passes, and all of them are stable. They
# are given through --target so that build scripts and proc macros, which run
# on the build machine, are built without them (as cargo-fuzz does).
# A dev build: the targets check invariants, not speed, and a cold optimised
# build of the engine costs more than the fuzzing itself.
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-20}
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=()
    for f in fuzz_targets/*.rs; do targets+=("$(basename "$f" .rs)"); done
fi

host=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
target_dir=../target/fuzz
cargo build --locked --bins --target "$host" --target-dir "$target_dir"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in "${targets[@]}"; do
    # New inputs go to a scratch dir first in the list, so the checked-in
    # corpus is only read; a crash's input is written under the scratch dir
    # and printed by libFuzzer, and the run fails.
    mkdir -p "$scratch/$target"
    echo "fuzz: $target for ${seconds}s"
    log="$scratch/$target.log"
    rc=0
    "$target_dir/$host/debug/$target" -seed=1 -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$scratch/$target/" "$scratch/$target" "corpus/$target" \
        >"$log" 2>&1 || rc=$?
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
    if [ "$rc" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz: $target failed (exit $rc); its input is printed above"
        exit 1
    fi
done
