#!/usr/bin/python3
"""Recompute every fixture of every example model in plain numpy, from the
safetensors file and the card alone, following README.md's formulas, and print
the largest difference per file.  This checks that the written-down architecture
is exactly the one trained (what a C++ reimplementation has to match).

    /usr/bin/python3 assets/models/check_numpy.py      # exit 1 if any difference > 1e-5
"""

import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import FIXTURES, HERE, MODELS, read_safetensors  # noqa: E402

ERF = np.vectorize(math.erf)


def layer_norm(x, w, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * w + b


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def forward(card, wts, ids):
    a = card["architecture"]
    H, D = card["heads"], card["hidden_dim"]
    dh = D // H
    L = len(ids)
    out = {"token_ids": np.array(ids, dtype=np.float64)}
    x = wts["tok_emb.weight"][ids] + wts["pos_emb.weight"][:L]
    out.update(token_embedding=wts["tok_emb.weight"][ids], position_embedding=wts["pos_emb.weight"][:L], embedding_sum=x)
    for i in range(card["layers"]):
        p = "layers.%d." % i
        lin = lambda t, name: t @ wts[p + name + ".weight"].T + wts[p + name + ".bias"]  # noqa: E731
        h = layer_norm(x, wts[p + "ln1.weight"], wts[p + "ln1.bias"])
        split = lambda t: t.reshape(L, H, dh).transpose(1, 0, 2)  # noqa: E731  (L, D) -> (H, L, dh)
        q, k, v = split(lin(h, "attn.q_proj")), split(lin(h, "attn.k_proj")), split(lin(h, "attn.v_proj"))
        scores = q @ k.transpose(0, 2, 1)
        scaled = scores / math.sqrt(dh)
        masked = scaled.copy()
        if a["causal"]:
            masked[:, np.triu(np.ones((L, L), dtype=bool), 1)] = -np.inf
        weights = softmax(masked)
        context = weights @ v
        concat = context.transpose(1, 0, 2).reshape(L, D)
        attn_out = lin(concat, "attn.o_proj")
        x = x + attn_out
        r = dict(ln1=h, q=q, k=k, v=v, scores=scores, scaled=scaled, masked=masked, weights=weights,
                 context=context, concat=concat, attn_out=attn_out, resid_attn=x)
        if a["mlp"]:
            ln2 = layer_norm(x, wts[p + "ln2.weight"], wts[p + "ln2.bias"])
            fc1 = lin(ln2, "mlp.fc1")
            act = 0.5 * fc1 * (1 + ERF(fc1 / math.sqrt(2)))
            fc2 = lin(act, "mlp.fc2")
            x = x + fc2
            r.update(ln2=ln2, mlp_fc1=fc1, mlp_gelu=act, mlp_fc2=fc2, resid_mlp=x)
        out.update({"layer%d.%s" % (i, k2): v2 for k2, v2 in r.items()})
    final = layer_norm(x, wts["ln_f.weight"], wts["ln_f.bias"])
    logits = final @ wts["lm_head.weight"].T
    out.update(final_norm=final, logits=logits, probs=softmax(logits))
    return out


def main():
    worst_all = 0.0
    for name in MODELS:
        card = json.load(open(os.path.join(HERE, name + ".json")))
        wts = {k: v.astype(np.float64) for k, v in read_safetensors(os.path.join(HERE, name + ".safetensors")).items()}
        folder = os.path.join(FIXTURES, name)
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        mine = forward(card, wts, manifest["token_ids"])
        worst = 0.0
        for entry in manifest["files"]:
            key = entry["file"][:-4]
            ref = np.load(os.path.join(folder, entry["file"])).astype(np.float64)
            got = mine[key]
            finite = np.isfinite(ref)
            assert (finite == np.isfinite(got)).all(), key
            diff = float((np.abs(ref[finite] - got[finite]) / np.maximum(1.0, np.abs(ref[finite]))).max())
            if diff > worst:
                worst, where = diff, key
        print("%-8s %2d files, largest difference %.2e (in %s; absolute below 1, relative above)"
              % (name, len(manifest["files"]), worst, where))
        worst_all = max(worst_all, worst)
    sys.exit(0 if worst_all <= 1e-5 else 1)


if __name__ == "__main__":
    main()
