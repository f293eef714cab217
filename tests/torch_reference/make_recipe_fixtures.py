#!/usr/bin/python3
"""Build the PyTorch reference fixtures of AttnViz's recipes under
tests/fixtures/recipes/.

Re-run (Debian's Python with python3-torch 1.13; the output is deterministic):

    OMP_NUM_THREADS=1 /usr/bin/python3 tests/torch_reference/make_recipe_fixtures.py

Every case is one recipe, one size and one seed: `torch.manual_seed(seed)`, then
the recipe's inputs and module (assets/code/recipe_modules.py, the code
AttnViz's code panel shows) in the order the article
creates them, then one forward in train mode. Its folder holds case.json (the
`attnviz` options that select the same configuration, the step list, the first
rows of each weight as torch prints them) and one <step>.npy per step, named
and shaped as AttnViz's trace names and shapes it. tests/test_recipe_parity.cpp
runs the options through AttnViz and compares every step within 1e-5.
"""

import json
import os
import shutil
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "assets", "code"))  # recipe_modules.py, embedded in the app
OUT_ROOT = os.path.join(REPO, "tests", "fixtures", "recipes")

import recipe_modules as rm  # noqa: E402

SEEDS = (0, 1, 123)

# The six-token example of the LLM-from-scratch series ("Your journey starts with
# one step"), 3-d embeddings: the scratch recipes' default input.
YOUR_JOURNEY = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                             [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])


def scratch_input(B, L, d_in):
    """The example batched B times when it fits, else torch.rand drawn after the module."""
    if (L, d_in) == tuple(YOUR_JOURNEY.shape):
        return None
    return torch.rand(B, L, d_in)


def example_batch(B):
    return torch.stack([YOUR_JOURNEY] * B, dim=0)


def build_scratch_stacked(p):
    module = rm.ScratchStacked(p["d_in"], p["E"] // p["H"], p["L"], p["dropout"], p["H"])
    x = scratch_input(p["B"], p["L"], p["d_in"])
    x = example_batch(p["B"]) if x is None else x
    return module, lambda: module(x), {"W_query (head 0)": module.heads[0].W_query}


def build_scratch_mha(p):
    module = rm.ScratchMha(p["d_in"], p["E"], p["L"], p["dropout"], p["H"])
    x = scratch_input(p["B"], p["L"], p["d_in"])
    x = example_batch(p["B"]) if x is None else x
    return module, lambda: module(x), {"Wq.weight": module.Wq.weight, "Wo.bias": module.Wo.bias}


def build_scratch_kv_cache(p):
    """The whole pass (use_cache=False): the class computes what scratch-mha's does."""
    module = rm.ScratchKvCache(p["d_in"], p["E"], p["L"], p["dropout"], p["H"])
    x = scratch_input(p["B"], p["L"], p["d_in"])
    x = example_batch(p["B"]) if x is None else x
    return module, lambda: module(x), {"W_query.weight": module.W_query.weight, "out_proj.bias": module.out_proj.bias}


def build_day15_mha(p):
    module = rm.Day15Mha(p["d_in"], p["E"], p["L"], p["dropout"], p["H"])
    x = scratch_input(p["B"], p["L"], p["d_in"])
    x = example_batch(p["B"]) if x is None else x
    return module, lambda: module(x), {"W_query.weight": module.W_query.weight, "out_proj.bias": module.out_proj.bias}


def build_selfatt(cls, with_mask):
    def build(p):
        X = torch.rand(p["B"], p["L"], p["E"])           # the article draws X before the module
        module = cls(p["E"]) if not with_mask else cls(p["E"], p["dropout"])
        if not with_mask:
            return module, lambda: module(X), first_weight(module)
        valid = torch.tensor(p["valid_lengths"])
        keep = (torch.arange(p["L"])[None, :] < valid[:, None]).long()   # (B, S), 1 = real key
        mask = keep.unsqueeze(dim=1).repeat(1, p["L"], 1)                # (B, L, S)
        return module, lambda: module(X, mask), first_weight(module)
    return build


def first_weight(module):
    first = next(m for m in module.modules() if isinstance(m, torch.nn.Linear))
    return {"first nn.Linear weight": first.weight, "first nn.Linear bias": first.bias}


INTERVIEW_KEYS = [[0, 1], [0, 0], [1, 0]]   # the article's (B, S) 0/1 key pattern


def interview_keys(B, S):
    """The article's pattern; other sizes repeat it (item b, key j -> [b % 3][j % 2])."""
    return torch.tensor([[INTERVIEW_KEYS[b % 3][j % 2] for j in range(S)] for b in range(B)])


def build_interview(p):
    X = torch.rand(p["B"], p["L"], p["E"])
    module = rm.InterviewMha(p["E"], p["H"])
    mask = interview_keys(p["B"], p["L"]).unsqueeze(1).unsqueeze(2).expand(p["B"], p["H"], p["L"], p["L"])
    return module, lambda: module(X, mask), {"q_proj.weight": module.q_proj.weight, "q_proj.bias": module.q_proj.bias}


def build_torch_mha(p):
    module = rm.TorchMha(p["E"], p["H"], kdim=p["kdim"], vdim=p["vdim"], dropout=p["dropout"])
    query = torch.randn(p["B"], p["L"], p["E"])           # drawn after the module
    key = torch.randn(p["B"], p["S"], p["kdim"])
    value = torch.randn(p["B"], p["S"], p["vdim"])

    def run():
        state = torch.get_rng_state()
        out = module(query, key, value)
        after = torch.get_rng_state()
        torch.set_rng_state(state)                       # the module's own forward draws the same dropout
        assert module.check(query, key, value, out) < 1e-5
        torch.set_rng_state(after)
        return out
    m = module.mha
    firsts = {"out_proj.weight": m.out_proj.weight}
    firsts.update({"in_proj_weight": m.in_proj_weight} if m._qkv_same_embed_dim else
                  {"q_proj_weight": m.q_proj_weight, "k_proj_weight": m.k_proj_weight})
    return module, run, firsts


def build_llama(p):
    module = rm.LlamaAttention(p["E"], p["H"], p["H_kv"])
    x = torch.rand(p["B"], p["L"], p["E"])
    return module, lambda: module(x), {"q_proj.weight": module.q_proj.weight, "o_proj.weight": module.o_proj.weight}


# recipe -> (builder, article defaults, single-head module?)
RECIPES = {
    "scratch-stacked": (build_scratch_stacked, dict(B=2, L=6, d_in=3, E=4, H=2, dropout=0.0), False),
    "scratch-mha": (build_scratch_mha, dict(B=2, L=6, d_in=3, E=4, H=2, dropout=0.0), False),
    "scratch-kv-cache": (build_scratch_kv_cache, dict(B=2, L=6, d_in=3, E=4, H=2, dropout=0.0), False),
    "day15-mha": (build_day15_mha, dict(B=2, L=6, d_in=3, E=2, H=2, dropout=0.0), False),
    "selfatt-v1": (build_selfatt(rm.SelfAttV1, False), dict(B=3, L=2, E=4), True),
    "selfatt-v2": (build_selfatt(rm.SelfAttV2, False), dict(B=3, L=2, E=4), True),
    "selfatt-v3": (build_selfatt(rm.SelfAttV3, True), dict(B=3, L=4, E=2, dropout=0.1, valid_lengths=[3, 2, 1]), True),
    "selfatt-v4": (build_selfatt(rm.SelfAttV4, True), dict(B=3, L=4, E=2, dropout=0.1, valid_lengths=[3, 2, 1]), True),
    "interview-mha": (build_interview, dict(B=3, L=2, E=128, H=8), False),
    "torch-mha": (build_torch_mha, dict(B=2, L=4, S=5, E=6, H=2, kdim=6, vdim=6, dropout=0.0), False),
    "llama": (build_llama, dict(B=1, L=4, E=8, H=2, H_kv=2), False),
}

# (case suffix, recipe, size overrides as `attnviz` options, the same as parameters)
SIZES = [
    ("article", "scratch-stacked", [], {}),
    ("wide", "scratch-stacked", ["-H", "3", "-E", "6", "-L", "4"], dict(H=3, E=6, L=4)),
    ("dropout", "scratch-stacked", ["--dropout", "0.5"], dict(dropout=0.5)),
    ("article", "scratch-mha", [], {}),
    ("wide", "scratch-mha", ["-E", "6", "-H", "3", "-L", "5", "-B", "3"], dict(E=6, H=3, L=5, B=3)),
    ("dropout", "scratch-mha", ["--dropout", "0.1"], dict(dropout=0.1)),
    ("article", "scratch-kv-cache", [], {}),
    ("wide", "scratch-kv-cache", ["-E", "6", "-H", "3", "-L", "5", "-B", "3"], dict(E=6, H=3, L=5, B=3)),
    ("article", "day15-mha", [], {}),
    ("wide", "day15-mha", ["-E", "6", "-H", "2", "-L", "4", "-B", "3"], dict(E=6, H=2, L=4, B=3)),
    ("dropout", "day15-mha", ["--dropout", "0.1"], dict(dropout=0.1)),
    ("article", "selfatt-v1", [], {}),
    ("wide", "selfatt-v1", ["-B", "2", "-L", "5", "-E", "6"], dict(B=2, L=5, E=6)),
    ("article", "selfatt-v2", [], {}),
    ("wide", "selfatt-v2", ["-B", "2", "-L", "5", "-E", "6"], dict(B=2, L=5, E=6)),
    ("article", "selfatt-v3", [], {}),
    ("wide", "selfatt-v3", ["-L", "6", "-E", "4", "--dropout", "0.5"], dict(L=6, E=4, dropout=0.5)),
    ("article", "selfatt-v4", [], {}),
    ("wide", "selfatt-v4", ["-L", "6", "-E", "4", "--valid-lengths", "6,4,2"], dict(L=6, E=4, valid_lengths=[6, 4, 2])),
    ("article", "interview-mha", [], {}),
    ("small", "interview-mha", ["-E", "12", "-H", "3", "-L", "3", "-B", "4"], dict(E=12, H=3, L=3, B=4)),
    ("article", "torch-mha", [], {}),
    ("kvdim", "torch-mha", ["--kdim", "5", "--vdim", "3", "-L", "3", "-S", "4", "--dropout", "0.1"],
     dict(kdim=5, vdim=3, L=3, S=4, dropout=0.1)),
    ("article", "llama", [], {}),
    ("gqa", "llama", ["-E", "16", "-H", "4", "--num-kv-heads", "2", "-L", "5", "-B", "2"],
     dict(E=16, H=4, H_kv=2, L=5, B=2)),
]


def trace_layout(steps, single_head, p):
    """AttnViz's names and shapes: a single-head module gets its head axis."""
    if single_head:
        B, L, E = steps["input"].shape
        for name in ("q", "k", "v"):
            t = steps[name]
            steps[name + "_split"] = t.view(B, t.shape[1], 1, E)
            steps[name + "_heads"] = t.view(B, 1, t.shape[1], E)
        for name in ("attn_scores", "attn_scaled", "attn_masked", "attn_weights", "attn_dropped"):
            if name in steps:
                steps[name] = steps[name].unsqueeze(1)
        context = steps["context"]
        steps["context"] = context.unsqueeze(1)
        steps["context_split"] = context.unsqueeze(2)
        steps["concat"] = context
    if p.get("dropout", 0.0) == 0.0:
        steps.pop("attn_dropped", None)
    return steps


def first_rows(named):
    rows = {}
    for name, t in named.items():
        if t is None:
            continue
        t = t.detach()
        rows[name] = [float(v) for v in (t[0] if t.dim() > 1 else t)[:8]]
    return rows


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT_ROOT, exist_ok=True)
    for entry in os.listdir(OUT_ROOT):                  # old cases go; README.md stays
        if os.path.isdir(os.path.join(OUT_ROOT, entry)):
            shutil.rmtree(os.path.join(OUT_ROOT, entry))
    index = []
    for suffix, recipe, args, overrides in SIZES:
        build, defaults, single_head = RECIPES[recipe]
        p = dict(defaults)
        p.update(overrides)
        p.setdefault("S", p["L"])
        p.setdefault("d_in", p["E"])
        for seed in SEEDS:
            torch.manual_seed(seed)
            module, run, weights = build(p)
            module.train()
            run()
            steps = trace_layout(dict(module.steps), single_head, p)
            name = "%s_%s_seed%d" % (recipe, suffix, seed)
            folder = os.path.join(OUT_ROOT, name)
            os.makedirs(folder)
            for step, t in steps.items():
                np.save(os.path.join(folder, step + ".npy"), np.ascontiguousarray(t.numpy().astype(np.float32)),
                        allow_pickle=False)
            case = {"case": name, "recipe": recipe, "args": ["--recipe", recipe, "--seed", str(seed)] + args,
                    "steps": sorted(steps), "first_rows": first_rows(weights)}
            with open(os.path.join(folder, "case.json"), "w") as f:
                json.dump(case, f, indent=1)
            index.append(name)
    with open(os.path.join(OUT_ROOT, "cases.json"), "w") as f:
        json.dump(index, f, indent=1)
    print("%d cases in %s" % (len(index), OUT_ROOT))


if __name__ == "__main__":
    main()
