#!/usr/bin/env bash
# Runs every libFuzzer harness built in <build folder> for <seconds> each, starting
# from the committed seeds (tests/fuzz/corpus/<harness>/). New inputs go to
# <build folder>/corpus/<harness>/, crashes to <build folder>/crashes/<harness>/.
# Usage: tests/fuzz/run.sh build-fuzz 60 [harness...]
set -euo pipefail
build=${1:?build folder}
seconds=${2:-60}
shift 2 || true
here=$(cd "$(dirname "$0")" && pwd)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(npy safetensors cli_config settings lesson)
failed=()
for h in "${harnesses[@]}"; do
    mkdir -p "$build/corpus/$h" "$build/crashes/$h"
    echo "== fuzz_$h for ${seconds}s"
    # -rss_limit_mb: a reader must refuse, not allocate, what a header promises.
    if ! "$build/fuzz_$h" "$build/corpus/$h" "$here/corpus/$h" \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$build/crashes/$h/" 2>"$build/fuzz_$h.log"; then
        failed+=("$h")
    fi
    grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|#[0-9]+.*DONE" "$build/fuzz_$h.log" || true
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: crashes in ${failed[*]}: see $build/fuzz_<harness>.log and $build/crashes/;"
    echo "      copy each crash into tests/fuzz/regressions/<harness>/ and fix it"
    exit 1
fi
echo "fuzz: no crashes"
