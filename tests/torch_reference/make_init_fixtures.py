#!/usr/bin/python3
"""Build the PyTorch reference fixtures for AttnViz's replay of torch's CPU generator.

Re-run (deterministic: it rewrites identical bytes) with Debian's python3-torch:

    OMP_NUM_THREADS=1 /usr/bin/python3 tests/torch_reference/make_init_fixtures.py

It writes tests/fixtures/torch_init/manifest.json and one .npy (float32, C order)
per recorded tensor. tests/test_torch_random.cpp reads them; torch is not needed
to build or test AttnViz.

Each case is torch.manual_seed(seed) followed by a list of operations run on the
global CPU generator one after another, exactly as a recipe's PyTorch code would
run them, so the fixtures also check that every operation leaves the generator
where the next one expects it. The operations:

  linear   nn.Linear(in, out, bias)              -> weight, bias
  mha      nn.MultiheadAttention(E, H, ...)      -> its parameters (see below)
  rand     torch.rand(*shape)                    -> value
  randn    torch.randn(*shape)                   -> value
  normal   torch.empty(numel).normal_(mean, std) -> value
  uniform  torch.empty(numel).uniform_(lo, hi)   -> value
  dropout  F.dropout(x, p, training=True) on a fixed, nonzero, non-random x
                                                 -> input, output, keep (1 kept, 0 dropped)

mha records in_proj_weight (or q/k/v_proj_weight when kdim/vdim differ from E),
in_proj_bias, out_proj.weight, out_proj.bias, bias_k, bias_v -- those that exist.
File names are <case>.<op index>.<tensor>.npy.
"""
import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "torch_init")

SEEDS = [0, 1, 123]


def dropout_input(shape):
    """A fixed input with no zeros (so kept == nonzero output) that draws nothing."""
    n = int(np.prod(shape))
    values = (np.arange(n, dtype=np.float64) % 7 - 3.5) * 0.37 + 0.05
    return torch.tensor(values, dtype=torch.float32).reshape(shape)


def run_op(op):
    kind = op["op"]
    if kind == "linear":
        m = torch.nn.Linear(op["in"], op["out"], bias=op["bias"])
        out = {"weight": m.weight}
        if m.bias is not None:
            out["bias"] = m.bias
        return out
    if kind == "mha":
        m = torch.nn.MultiheadAttention(op["E"], op["H"], bias=op["bias"], add_bias_kv=op["add_bias_kv"],
                                        kdim=op["kdim"] or None, vdim=op["vdim"] or None, batch_first=True)
        out = {}
        for name in ["in_proj_weight", "q_proj_weight", "k_proj_weight", "v_proj_weight", "in_proj_bias",
                     "bias_k", "bias_v"]:
            t = getattr(m, name)
            if t is not None:
                out[name] = t
        out["out_proj.weight"] = m.out_proj.weight
        if m.out_proj.bias is not None:
            out["out_proj.bias"] = m.out_proj.bias
        return out
    if kind == "rand":
        return {"value": torch.rand(*op["shape"])}
    if kind == "randn":
        return {"value": torch.randn(*op["shape"])}
    if kind == "normal":
        return {"value": torch.empty(op["numel"]).normal_(op["mean"], op["std"])}
    if kind == "uniform":
        return {"value": torch.empty(op["numel"]).uniform_(op["lo"], op["hi"])}
    if kind == "dropout":
        x = dropout_input(op["shape"])
        y = F.dropout(x, op["p"], training=True)
        return {"input": x, "output": y, "keep": (y != 0).to(torch.float32)}
    raise ValueError(kind)


def linear(i, o, bias=True):
    return {"op": "linear", "in": i, "out": o, "bias": bias}


def mha(E, H, bias=True, add_bias_kv=False, kdim=0, vdim=0):
    return {"op": "mha", "E": E, "H": H, "bias": bias, "add_bias_kv": add_bias_kv, "kdim": kdim, "vdim": vdim}


def dropout(p, *shape):
    return {"op": "dropout", "p": p, "shape": list(shape)}


CASES = {
    # Several sizes in one stream, with and without bias.
    "linear_sizes": [linear(3, 2), linear(3, 2, False), linear(16, 5), linear(7, 33, False), linear(64, 64)],
    # The weight-split MultiHeadAttention of the LLM-from-scratch series: W_query, W_key,
    # W_value (no bias) then out_proj (bias), d_in 3, d_out 4.
    "scratch_mha": [linear(3, 4, False), linear(3, 4, False), linear(3, 4, False), linear(4, 4)],
    # Its stacked variant: per head nn.Parameter(torch.rand(d_in, d_out)) for query, key, value.
    "scratch_stacked": [{"op": "rand", "shape": [3, 2]} for _ in range(6)],
    "mha_packed": [mha(8, 2)],
    "mha_kdim_vdim": [mha(8, 2, kdim=5, vdim=3)],
    # bias_k / bias_v of 5 elements: scalar normal path, the cached sine half of bias_k's
    # last pair starts bias_v.
    "mha_bias_kv_small": [mha(5, 1, bias=False, add_bias_kv=True)],
    # 16 and 20 elements: the vectorised path, exactly one block and one block plus a tail.
    "mha_bias_kv_vectorised": [mha(16, 4, add_bias_kv=True), mha(20, 4, add_bias_kv=True, kdim=7, vdim=9)],
    "rand_shapes": [{"op": "rand", "shape": s} for s in ([1], [7], [4, 4], [17], [10, 10])],
    "randn_shapes": [{"op": "randn", "shape": s} for s in ([1], [7], [16], [17], [10, 10], [3], [2, 3, 5])],
    # Enough vectorised normals (256 blocks and a tail) that a wrongly rounded step of
    # the log / sincos polynomials shows in some of them.
    "randn_large": [{"op": "randn", "shape": [4099]}],
    "normal_uniform": [{"op": "normal", "numel": 5, "mean": 0.5, "std": 2.0},
                       {"op": "normal", "numel": 40, "mean": -1.0, "std": 0.25},
                       {"op": "uniform", "numel": 33, "lo": -3.0, "hi": 0.7}],
    "dropout": [dropout(0.1, 7), dropout(0.5, 7), dropout(0.1, 16), dropout(0.5, 17),
                dropout(0.1, 2, 2, 3, 5), dropout(0.5, 1, 2, 6, 6), dropout(0.1, 100), dropout(0.5, 100),
                # p = 0 and p = 1 draw nothing: the rand after them shows it.
                dropout(0.0, 9), dropout(1.0, 9), {"op": "rand", "shape": [4]}],
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".npy") or old == "manifest.json":
            os.remove(os.path.join(OUT, old))
    manifest = {"torch_version": torch.__version__, "cases": []}
    for seed in SEEDS:
        for case_name, ops in CASES.items():
            name = f"{case_name}_seed{seed}"
            torch.manual_seed(seed)
            recorded = []
            for index, op in enumerate(ops):
                tensors = {}
                with torch.no_grad():
                    outputs = run_op(op)
                for tname, t in outputs.items():
                    file = f"{name}.{index}.{tname}.npy"
                    np.save(os.path.join(OUT, file), t.detach().numpy().astype(np.float32), allow_pickle=False)
                    tensors[tname] = file
                recorded.append(dict(op, tensors=tensors))
            manifest["cases"].append({"name": name, "seed": seed, "ops": recorded})
    # Only the low 32 bits of a seed reach the Mersenne Twister.
    torch.manual_seed(2**32 + 5)
    np.save(os.path.join(OUT, "high_seed.rand.npy"), torch.rand(6).numpy(), allow_pickle=False)
    manifest["cases"].append({"name": "high_seed", "seed": 2**32 + 5,
                              "ops": [{"op": "rand", "shape": [6], "tensors": {"value": "high_seed.rand.npy"}}]})
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
