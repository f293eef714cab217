

# ---------------------------------------------------------------------------
# {code.comment.runner}
# ---------------------------------------------------------------------------
import json
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCE = 1e-5


def read_safetensors(path):
    """{code.comment.safetensors}"""
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
        data = f.read()
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            raise ValueError(f"{name}: expected F32, found {info['dtype']}")
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype="<f4").reshape(info["shape"])
        tensors[name] = torch.from_numpy(array.copy())
    return tensors


def load(name):
    return torch.from_numpy(np.load(os.path.join(HERE, name)))


def build_mask(spec, B, L, S, S_total):
    """{code.comment.mask_recipe}"""
    i = torch.arange(L)[:, None]  # {code.comment.query_positions}
    j = torch.arange(S)[None, :]  # {code.comment.key_positions}
    hidden = torch.zeros(B, 1, L, S, dtype=torch.bool)
    lengths = torch.tensor(spec["valid_lengths"] or [S]).expand(B)[:, None, None, None]
    if "causal" in spec["presets"]:
        hidden = hidden | (j > i)
    if "padding" in spec["presets"]:
        hidden = hidden | (j >= lengths)
    if "left-padding" in spec["presets"]:
        hidden = hidden | (j < S - lengths)
    if "window" in spec["presets"]:
        hidden = hidden | (j > i) | (j <= i - spec["window"])
    added = None
    if spec["file"]:
        from_file = load(spec["file"])
        if from_file.dim() == 3:  # {code.comment.mask_dims}
            from_file = from_file[:, None]
        if spec["file_is_boolean"]:
            hidden = hidden | (from_file != 0)
        else:
            added = torch.zeros(B, 1, L, S) + from_file
    extra = S_total - S
    if extra:
        hidden = torch.nn.functional.pad(hidden, (0, extra), value=False)
        if added is not None:
            added = torch.nn.functional.pad(added, (0, extra), value=0.0)
    return hidden, added


def largest_difference(got, expected):
    """{code.comment.difference}"""
    with np.errstate(invalid="ignore"):
        scale = np.maximum(1.0, np.abs(np.nan_to_num(expected, nan=0.0, posinf=0.0, neginf=0.0)))
        difference = np.where(got == expected, 0.0, np.abs(got - expected) / scale)
    return float(np.nan_to_num(difference, nan=np.inf).max(initial=0.0))


def main():
    with open(os.path.join(HERE, "attention.json")) as f:
        export = json.load(f)
    with open(os.path.join(HERE, "trace", "manifest.json")) as f:
        manifest = json.load(f)
    for note in export["notes"]:
        print("note:", note)

    module = Attention(**export["module_args"])
    module.load_state_dict(read_safetensors(os.path.join(HERE, "weights.safetensors")))
    x = load("input.npy")
    key = load("key_input.npy") if export["cross_attention"] else None
    value = load("value_input.npy") if export["cross_attention"] else None
    B, L, S, S_total = export["B"], export["L"], export["S"], export["S_total"]
    mask, mask_add = None, None
    if export["mask"]:
        mask, mask_add = build_mask(export["mask"], B, L, S, S_total)
    keep = None
    if export["dropout_replay"]:  # {code.comment.own_dropout}
        keep = (load(os.path.join("trace", "attn_dropped.npy")) != 0).float()
    module.train(keep is None and module.dropout.p > 0)
    with torch.no_grad():
        module(x, key, value, mask=mask, mask_add=mask_add, dropout_keep=keep)

    worst = 0.0
    print(f"{'step':18} {'shape':22} largest |difference| from AttnViz (relative where |x| > 1)")
    for step in manifest["steps"]:
        name = step["name"]
        if name not in module.steps:
            print(f"{name:18} {'':22} not computed here (outside the attention module)")
            continue
        expected = np.load(os.path.join(HERE, "trace", step["file"]))
        got = module.steps[name].detach().numpy()
        if got.shape != expected.shape:
            print(f"{name:18} shape {tuple(got.shape)} but AttnViz has {tuple(expected.shape)}")
            worst = float("inf")
            continue
        difference = largest_difference(got, expected)
        worst = max(worst, difference)
        flag = "" if difference <= TOLERANCE else "   <-- above 1e-5"
        print(f"{name:18} {str(tuple(expected.shape)):22} {difference:.3g}{flag}")
    if worst > TOLERANCE:
        print(f"FAILED: the largest difference is {worst:.3g}, above {TOLERANCE:g}")
        return 1
    print(f"OK: every step within {TOLERANCE:g} of AttnViz (largest {worst:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
