#!/usr/bin/env bash
# Compare `attnviz bench` with PyTorch's nn.MultiheadAttention on the CPU.
#
# Usage: bench/compare_torch.sh [THREADS]        (THREADS defaults to 2)
#
# Environment:
#   ATTNVIZ  path to the attnviz binary          (default build/attnviz)
#   REPEAT   timed forward passes per run        (default 7)
#   ROUNDS   how many times to alternate the two (default 3); the table shows
#            the median over rounds of each run's median
#   PYTHON   interpreter with torch              (default /usr/bin/python3)
#
# For every configuration the two programs run back to back (attnviz, then
# torch, then the next configuration, ...), so slow drifts in machine state
# hit both sides alike. The figure to quote is the ratio AttnViz / PyTorch
# (AttnViz's forward with its full trace, as a share of torch's time: below 1
# is faster), taken round by round from the two runs of that round, then the
# median over rounds; absolute times move 1.5-2x with the machine's load.
# Both get the same thread count: attnviz (Eigen + OpenMP) through
# OMP_NUM_THREADS, torch through --threads. For a fair
# comparison you may also want to unset OPENBLAS_CORETYPE, e.g.
#   env -u OPENBLAS_CORETYPE bench/compare_torch.sh 2
set -euo pipefail

usage() {
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
esac
if [[ $# -gt 1 ]]; then usage >&2; exit 2; fi

THREADS="${1:-2}"
ATTNVIZ="${ATTNVIZ:-build/attnviz}"
REPEAT="${REPEAT:-7}"
ROUNDS="${ROUNDS:-3}"
PYTHON="${PYTHON:-/usr/bin/python3}"

for v in THREADS REPEAT ROUNDS; do
    if ! [[ "${!v}" =~ ^[1-9][0-9]*$ ]]; then
        echo "error: $v must be a positive integer (got '${!v}')" >&2
        exit 2
    fi
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
torch_bench="$here/torch_mha_bench.py"

if [[ ! -x "$ATTNVIZ" ]]; then
    echo "error: attnviz binary not found or not executable: $ATTNVIZ (set ATTNVIZ=...)" >&2
    exit 2
fi
if ! "$PYTHON" -c 'import torch' 2>/dev/null; then
    echo "error: $PYTHON cannot import torch (install python3-torch or set PYTHON=...)" >&2
    exit 2
fi

# "L E H" per configuration.
CONFIGS=("512 512 8" "1024 1024 16")

results="$(mktemp)"
trap 'rm -f "$results"' EXIT

for ((round = 1; round <= ROUNDS; round++)); do
    for cfg in "${CONFIGS[@]}"; do
        read -r L E H <<<"$cfg"
        echo "round $round/$ROUNDS  L=$L E=$E H=$H  threads=$THREADS ..." >&2

        ours="$(OMP_NUM_THREADS="$THREADS" "$ATTNVIZ" bench --seq-len "$L" \
            --hidden-dim "$E" --num-heads "$H" --repeat "$REPEAT" --json)"
        theirs="$("$PYTHON" "$torch_bench" --seq-len "$L" --hidden-dim "$E" \
            --num-heads "$H" --batch 1 --repeat "$REPEAT" --threads "$THREADS")"

        # One tab-separated record per run: config, which side, raw JSON (flattened).
        printf '%s\t%s\t%s\n' "$L $E $H" attnviz "$(tr '\n' ' ' <<<"$ours")" >>"$results"
        printf '%s\t%s\t%s\n' "$L $E $H" torch "$(tr '\n' ' ' <<<"$theirs")" >>"$results"
    done
done

"$PYTHON" - "$results" "$THREADS" "$REPEAT" "$ROUNDS" <<'PY'
import json
import statistics
import sys

path, threads, repeat, rounds = sys.argv[1:5]


def parse(text):
    """The whole output as one JSON object, or failing that its last {...} line."""
    text = text.strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise SystemExit("could not find a JSON object in: " + text[:200])


medians = {}   # (config, side) -> list of per-run medians, one per round
trace = {}     # config -> trace_bytes reported by attnviz
blas = ""
env = {}
order = []
with open(path) as f:
    for row in f:
        cfg, side, payload = row.rstrip("\n").split("\t", 2)
        obj = parse(payload)
        if cfg not in order:
            order.append(cfg)
        medians.setdefault((cfg, side), []).append(float(obj["forward_ms_median"]))
        if side == "attnviz" and "trace_bytes" in obj:
            trace[cfg] = obj["trace_bytes"]
        if side == "torch":
            blas = obj.get("blas", "")
            env = obj.get("env", {})

print(f"threads={threads} repeat={repeat} rounds={rounds}")
print(f"torch BLAS: {blas}")
print("torch env: " + (" ".join(f"{k}={v}" for k, v in sorted(env.items())) or "-"))
head = (f"{'config (L,E,H)':<18} {'attnviz/torch':>14} {'per round':>22} "
        f"{'attnviz ms':>11} {'torch ms':>10} {'trace MiB':>10}")
print(head)
print("-" * len(head))
for cfg in order:
    ours, theirs = medians[(cfg, "attnviz")], medians[(cfg, "torch")]
    # Each round's two runs against each other, so a load that changes between rounds cancels.
    per_round = [a / t if t > 0 else float("inf") for a, t in zip(ours, theirs)]
    ratio = statistics.median(per_round)
    tb = trace.get(cfg)
    tb_s = f"{tb / 2**20:.1f}" if isinstance(tb, (int, float)) else "-"
    label = "(" + ",".join(cfg.split()) + ")"
    rounds_s = " ".join(f"{r:.2f}" for r in per_round)
    print(f"{label:<18} {ratio:>13.2f}x {rounds_s:>22} {statistics.median(ours):>11.2f} "
          f"{statistics.median(theirs):>10.2f} {tb_s:>10}")
print("attnviz/torch: AttnViz's forward with the full trace as a share of torch's "
      "nn.MultiheadAttention time (below 1: AttnViz is faster); median over rounds")
PY
