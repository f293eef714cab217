#!/usr/bin/python3
"""Build the PyTorch reference fixtures of the recipes' decode paths under
tests/fixtures/recipes_decode/.

Re-run (Debian's Python with python3-torch 1.13; the output is deterministic):

    OMP_NUM_THREADS=1 /usr/bin/python3 tests/torch_reference/make_decode_fixtures.py

Every case is one recipe, one size and one seed, built as make_recipe_fixtures.py
builds it (`torch.manual_seed(seed)`, then the module and its inputs in the article's
order), then run the way a generating model runs it: the prefill of rows 0..P-1 once,
then one row at a time against the module's own cache (scratch-kv-cache: the book's
cache_k / cache_v with use_cache=True; llama: Hugging Face's DynamicCache as
past_key_value). Its folder holds case.json (the `attnviz` options, P, the blocks) and
one folder per block, prefill/ and decode_001/, decode_002/, ..., as
`attnviz trace --decode-from P` names them, with one <step>.npy per step the module
kept. tests/test_recipe_decode_parity.cpp runs the same blocks through AttnViz's
run_attention_block and compares every step within 1e-5.
"""

import json
import os
import shutil

import numpy as np
import torch

import make_recipe_fixtures as mrf

rm = mrf.rm
OUT_ROOT = os.path.join(mrf.REPO, "tests", "fixtures", "recipes_decode")


def scratch_kv_cache(p):
    module = rm.ScratchKvCache(p["d_in"], p["E"], p["L"], p["dropout"], p["H"])
    x = mrf.scratch_input(p["B"], p["L"], p["d_in"])
    x = mrf.example_batch(p["B"]) if x is None else x
    module.reset_cache()
    return x, lambda rows: module(rows, use_cache=True), module


def llama(p):
    module = rm.LlamaAttention(p["E"], p["H"], p["H_kv"])
    x = torch.rand(p["B"], p["L"], p["E"])
    cache = rm.DynamicCache()
    return x, lambda rows: module(rows, past_key_value=cache), module


# recipe -> (builder, article defaults)
RECIPES = {
    "scratch-kv-cache": (scratch_kv_cache, dict(B=2, L=6, d_in=3, E=4, H=2, dropout=0.0, P=3)),
    "llama": (llama, dict(B=1, L=4, E=8, H=2, H_kv=2, P=2)),
}

# (case suffix, recipe, options beyond the recipe's, the same as parameters)
SIZES = [
    ("article", "scratch-kv-cache", [], {}),
    ("wide", "scratch-kv-cache", ["-E", "6", "-H", "3", "-L", "5", "-B", "3", "--decode-from", "2"], dict(E=6, H=3, L=5, B=3, P=2)),
    ("article", "llama", ["--decode-from", "2"], {}),
    ("gqa", "llama", ["-E", "16", "-H", "4", "--num-kv-heads", "2", "-L", "6", "-B", "2", "--decode-from", "3"],
     dict(E=16, H=4, H_kv=2, L=6, B=2, P=3)),
]


def block_name(index):
    return "prefill" if index == 0 else "decode_%03d" % index


def main():
    torch.set_num_threads(1)
    if os.path.isdir(OUT_ROOT):
        shutil.rmtree(OUT_ROOT)
    os.makedirs(OUT_ROOT)
    index = []
    for suffix, recipe, args, overrides in SIZES:
        build, defaults = RECIPES[recipe]
        p = dict(defaults)
        p.update(overrides)
        p.setdefault("d_in", p["E"])
        for seed in mrf.SEEDS:
            torch.manual_seed(seed)
            x, step, module = build(p)
            module.eval()
            name = "%s_%s_seed%d" % (recipe, suffix, seed)
            folder = os.path.join(OUT_ROOT, name)
            blocks = [(0, p["P"])] + [(row, 1) for row in range(p["P"], p["L"])]
            steps_of = {}
            for i, (first, count) in enumerate(blocks):
                module.steps = {}
                with torch.no_grad():
                    step(x[:, first:first + count])
                steps = mrf.trace_layout(dict(module.steps), False, p)
                os.makedirs(os.path.join(folder, block_name(i)))
                for s, t in steps.items():
                    np.save(os.path.join(folder, block_name(i), s + ".npy"),
                            np.ascontiguousarray(t.numpy().astype(np.float32)), allow_pickle=False)
                steps_of[block_name(i)] = sorted(steps)
            case = {"case": name, "recipe": recipe, "args": ["--recipe", recipe, "--seed", str(seed)] + args,
                    "decode_from": p["P"], "blocks": [block_name(i) for i in range(len(blocks))], "steps": steps_of}
            with open(os.path.join(folder, "case.json"), "w") as f:
                json.dump(case, f, indent=1)
            index.append(name)
    with open(os.path.join(OUT_ROOT, "cases.json"), "w") as f:
        json.dump(index, f, indent=1)
    print("%d cases in %s" % (len(index), OUT_ROOT))


if __name__ == "__main__":
    main()
