#!/usr/bin/python3
"""Build the PyTorch reference fixtures for AttnViz's multi-head attention tests.

Every case below sets up a torch.nn.MultiheadAttention (batch_first=True, eval
mode, float32, a fixed seed per case), feeds it random inputs and records:

  * config.json          -- sizes, mask kind, weight naming and storage dtype
  * weights.safetensors  -- the module's parameters (PyTorch or Hugging Face names)
  * query.npy            -- plus key.npy / value.npy for cross-attention cases
  * out.npy, attn_weights.npy
                         -- what nn.MultiheadAttention itself returns
                            (need_weights=True, average_attn_weights=False)
  * q.npy, k.npy, v.npy, attn_scaled.npy, context.npy, and every other step
    AttnViz's split variant records (q_split ... v_heads, attn_scores,
    attn_masked when masked, context_split, concat; input / key_input /
    value_input copies of the inputs)
                         -- intermediate tensors recomputed step by step with
                            plain torch ops from the very same weights

The step-by-step path is checked against the module's own output before any
file is written, so the intermediates are known to be consistent with it.

The generated files are committed. The C++ test suite only reads them, so
neither Python nor torch is needed to build or test AttnViz; run this script
(with Debian's /usr/bin/python3, which has python3-torch) only to regenerate:

    /usr/bin/python3 tests/torch_reference/make_fixtures.py

The output is deterministic: running it again rewrites identical bytes.

Notes
  * nn.MultiheadAttention starts its biases at zero, which would make a bias
    bug invisible; the cases with bias=True overwrite them with seeded random
    values.
  * For F16 / BF16 cases the parameters are rounded to that dtype, written to
    the file in that dtype, and the expected outputs are computed from the
    rounded values widened back to float32 -- i.e. exactly what a reader of
    the file gets.
  * The safetensors file is written by hand (the Python package is not
    available from Debian 12): an 8-byte little-endian header length, a JSON
    header padded with spaces to a multiple of 8 bytes, then the raw
    little-endian tensor bytes laid out back to back.
"""

import json
import math
import os
import shutil
import struct
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT_ROOT = os.path.join(REPO, "tests", "fixtures", "torch")

TOLERANCE = 1e-5

# name, seed, and the settings for that case.  Missing keys take defaults in
# normalise_case().
CASES = [
    dict(name="self_basic", seed=101, batch=2, seq_len=5, hidden_dim=8, num_heads=2),
    dict(name="causal", seed=102, batch=1, seq_len=7, hidden_dim=12, num_heads=3,
         mask="causal"),
    dict(name="padding", seed=103, batch=3, seq_len=6, hidden_dim=8, num_heads=4,
         mask="padding", valid_lengths=[6, 4, 1]),
    dict(name="cross_kdim_vdim", seed=104, batch=2, seq_len=4, kv_len=6, hidden_dim=8,
         num_heads=2, kdim=5, vdim=3, cross=True),
    dict(name="cross_padding", seed=105, batch=2, seq_len=3, kv_len=5, hidden_dim=6,
         num_heads=3, kdim=6, vdim=6, cross=True, mask="padding", valid_lengths=[5, 2]),
    dict(name="no_bias", seed=106, batch=1, seq_len=5, hidden_dim=6, num_heads=2,
         bias=False, mask="causal"),
    dict(name="hf_f16", seed=107, batch=1, seq_len=4, hidden_dim=8, num_heads=2,
         bias=False, weight_names="hf", weight_dtype="F16"),
    dict(name="torch_bf16", seed=108, batch=1, seq_len=3, hidden_dim=4, num_heads=1,
         weight_dtype="BF16"),
    dict(name="one_token", seed=109, batch=1, seq_len=1, hidden_dim=4, num_heads=4),
]

TORCH_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}


def normalise_case(case):
    """Fill in defaults and produce the config.json dictionary (fixed key order)."""
    e = case["hidden_dim"]
    cross = case.get("cross", False)
    seq_len = case["seq_len"]
    cfg = {
        "batch": case["batch"],
        "seq_len": seq_len,
        "kv_len": case.get("kv_len", seq_len) if cross else seq_len,
        "hidden_dim": e,
        "num_heads": case["num_heads"],
        "kdim": case.get("kdim", e),
        "vdim": case.get("vdim", e),
        "bias": case.get("bias", True),
        "mask": case.get("mask", "none"),
        "valid_lengths": list(case.get("valid_lengths", [])),
        "cross": cross,
        "weight_names": case.get("weight_names", "torch"),
        "weight_dtype": case.get("weight_dtype", "F32"),
    }
    if not cross and (cfg["kdim"] != e or cfg["vdim"] != e):
        raise ValueError(case["name"] + ": kdim/vdim differ from E but the case is not cross")
    if cfg["mask"] == "padding" and len(cfg["valid_lengths"]) != cfg["batch"]:
        raise ValueError(case["name"] + ": need one valid length per batch item")
    if e % cfg["num_heads"] != 0:
        raise ValueError(case["name"] + ": hidden_dim must divide by num_heads")
    return cfg


# --------------------------------------------------------------------------
# safetensors, written and read back by hand
# --------------------------------------------------------------------------

def tensor_bytes(t, dtype_name):
    """Little-endian bytes of tensor `t` stored as `dtype_name`."""
    t = t.detach().contiguous()
    if dtype_name == "F32":
        return t.to(torch.float32).numpy().astype("<f4").tobytes()
    if dtype_name == "F16":
        return t.to(torch.float16).numpy().astype("<f2").tobytes()
    if dtype_name == "BF16":
        # numpy has no bfloat16; reinterpret the 16-bit pattern as an int16.
        bits = t.to(torch.bfloat16).view(torch.int16).numpy()
        return bits.astype("<i2").tobytes()
    raise ValueError("unsupported dtype " + dtype_name)


def write_safetensors(path, tensors, dtype_name, metadata):
    """tensors: list of (name, tensor) in the order they should be laid out."""
    header = {}
    blobs = []
    offset = 0
    for name, t in tensors:
        blob = tensor_bytes(t, dtype_name)
        header[name] = {
            "dtype": dtype_name,
            "shape": list(t.shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        blobs.append(blob)
        offset += len(blob)
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((-len(text)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def read_safetensors(path):
    """Minimal reader used only to self-check what write_safetensors produced."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    assert n % 8 == 0, "header not padded"
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    data = raw[8 + n:]
    header.pop("__metadata__", None)
    out = {}
    covered = 0
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        begin, end = info["data_offsets"]
        assert begin == covered, "gap or overlap in " + name
        covered = end
        chunk = data[begin:end]
        if info["dtype"] == "F32":
            arr = np.frombuffer(chunk, dtype="<f4").astype(np.float32)
        elif info["dtype"] == "F16":
            arr = np.frombuffer(chunk, dtype="<f2").astype(np.float32)
        elif info["dtype"] == "BF16":
            bits = np.frombuffer(chunk, dtype="<u2").astype(np.uint32) << 16
            arr = bits.view(np.float32)
        else:
            raise ValueError(info["dtype"])
        out[name] = arr.reshape(info["shape"])
    assert covered == len(data), "trailing bytes after the last tensor"
    return out


# --------------------------------------------------------------------------
# building one case
# --------------------------------------------------------------------------

def build_module(cfg):
    e = cfg["hidden_dim"]
    mha = torch.nn.MultiheadAttention(
        embed_dim=e, num_heads=cfg["num_heads"], dropout=0.0, bias=cfg["bias"],
        kdim=cfg["kdim"], vdim=cfg["vdim"], batch_first=True)
    mha.eval()
    with torch.no_grad():
        if cfg["bias"]:
            # Replace the all-zero default biases so they are really tested.
            mha.in_proj_bias.uniform_(-0.5, 0.5)
            mha.out_proj.bias.uniform_(-0.5, 0.5)
        if cfg["weight_dtype"] != "F32":
            low = TORCH_DTYPES[cfg["weight_dtype"]]
            for p in mha.parameters():
                p.copy_(p.to(low).to(torch.float32))
    return mha


def projection_matrices(mha, cfg):
    """(Wq, Wk, Wv, bq, bk, bv, Wo, bo); biases are None without bias."""
    e = cfg["hidden_dim"]
    if mha._qkv_same_embed_dim:
        w = mha.in_proj_weight
        wq, wk, wv = w[:e], w[e:2 * e], w[2 * e:]
    else:
        wq, wk, wv = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
    if cfg["bias"]:
        b = mha.in_proj_bias
        bq, bk, bv = b[:e], b[e:2 * e], b[2 * e:]
        bo = mha.out_proj.bias
    else:
        bq = bk = bv = bo = None
    return wq, wk, wv, bq, bk, bv, mha.out_proj.weight, bo


def file_tensors(mha, cfg):
    """The (name, tensor) list that goes into weights.safetensors."""
    if cfg["weight_names"] == "torch":
        sd = mha.state_dict()
        expected = {"out_proj.weight"}
        expected |= {"in_proj_weight"} if mha._qkv_same_embed_dim else {
            "q_proj_weight", "k_proj_weight", "v_proj_weight"}
        if cfg["bias"]:
            expected |= {"in_proj_bias", "out_proj.bias"}
        assert set(sd) == expected, sorted(sd)
        return [(name, sd[name]) for name in sorted(sd)]
    wq, wk, wv, bq, bk, bv, wo, bo = projection_matrices(mha, cfg)
    items = [("q_proj.weight", wq), ("k_proj.weight", wk), ("v_proj.weight", wv),
             ("o_proj.weight", wo)]
    if cfg["bias"]:
        items += [("q_proj.bias", bq), ("k_proj.bias", bk), ("v_proj.bias", bv),
                  ("o_proj.bias", bo)]
    return sorted(items)


def make_masks(cfg):
    b, l, s = cfg["batch"], cfg["seq_len"], cfg["kv_len"]
    attn_mask = key_padding_mask = None
    if cfg["mask"] == "causal":
        attn_mask = torch.triu(torch.ones(l, s, dtype=torch.bool), diagonal=1)
    elif cfg["mask"] == "padding":
        cols = torch.arange(s).unsqueeze(0)
        lengths = torch.tensor(cfg["valid_lengths"]).unsqueeze(1)
        key_padding_mask = cols >= lengths
    return attn_mask, key_padding_mask


def linear(x, w, b):
    y = x @ w.transpose(0, 1)
    return y if b is None else y + b


def by_hand(mha, cfg, query, key, value, attn_mask, key_padding_mask):
    """Multi-head attention spelled out one step at a time."""
    b, l, s = cfg["batch"], cfg["seq_len"], cfg["kv_len"]
    e, h = cfg["hidden_dim"], cfg["num_heads"]
    dh = e // h
    wq, wk, wv, bq, bk, bv, wo, bo = projection_matrices(mha, cfg)

    q = linear(query, wq, bq)                      # (B, L, E)
    k = linear(key, wk, bk)                        # (B, S, E)
    v = linear(value, wv, bv)                      # (B, S, E)

    def split(t, n):                               # (B, n, E) -> (B, H, n, dh)
        return t.reshape(b, n, h, dh).permute(0, 2, 1, 3)

    qh, kh, vh = split(q, l), split(k, s), split(v, s)
    scores = qh @ kh.transpose(-1, -2)             # (B, H, L, S)
    scaled = scores / math.sqrt(dh)                # (B, H, L, S)

    blocked = torch.zeros(b, 1, l, s, dtype=torch.bool)
    if attn_mask is not None:
        blocked = blocked | attn_mask.view(1, 1, l, s)
    if key_padding_mask is not None:
        blocked = blocked | key_padding_mask.view(b, 1, 1, s)
    logits = scaled.masked_fill(blocked, float("-inf"))
    weights = torch.softmax(logits, dim=-1)        # (B, H, L, S)

    context = weights @ vh                         # (B, H, L, dh)
    context_split = context.permute(0, 2, 1, 3)    # (B, L, H, dh)
    merged = context_split.reshape(b, l, e)
    out = linear(merged, wo, bo)                   # (B, L, E)
    steps = dict(q=q, k=k, v=v, q_split=q.reshape(b, l, h, dh), k_split=k.reshape(b, s, h, dh),
                 v_split=v.reshape(b, s, h, dh), q_heads=qh, k_heads=kh, v_heads=vh,
                 attn_scores=scores, attn_scaled=scaled, context=context,
                 context_split=context_split, concat=merged, attn_weights=weights, out=out)
    if attn_mask is not None or key_padding_mask is not None:
        steps["attn_masked"] = logits              # (B, H, L, S), -inf where blocked
    return steps


def save_npy(path, t):
    arr = np.ascontiguousarray(t.detach().cpu().numpy().astype(np.float32))
    np.save(path, arr, allow_pickle=False)


def run_case(case):
    cfg = normalise_case(case)
    name = case["name"]
    torch.manual_seed(case["seed"])

    mha = build_module(cfg)
    b, l, s = cfg["batch"], cfg["seq_len"], cfg["kv_len"]
    query = torch.randn(b, l, cfg["hidden_dim"])
    if cfg["cross"]:
        key = torch.randn(b, s, cfg["kdim"])
        value = torch.randn(b, s, cfg["vdim"])
    else:
        key = value = query
    attn_mask, key_padding_mask = make_masks(cfg)

    # The module's own answer.  Autograd stays on (the parameters require
    # grad), which keeps torch on its plain reference implementation rather
    # than the fused inference kernel.
    out, weights = mha(query, key, value, key_padding_mask=key_padding_mask,
                       need_weights=True, attn_mask=attn_mask,
                       average_attn_weights=False)
    out, weights = out.detach(), weights.detach()

    with torch.no_grad():
        mine = by_hand(mha, cfg, query, key, value, attn_mask, key_padding_mask)

    d_out = (mine["out"] - out).abs().max().item()
    d_w = (mine["attn_weights"] - weights).abs().max().item()
    print(f"{name:16s} max|out diff| = {d_out:.3e}   max|weights diff| = {d_w:.3e}")
    if not (d_out < TOLERANCE and d_w < TOLERANCE):
        raise SystemExit(f"{name}: step-by-step path disagrees with nn.MultiheadAttention")
    assert torch.isfinite(out).all() and torch.isfinite(weights).all()

    # Write the case directory from scratch.
    folder = os.path.join(OUT_ROOT, name)
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)

    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")

    tensors = file_tensors(mha, cfg)
    st_path = os.path.join(folder, "weights.safetensors")
    write_safetensors(st_path, tensors, cfg["weight_dtype"], {
        "format": "pt",
        "source": "AttnViz tests/torch_reference/make_fixtures.py",
        "seed": str(case["seed"]),
    })
    # Reading the file back must give the float32 values the module used.
    loaded = read_safetensors(st_path)
    assert sorted(loaded) == sorted(n for n, _ in tensors)
    for n, t in tensors:
        assert np.array_equal(loaded[n], t.detach().numpy()), n

    save_npy(os.path.join(folder, "query.npy"), query)
    if cfg["cross"]:
        save_npy(os.path.join(folder, "key.npy"), key)
        save_npy(os.path.join(folder, "value.npy"), value)
    save_npy(os.path.join(folder, "out.npy"), out)
    save_npy(os.path.join(folder, "attn_weights.npy"), weights)
    for key_name, t in mine.items():
        if key_name not in ("out", "attn_weights"):  # those two come from the module itself
            save_npy(os.path.join(folder, key_name + ".npy"), t)
    # The inputs under the names of the steps that record them.
    save_npy(os.path.join(folder, "input.npy"), query)
    if cfg["cross"]:
        save_npy(os.path.join(folder, "key_input.npy"), key)
        save_npy(os.path.join(folder, "value_input.npy"), value)
    return d_out, d_w


def print_folder_size(folder, case_count):
    """One closing line: how many cases and bytes the script wrote under `folder`."""
    total = 0
    for root, _, files in os.walk(folder):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    print(f"{case_count} cases, {total} bytes in {folder}")


def main():
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, numpy {np.__version__}; writing {OUT_ROOT}")
    os.makedirs(OUT_ROOT, exist_ok=True)
    for case in CASES:
        run_case(case)
    print_folder_size(OUT_ROOT, len(CASES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
