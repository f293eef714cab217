#!/usr/bin/python3
"""PyTorch references for generation (core/model/sampling.h, core/model/generate.h).

Writes tests/fixtures/generation/:

  filters.json   -- rows of random logits and sampling settings; for each, the tokens
                    Hugging Face's warpers keep, written from torch: temperature divides the
                    logits, top-k keeps torch.topk's k indices, top-p sorts the probabilities
                    of what top-k left, cumulates them and removes the tokens whose ascending
                    cumulative sum is <= 1 - p (TopPLogitsWarper's cut, so the token that
                    crosses p stays); and the renormalised distribution of the kept tokens.
                    Also `draws`: the tokens AttnViz's specified generator must draw for a seed
                    (SplitMix64 over an FNV-1a stream key, 53-bit uniforms, cumulative sum by
                    token id), written here independently of the C++.
  greedy.json    -- for each next-token model, a prompt and the tokens a plain PyTorch loop
                    over the committed weights generates greedily: the whole sequence run
                    again at each step (no cache), argmax of the last row, in float64.

    /usr/bin/python3 tests/torch_reference/make_generation_fixtures.py
"""

import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(REPO, "assets", "models")
OUT = os.path.join(REPO, "tests", "fixtures", "generation")
sys.path.insert(0, HERE)
sys.path.insert(0, MODELS)
import make_fixtures  # noqa: E402
from model import TinyTransformer  # noqa: E402

MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------- the filters, from torch
def hf_filter(logits, temperature, top_k, top_p):
    """(kept bool (V,), filtered float64 (V,)) for one row, as Hugging Face's warpers."""
    scores = torch.tensor(logits, dtype=torch.float64) / temperature
    if 0 < top_k < scores.numel():
        values, _ = torch.topk(scores, top_k)
        scores = scores.masked_fill(scores < values[-1], float("-inf"))
    if top_p < 1.0:
        sorted_scores, sorted_indices = torch.sort(scores, descending=False)
        cumulative = sorted_scores.softmax(-1).cumsum(-1)
        remove_sorted = cumulative <= (1 - top_p)
        remove_sorted[-1] = False                       # min_tokens_to_keep = 1
        remove = remove_sorted.scatter(0, sorted_indices, remove_sorted)
        scores = scores.masked_fill(remove, float("-inf"))
    kept = torch.isfinite(scores)
    return kept.numpy(), scores.softmax(-1).numpy()


# ---------------------------------------------------------------- the generator, specified
def fnv1a(text):
    h = 1469598103934665603
    for byte in text.encode():
        h ^= byte
        h = (h * 1099511628211) & MASK64
    return h


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK64

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def sample_rng(seed):
    """core/model/sampling.h's sample_rng: Rng::for_stream(seed, "sample")."""
    return SplitMix64(SplitMix64(seed ^ fnv1a("sample")).next_u64())


def draw(filtered, rng):
    u = (rng.next_u64() >> 11) * (1.0 / 9007199254740992.0)
    total, last = 0.0, 0
    for i, p in enumerate(filtered.astype(np.float32).astype(np.float64)):
        if p <= 0:
            continue
        total += p
        last = i
        if u < total:
            return i
    return last


def filter_cases():
    gen = np.random.RandomState(5)
    settings = [(1.0, 0, 1.0), (0.7, 5, 1.0), (1.0, 0, 0.9), (1.3, 10, 0.8), (0.5, 3, 0.5), (2.0, 0, 0.3),
                (1.0, 1, 1.0), (0.9, 40, 0.95)]
    cases = []
    for n, (t, k, p) in enumerate(settings):
        logits = (gen.randn(40) * (1 + n % 3)).astype(np.float32)
        kept, filtered = hf_filter(logits, t, k, p)
        rng = sample_rng(n)
        cases.append({"logits": logits.tolist(), "temperature": t, "top_k": k, "top_p": p,
                      "kept": [int(i) for i in np.nonzero(kept)[0]], "filtered": filtered.tolist(),
                      "seed": n, "draws": [draw(filtered, rng) for _ in range(12)]})
    return cases


# ---------------------------------------------------------------- greedy generation
def load(name):
    card = json.load(open(os.path.join(MODELS, name + ".json")))
    arch = card["architecture"]
    llama = arch["norm"] == "rmsnorm"
    model = TinyTransformer(card["vocab_size"], card["hidden_dim"], card["heads"], card["layers"], card["max_len"],
                            arch["mlp"], arch["causal"], llama, arch.get("kv_heads"))
    state = make_fixtures.read_safetensors(os.path.join(MODELS, name + ".safetensors"))
    model.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in state.items()})
    return card, model.double().eval()


def greedy(name, prompt, steps):
    card, model = load(name)
    index = {w: i for i, w in enumerate(card["vocabulary"])}
    ids = ([index["<bos>"]] if card["prepend_bos"] else []) + [index[w] for w in prompt]
    first = len(ids)
    probabilities = []
    with torch.no_grad():
        for _ in range(steps):
            logits, _ = model(torch.tensor([ids]))
            row = logits[0, -1]
            ids.append(int(row.argmax()))
            probabilities.append(float(row.softmax(-1)[ids[-1]]))
    return {"model": name, "prompt": prompt, "prompt_ids": ids[:first], "generated_ids": ids[first:],
            "generated": [card["vocabulary"][i] for i in ids[first:]], "probabilities": probabilities}


GREEDY_CASES = [
    ("tiny-lm", "the dog saw".split(), 10),
    ("tiny-lm-zh", list("小狗看见了"), 8),
    ("sort", "4 9 2 6 |".split(), 4),
    ("tiny-llama", "the dog saw the cat and it ran .".split(), 40),
    ("induction", "k e p r a f k e".split(), 4),
]


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    names = sys.argv[1:]
    with open(os.path.join(OUT, "filters.json"), "w") as f:
        json.dump({"cases": filter_cases()}, f, indent=1)
        f.write("\n")
    cases = [greedy(*case) for case in GREEDY_CASES if not names or case[0] in names]
    with open(os.path.join(OUT, "greedy.json"), "w") as f:
        json.dump({"cases": cases}, f, indent=1)
        f.write("\n")
    for c in cases:
        print("%-10s %s -> %s" % (c["model"], " ".join(c["prompt"]), " ".join(c["generated"])))


if __name__ == "__main__":
    main()
