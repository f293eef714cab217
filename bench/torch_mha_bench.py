#!/usr/bin/python3
"""Time PyTorch's CPU nn.MultiheadAttention forward pass, for comparison with
`attnviz bench`.

Setup: batch_first=True, eval mode, dropout 0, float32, inside torch.no_grad(),
called as self-attention with need_weights=True and average_attn_weights=False
(so, like AttnViz, it materialises the per-head attention weights).

Prints exactly one JSON line on stdout, e.g.
  {"impl": "torch", "seq_len": 512, ..., "forward_ms_median": 12.3, ...}

Run with Debian's Python (the one with python3-torch):
  /usr/bin/python3 bench/torch_mha_bench.py --seq-len 512 --hidden-dim 512 \
      --num-heads 8 --batch 1 --repeat 7 --threads 2

BLAS: Debian's torch calls whatever /usr/lib/x86_64-linux-gnu/libblas.so.3
resolves to (see `update-alternatives --display libblas.so.3-x86_64-linux-gnu`);
the "blas" field reports the alternative and the library actually mapped into
this process.

OPENBLAS_CORETYPE may be set in this machine's environment; it forces OpenBLAS
to use the kernels for a named CPU instead of detecting the real one (e.g.
AVX2-only Haswell kernels on an AVX-512 CPU). This script leaves it alone (its
value is echoed in the "env" field). For a fair benchmark, unset it in the
command, e.g. `env -u OPENBLAS_CORETYPE /usr/bin/python3 bench/torch_mha_bench.py ...`.

Threads: torch's intra-op pool is OpenMP (libgomp) while the GEMMs run on
OpenBLAS's own pthread pool. On a 2-core machine the two can compete (idle
OpenMP workers spin for a while), which makes timings noisy; the "env" field
records OMP_WAIT_POLICY etc. so runs can be compared like for like.
"""

import argparse
import json
import os
import statistics
import sys
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seq-len", type=int, required=True)
    p.add_argument("--hidden-dim", type=int, required=True)
    p.add_argument("--num-heads", type=int, required=True)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    if a.hidden_dim % a.num_heads != 0:
        p.error("--hidden-dim must be divisible by --num-heads")
    for name in ("seq_len", "hidden_dim", "num_heads", "batch", "repeat", "threads"):
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    if a.warmup < 0:
        p.error("--warmup must be >= 0")
    return a


def blas_description(torch):
    """A short string naming the BLAS torch is using here."""
    parts = []
    cfg = torch.__config__.show()
    for token in cfg.replace(",", " ").split():
        if token.startswith("BLAS_INFO="):
            parts.append("torch " + token)
    link = "/usr/lib/x86_64-linux-gnu/libblas.so.3"
    if os.path.exists(link):
        parts.append("libblas.so.3 -> " + os.path.realpath(link))
    # Which BLAS shared objects are really mapped into this process.
    loaded = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                base = os.path.basename(path)
                if path.startswith("/") and ("blas" in base or "mkl" in base):
                    loaded.add(os.path.realpath(path))
    except OSError:
        pass
    if loaded:
        parts.append("loaded: " + ", ".join(sorted(loaded)))
    return "; ".join(parts) if parts else "unknown"


def thread_env():
    """Environment variables that change how BLAS / OpenMP threads behave."""
    names = ("OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE", "OMP_NUM_THREADS",
             "OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
    return {n: os.environ[n] for n in names if n in os.environ}


def main():
    args = parse_args()

    # OpenBLAS (pthread build) sizes its own thread pool when it is loaded and
    # torch.set_num_threads() does not reach it, so pin it to the same count
    # before torch (and with it libblas) is imported -- unless the caller
    # chose a value explicitly.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", str(args.threads))

    import torch  # noqa: E402  (deliberately after the environment is set)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    mha = torch.nn.MultiheadAttention(args.hidden_dim, args.num_heads, dropout=0.0,
                                      bias=True, batch_first=True)
    mha.eval()
    x = torch.randn(args.batch, args.seq_len, args.hidden_dim)

    def forward():
        out, weights = mha(x, x, x, need_weights=True, average_attn_weights=False)
        return out, weights

    times_ms = []
    with torch.no_grad():
        out, weights = forward()
        expect = (args.batch, args.num_heads, args.seq_len, args.seq_len)
        if tuple(weights.shape) != expect:
            sys.exit(f"unexpected attention weight shape {tuple(weights.shape)}")
        for _ in range(args.warmup):
            forward()
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            forward()
            times_ms.append((time.perf_counter() - t0) * 1e3)

    result = {
        "impl": "torch",
        "seq_len": args.seq_len,
        "hidden_dim": args.hidden_dim,
        "num_heads": args.num_heads,
        "batch": args.batch,
        "threads": torch.get_num_threads(),
        "repeat": args.repeat,
        "forward_ms_median": round(statistics.median(times_ms), 4),
        "forward_ms_all": [round(t, 4) for t in times_ms],
        "torch_version": torch.__version__,
        "blas": blas_description(torch),
        "env": thread_env(),
    }
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
