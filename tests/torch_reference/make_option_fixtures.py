#!/usr/bin/python3
"""Build the PyTorch reference fixtures for the articles' options ("express every attention the
source articles teach") under tests/fixtures/torch_options/.

Re-run (Debian's Python, which has python3-torch 1.13; output is deterministic):

    OMP_NUM_THREADS=1 /usr/bin/python3 tests/torch_reference/make_option_fixtures.py

Each case gets its own folder (layout as tests/fixtures/torch/, see
tests/fixtures/torch_options/README.md):

  config.json          the full configuration under the option names, the
                       list of step files (record order, shape, dims), what torch
                       does with fully masked rows, and the checks that were run
  weights.safetensors  Hugging Face names (q_proj.weight ...) or, for the
                       nn.MultiheadAttention cases, PyTorch's own state_dict names
  query.npy            (key.npy, value.npy for cross-attention; mask.npy for a
                       --mask-file case)
  <step>.npy           one file per step AttnViz records, named as AttnViz names
                       the step (input, q, ..., attn_weights, context, concat, out)

The steps come from option_forward.step_by_step(); before anything is written
they are checked against an independent reference (nn.MultiheadAttention, a
transcription of Hugging Face's eager LlamaAttention, Meta's complex RoPE, or
the from-scratch articles' own modules).  A case whose check fails stops the
script.
"""

import json
import math
import os
import shutil
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
REPO = os.path.dirname(os.path.dirname(HERE))
OUT_ROOT = os.path.join(REPO, "tests", "fixtures", "torch_options")

import option_forward as fw                                           # noqa: E402
from make_fixtures import print_folder_size, read_safetensors, write_safetensors        # noqa: E402
from option_cases import CASES, DEFAULTS                              # noqa: E402

TOLERANCE = 1e-5


def full_config(case):
    """the articles' options with defaults filled in, keys in a fixed order."""
    cfg = dict(DEFAULTS)
    cfg.update({k: v for k, v in case.items() if k in DEFAULTS})
    if cfg["num_kv_heads"] == 0:
        cfg["num_kv_heads"] = cfg["num_heads"]
    for key in ("input_dim", "kdim", "vdim"):
        if cfg[key] == 0:
            cfg[key] = cfg["hidden_dim"] if key == "input_dim" else cfg["input_dim"]
    if cfg["kv_len"] == 0:
        cfg["kv_len"] = cfg["seq_len"]
    assert cfg["hidden_dim"] % cfg["num_heads"] == 0
    assert cfg["num_heads"] % cfg["num_kv_heads"] == 0
    # Legacy field of tests/fixtures/torch: false only when the file has no bias at all.
    cfg["bias"] = not (cfg["no_qkv_bias"] and cfg["no_out_bias"])
    return cfg


# --------------------------------------------------------------------------
# parameters and inputs
# --------------------------------------------------------------------------

def make_parameters(case, cfg):
    """(p, module, file_tensors): float32 parameters, the reference module if any,
    and the (name, tensor) list for weights.safetensors."""
    kind = case["kind"]
    E, H, H_kv = cfg["hidden_dim"], cfg["num_heads"], cfg["num_kv_heads"]
    dh = E // H
    if kind == "mha":
        mha = torch.nn.MultiheadAttention(
            E, H, bias=not cfg["no_qkv_bias"], add_bias_kv=cfg["add_bias_kv"],
            add_zero_attn=cfg["add_zero_attn"], kdim=cfg["kdim"], vdim=cfg["vdim"],
            batch_first=not cfg["seq_first"])
        mha.eval()
        with torch.no_grad():
            if mha.in_proj_bias is not None:
                mha.in_proj_bias.uniform_(-0.5, 0.5)
                mha.out_proj.bias.uniform_(-0.5, 0.5)
        if mha._qkv_same_embed_dim:
            wq, wk, wv = mha.in_proj_weight.detach().chunk(3)
        else:
            wq, wk, wv = (mha.q_proj_weight.detach(), mha.k_proj_weight.detach(),
                          mha.v_proj_weight.detach())
        p = dict(wq=wq, wk=wk, wv=wv, wo=mha.out_proj.weight.detach())
        if mha.in_proj_bias is not None:
            p["bq"], p["bk"], p["bv"] = mha.in_proj_bias.detach().chunk(3)
            p["bo"] = mha.out_proj.bias.detach()
        if cfg["add_bias_kv"]:
            p["bias_k"], p["bias_v"] = mha.bias_k.detach().flatten(), mha.bias_v.detach().flatten()
        sd = mha.state_dict()
        return p, mha, [(n, sd[n].detach()) for n in sorted(sd)]

    if kind == "scratch":
        torch.manual_seed(123)   # the articles' seed, for the module's init
        mod = fw.FromScratchMHA(cfg["input_dim"], E, cfg["seq_len"], H,
                                qkv_bias=not cfg["no_qkv_bias"], out_bias=not cfg["no_out_bias"])
        p = dict(wq=mod.W_query.weight, wk=mod.W_key.weight, wv=mod.W_value.weight, wo=mod.out_proj.weight)
        if not cfg["no_qkv_bias"]:
            p.update(bq=mod.W_query.bias, bk=mod.W_key.bias, bv=mod.W_value.bias)
        if not cfg["no_out_bias"]:
            p["bo"] = mod.out_proj.bias
    elif kind == "stacked":
        torch.manual_seed(123)
        heads = [fw.SingleHeadCausal(cfg["input_dim"], dh, cfg["seq_len"], qkv_bias=not cfg["no_qkv_bias"])
                 for _ in range(H)]
        mod = heads
        p = {n: torch.cat([getattr(h, a).weight for h in heads]) for n, a in
             (("wq", "W_query"), ("wk", "W_key"), ("wv", "W_value"))}
        if not cfg["no_qkv_bias"]:
            p.update({n: torch.cat([getattr(h, a).bias for h in heads]) for n, a in
                      (("bq", "W_query"), ("bk", "W_key"), ("bv", "W_value"))})
    else:   # "llama", "plain": seeded random weights, Llama's (out, in) layout
        mod = None
        d_in = cfg["input_dim"]

        def rand(*shape):
            return (torch.rand(*shape) * 2 - 1) / math.sqrt(shape[-1])

        p = dict(wq=rand(E, d_in), wk=rand(H_kv * dh, cfg["kdim"]), wv=rand(H_kv * dh, cfg["vdim"]))
        if not cfg["no_out_proj"]:
            p["wo"] = rand(E, E)
        if not cfg["no_qkv_bias"]:
            p.update(bq=rand(E) * 0.5, bk=rand(H_kv * dh) * 0.5, bv=rand(H_kv * dh) * 0.5)
        if not cfg["no_out_proj"] and not cfg["no_out_bias"]:
            p["bo"] = rand(E) * 0.5
    p = {k: v.detach().clone() for k, v in p.items()}
    if cfg["dtype"] != "float32":
        # What a reader of the file gets: the stored (rounded) values.
        r = fw.rounder(cfg["dtype"])
        p = {k: r(v) for k, v in p.items()}
    names = dict(wq="q_proj.weight", wk="k_proj.weight", wv="v_proj.weight", wo="o_proj.weight",
                 bq="q_proj.bias", bk="k_proj.bias", bv="v_proj.bias", bo="o_proj.bias")
    return p, mod, sorted((names[k], v) for k, v in p.items())


def preset_mask(cfg):
    """The --mask presets as one boolean (B, 1, L, S), True = masked out; None if none."""
    presets = [m for m in cfg["mask"].split(",") if m and m != "none"]
    if not presets:
        return None
    B, L, S = cfg["batch"], cfg["seq_len"], cfg["kv_len"]
    i = torch.arange(L).view(L, 1)
    j = torch.arange(S).view(1, S)
    out = torch.zeros(B, 1, L, S, dtype=torch.bool)
    lengths = torch.tensor(cfg["valid_lengths"] or [S] * B).view(B, 1, 1, 1)
    for name in presets:
        if name == "causal":
            out |= (j > i).view(1, 1, L, S)
        elif name == "padding":
            out |= j.view(1, 1, 1, S) >= lengths
        elif name == "left-padding":
            out |= j.view(1, 1, 1, S) < S - lengths
        elif name == "window":
            # The N most recent keys up to and including the query (Mistral's window).
            out |= ((j > i) | (j <= i - cfg["window"])).view(1, 1, L, S)
        else:
            raise ValueError(name)
    return out


def file_mask(case, cfg, gen):
    """(array for mask.npy, bool tensor or None, float tensor or None)."""
    spec = case.get("mask_data")
    if spec is None:
        return None, None, None
    B, H, L, S = cfg["batch"], cfg["num_heads"], cfg["seq_len"], cfg["kv_len"]
    shape = {"S": (S,), "L,S": (L, S), "B,1,1,S": (B, 1, 1, S), "B,1,L,S": (B, 1, L, S),
             "B,L,S": (B, L, S), "B,H,L,S": (B, H, L, S)}[spec["shape"]]
    if spec["kind"] == "bool":
        m = torch.rand(shape, generator=gen) < 0.35
        for index in spec.get("all_masked", []):   # rows (or items) with every key masked
            m[tuple(index)] = True
        for index in spec.get("none_masked", []):
            m[tuple(index)] = False
        return m.numpy(), m, None
    values = torch.rand(shape, generator=gen) * 3.0 - 2.0   # additive biases in [-2, 1)
    if spec.get("hf_min_causal"):
        # Hugging Face's 4-D mask: 0 where allowed, finfo(float32).min where not.
        blocked = preset_mask(dict(cfg, mask="causal,left-padding"))
        values = torch.zeros(shape).masked_fill(blocked, torch.finfo(torch.float32).min)
    return values.numpy().astype(np.float32), None, values


def view_as_4d(m, cfg):
    """PyTorch's broadcasting, except (B, L, S) which AttnViz reads as (B, 1, L, S)."""
    if m is not None and m.dim() == 3:
        return m.unsqueeze(1)
    return m


# --------------------------------------------------------------------------
# references
# --------------------------------------------------------------------------

def max_diff(a, b, rows=None):
    """Largest |a - b|; NaN positions must agree.  rows: bool (.., L) selection."""
    a, b = a.detach().float(), b.detach().float()
    assert a.shape == b.shape, (tuple(a.shape), tuple(b.shape))
    if rows is not None:
        a, b = a[rows], b[rows]
    nan_a, nan_b = torch.isnan(a), torch.isnan(b)
    assert torch.equal(nan_a, nan_b), "NaN in different places"
    if (~nan_a).sum() == 0:
        return 0.0
    return (a[~nan_a] - b[~nan_a]).abs().max().item()


def combined_bool_4d(cfg, bool_mask):
    """(B, H, L, S) of every boolean source; None when there are none."""
    B, H, L, S = cfg["batch"], cfg["num_heads"], cfg["seq_len"], cfg["kv_len"]
    out = None
    for m in (preset_mask(cfg), view_as_4d(bool_mask, cfg)):
        if m is not None:
            m = m.expand(B, H, L, S)
            out = m if out is None else (out | m)
    return out


def check_against_mha(cfg, mha, x, xk, xv, bool_all, float_mask, rec):
    """nn.MultiheadAttention, with the scale folded into W_q and every mask as one
    (B*H, L, S) additive mask with -inf: exactly what it computes for bool masks.
    Rows that the boolean masks leave without any key are compared separately."""
    B, H, L, S = cfg["batch"], cfg["num_heads"], cfg["seq_len"], cfg["kv_len"]
    dh = cfg["hidden_dim"] // H
    factor, _ = fw.scale_factor(cfg["scale"], dh, cfg["hidden_dim"])
    additive = torch.zeros(B, H, L, S)
    if float_mask is not None:
        additive = additive + view_as_4d(float_mask, cfg)
    if bool_all is not None:
        additive = additive.masked_fill(bool_all, float("-inf"))
    attn_mask = additive.reshape(B * H, L, S) if (bool_all is not None or float_mask is not None) else None
    ref = mha
    if factor != 1.0 / math.sqrt(dh):
        ref = type(mha).__new__(type(mha))
        ref.__dict__ = {k: v for k, v in mha.__dict__.items()}
        ref._parameters = dict(mha._parameters)
        stretch = factor * math.sqrt(dh)
        E = cfg["hidden_dim"]
        if mha._qkv_same_embed_dim:
            w = mha.in_proj_weight.detach().clone()
            w[:E] *= stretch
            ref._parameters["in_proj_weight"] = torch.nn.Parameter(w)
        else:
            ref._parameters["q_proj_weight"] = torch.nn.Parameter(mha.q_proj_weight.detach() * stretch)
        if mha.in_proj_bias is not None:
            b = mha.in_proj_bias.detach().clone()
            b[:E] *= stretch
            ref._parameters["in_proj_bias"] = torch.nn.Parameter(b)
    args = (x, xk, xv)
    if cfg["seq_first"]:
        args = tuple(t.transpose(0, 1) for t in args)
    out, w = ref(*args, attn_mask=attn_mask, need_weights=True, average_attn_weights=False)
    _, w_avg = ref(*args, attn_mask=attn_mask, need_weights=True, average_attn_weights=True)
    if cfg["seq_first"]:
        out = out.transpose(0, 1)
    out, w, w_avg = out.detach(), w.detach(), w_avg.detach()

    keep = None
    if bool_all is not None and cfg["mask_fill"] != "-inf" and float_mask is None:
        # Rows with no key left: the finite fill gives uniform weights, torch's -inf NaN.
        empty = bool_all.all(-1)                                      # (B, H, L)
        if cfg["add_zero_attn"] or cfg["add_bias_kv"]:
            empty = torch.zeros_like(empty)
        keep = ~empty
        got = rec.get("attn_weights")[empty]
        if got.numel():
            uniform = torch.full_like(got, 1.0 / got.shape[-1])
            assert max_diff(got, uniform) < 1e-7, "fully masked row not uniform"
            assert w[empty].isnan().all(), "torch's -inf path should give NaN there"
    checks = {"attn_weights": max_diff(rec.get("attn_weights"), w, keep)}
    out_rows = None if keep is None else keep.all(1)                  # (B, L)
    if "out" in [n for n, _, _ in rec.steps]:
        checks["out"] = max_diff(rec.get("out"), out, out_rows)
    if cfg["average_weights"]:
        checks["attn_weights_avg"] = max_diff(rec.get("attn_weights_avg"), w_avg, out_rows)
    return checks, out


def check_case(case, cfg, p, mod, x, xk, xv, bool_mask, float_mask, rec):
    """Run the case's independent reference; returns {step: max |diff|}."""
    kind = case["kind"]
    bool_all = combined_bool_4d(cfg, bool_mask)
    extra = {}
    if kind == "mha":
        checks, out = check_against_mha(cfg, mod, x, xk, xv, bool_all, float_mask, rec)
        if cfg["seq_first"]:
            extra["out_seq_first"] = out.transpose(0, 1).contiguous()
        return checks, extra
    if kind == "scratch":
        out, w = mod(x)
        return {"out": max_diff(rec.get("out"), out), "attn_weights": max_diff(rec.get("attn_weights"), w)}, extra
    if kind == "stacked":
        concat = torch.cat([h(x) for h in mod], dim=-1)
        return {"concat": max_diff(rec.get("concat"), concat)}, extra
    if kind == "llama" and cfg["rope_style"] == "half" and cfg["dtype"] in ("float32", "bfloat16"):
        low = fw.DTYPES[cfg["dtype"]]
        positions = torch.arange(cfg["position_offset"], cfg["position_offset"] + cfg["seq_len"])
        positions = positions.view(1, -1).expand(cfg["batch"], -1)
        mask4d = None
        if bool_all is not None:
            mask4d = torch.zeros(bool_all.shape, dtype=low).masked_fill(bool_all, torch.finfo(low).min)
        ref = fw.hf_llama_eager(x.to(low), p, cfg["num_heads"], cfg["num_kv_heads"], positions, mask4d,
                                cfg["rope_base"], low, cfg["rope"])
        compared = ["attn_weights", "out"] + (["rope_cos", "rope_sin", "q_rot", "k_rot"] if cfg["rope"] else [])
        if cfg["num_kv_heads"] != cfg["num_heads"]:
            compared += ["k_repeated", "v_repeated"]
        checks = {n: max_diff(rec.get(n), ref[n]) for n in compared}
        return checks, extra
    if kind == "llama" and cfg["rope_style"] == "interleaved":
        q_rot, k_rot = fw.meta_rope_interleaved(rec.get("q_heads"), rec.get("k_heads"), cfg["rope_base"],
                                                cfg["position_offset"])
        checks = {"q_rot": max_diff(rec.get("q_rot"), q_rot), "k_rot": max_diff(rec.get("k_rot"), k_rot)}
        # The rest of the forward from Meta's rotated heads, written plainly.
        n_rep = cfg["num_heads"] // cfg["num_kv_heads"]
        k_full = k_rot.repeat_interleave(n_rep, 1)
        v_full = rec.get("v_heads").repeat_interleave(n_rep, 1)
        scores = q_rot @ k_full.transpose(-1, -2) / math.sqrt(q_rot.shape[-1])
        if bool_all is not None:
            scores = scores.masked_fill(bool_all, fw.fill_value(cfg["mask_fill"], "float32"))
        w = scores.softmax(-1)
        out = torch.nn.functional.linear((w @ v_full).transpose(1, 2).flatten(2), p["wo"], p.get("bo"))
        checks.update(attn_weights=max_diff(rec.get("attn_weights"), w), out=max_diff(rec.get("out"), out))
        return checks, extra
    return {}, extra


# --------------------------------------------------------------------------
# one case
# --------------------------------------------------------------------------

def save_npy(path, t):
    if isinstance(t, np.ndarray):
        arr = t
    else:
        arr = t.detach().to(torch.float32).contiguous().numpy().astype(np.float32)
    np.save(path, np.ascontiguousarray(arr), allow_pickle=False)


def fully_masked_rows(rec):
    """[[b, h, i], ...] where no key is left (weights NaN or uniform by fill)."""
    masked = None
    for name, t, _ in rec.steps:
        if name == "attn_masked":
            masked = t
    if masked is None:
        return []
    # A row is empty when every entry was replaced by the fill (or is -inf).
    w = rec.get("attn_weights")
    rows = []
    for b, h, i in torch.nonzero(torch.ones(w.shape[:3], dtype=torch.bool)).tolist():
        row = masked[b, h, i].float()
        if torch.isinf(row).all() or (row <= -1e19).all():
            rows.append([b, h, i])
    return rows


def fully_masked_result(rec, rows):
    """What torch's weights are on the rows with no key left: "nan" or "uniform"."""
    if not rows:
        return None
    w = rec.get("attn_weights").float()
    picked = torch.stack([w[b, h, i] for b, h, i in rows])
    if picked.isnan().all():
        return "nan"
    assert max_diff(picked, torch.full_like(picked, 1.0 / picked.shape[-1])) < 1e-6, picked
    return "uniform"


MANTISSA_BITS = {"bfloat16": 7, "float16": 10, "float32": 23}


def ulps(a, b, dtype_name):
    """Largest |a - b| in units in the last place of `dtype_name` at max(|a|, |b|);
    cells equal in both (including +-inf) count 0."""
    a, b = a.detach().float().flatten(), b.detach().float().flatten()
    differ = (a != b) & ~(a.isnan() & b.isnan())
    if not differ.any():
        return 0.0
    mag = torch.maximum(a[differ].abs(), b[differ].abs())
    _, exponent = torch.frexp(mag)                    # mag = m * 2**exponent, m in [0.5, 1)
    ulp = torch.pow(2.0, (exponent - 1 - MANTISSA_BITS[dtype_name]).float())
    return ((a[differ] - b[differ]).abs() / ulp).max().item()


def measure_kernel_tolerances():
    """How far torch's own bfloat16 CPU kernels are from float32 math rounded to
    bfloat16 (the emulation), per op, at a few inner sizes.  Deterministic."""
    gen = torch.Generator().manual_seed(4242)
    r = fw.rounder("bfloat16")
    bf = torch.bfloat16
    out = {}
    for inner in (4, 16, 64, 256, 1024):
        a = r(torch.randn(64, inner, generator=gen))
        w = r(torch.randn(48, inner, generator=gen) / math.sqrt(inner))
        bias = r(torch.randn(48, generator=gen))
        qa = r(torch.randn(2, 4, 32, inner, generator=gen))
        ka = r(torch.randn(2, 4, 32, inner, generator=gen) / math.sqrt(inner))
        scores = r(torch.randn(2, 4, 32, inner, generator=gen) * 3)
        results = {
            "linear (addmm)": (torch.nn.functional.linear(a.to(bf), w.to(bf), bias.to(bf)),
                               r(torch.nn.functional.linear(a, w, bias))),
            "matmul 4-D (bmm)": (qa.to(bf) @ ka.to(bf).transpose(-1, -2), r(qa @ ka.transpose(-1, -2))),
            "softmax (bf16 kernel)": (torch.softmax(scores.to(bf), -1), r(torch.softmax(scores, -1))),
            "softmax (float32, cast back)": (torch.softmax(scores.to(bf), -1, dtype=torch.float32).to(bf),
                                             r(torch.softmax(scores, -1))),
        }
        # Attention-sized batched products (B, H, L, d_h) @ (B, H, d_h, S), as the fixtures have them.
        qs = r(torch.randn(2, 4, 6, inner, generator=gen))
        ks = r(torch.randn(2, 4, 6, inner, generator=gen) / math.sqrt(inner))
        native_small = qs.to(bf) @ ks.to(bf).transpose(-1, -2)
        running = torch.zeros(2, 4, 6, 6, dtype=bf)
        for d in range(inner):   # every product and every partial sum rounded to bfloat16
            running = running + qs[..., d:d + 1].to(bf) * ks[..., d].to(bf).unsqueeze(-2)
        results["matmul (2,4,6,d)x(2,4,d,6) vs float32 rounded"] = (native_small, r(qs @ ks.transpose(-1, -2)))
        results["matmul (2,4,6,d)x(2,4,d,6) vs bf16 running sum"] = (native_small, running)
        for op, (native, emulated) in results.items():
            out.setdefault(op, {})[str(inner)] = {
                "max_abs": float(f"{max_diff(native, emulated):.3e}"),
                "max_ulps": float(f"{ulps(native, emulated, 'bfloat16'):.3g}")}
    return out


# The steps the core records in the other variants (the split list minus what the variant
# never forms); the fused variant adds `qkv` after the input.
STACKED_DROPS = {"q", "k", "v", "q_split", "k_split", "v_split", "context_split"}


def as_variant(cfg, p, x, rec):
    """The split recording turned into what --variant stacked / fused records, each new or
    kept step checked against torch computed the variant's own way: the stacked wrapper's
    H single-head projections, and the fused (3E, d_in) projection sliced into q, k, v.
    Returns (steps, checks)."""
    variant = cfg["variant"]
    if variant == "split":
        return rec.steps, {}
    F = torch.nn.functional
    E, H = cfg["hidden_dim"], cfg["num_heads"]
    dh = E // H
    B, L, _ = x.shape
    checks = {}
    if variant == "stacked":
        # Head h is its own module: (B, L, d_h) from rows h*d_h .. of each weight.
        for name, w, b in (("q_heads", p["wq"], p.get("bq")), ("k_heads", p["wk"], p.get("bk")),
                           ("v_heads", p["wv"], p.get("bv"))):
            heads = torch.stack([F.linear(x, w[h * dh:(h + 1) * dh], None if b is None else b[h * dh:(h + 1) * dh])
                                 for h in range(H)], dim=1)
            checks[f"stacked_{name}"] = max_diff(heads, rec.get(name))
        context = rec.get("context")
        checks["stacked_concat"] = max_diff(torch.cat([context[:, h] for h in range(H)], dim=-1), rec.get("concat"))
        return [s for s in rec.steps if s[0] not in STACKED_DROPS], checks
    assert variant == "fused" and not cfg["cross"], "fused is self-attention only"
    w_qkv = torch.cat([p["wq"], p["wk"], p["wv"]])
    b_qkv = None if p.get("bq") is None else torch.cat([p["bq"], p["bk"], p["bv"]])
    qkv = F.linear(x, w_qkv, b_qkv)  # (B, L, 3E): one product for all three
    for k, name in enumerate(("q", "k", "v")):
        checks[f"fused_{name}"] = max_diff(qkv[..., k * E:(k + 1) * E], rec.get(name))
    steps = []
    for step in rec.steps:
        steps.append(step)
        if step[0] == "input":
            steps.append(("qkv", qkv, ["B", "L", "3E"]))
    return steps, checks


def run_case(case):
    cfg = full_config(case)
    name = case["name"]
    torch.manual_seed(case["seed"])
    gen = torch.Generator().manual_seed(case["seed"] + 1000)
    p, mod, tensors = make_parameters(case, cfg)
    B, L, S = cfg["batch"], cfg["seq_len"], cfg["kv_len"]
    x = torch.randn(B, L, cfg["input_dim"], generator=gen)
    xk, xv = x, x
    if cfg["cross"]:
        xk = torch.randn(B, S, cfg["kdim"], generator=gen)
        xv = torch.randn(B, S, cfg["vdim"], generator=gen)
    if cfg["dtype"] != "float32":
        r = fw.rounder(cfg["dtype"])
        x, xk, xv = r(x), r(xk), r(xv)
    mask_array, bool_file, float_file = file_mask(case, cfg, gen)

    presets = preset_mask(cfg)
    bool_mask = view_as_4d(bool_file, cfg)
    if presets is not None:
        bool_mask = presets if bool_mask is None else (bool_mask | presets)
    float_mask = view_as_4d(float_file, cfg)

    with torch.no_grad():
        emulate = cfg["dtype"] != "float32"
        rec = fw.step_by_step(cfg, p, x, xk, xv, bool_mask, float_mask, "emulate" if emulate else "float32")
        dtype_report, dtype_checks = None, {}
        if emulate:
            rec, dtype_checks, dtype_report = dtype_comparison(cfg, p, x, xk, xv, bool_mask, float_mask, rec)
        checks, extra = check_case(case, cfg, p, mod, x, xk, xv, bool_file, float_file, rec)
        checks.update(dtype_checks)
        variant_steps, variant_checks = as_variant(cfg, p, x, rec)
        checks.update(variant_checks)
        if case.get("relative_check"):
            extra.update(relative_position_check(case, cfg, p, x, xk, xv, bool_mask, float_mask, rec))

    limit = case.get("tolerance", TOLERANCE)
    worst = max(checks.values()) if checks else 0.0
    print(f"{name:34s} reference: {case['kind']:8s} worst |diff| {worst:.2e}  {sorted(checks)}")
    if not worst <= limit:
        raise SystemExit(f"{name}: disagrees with its reference: {checks}")
    if case.get("needs_check", True) and not checks:
        raise SystemExit(f"{name}: no reference check ran")

    folder = os.path.join(OUT_ROOT, name)
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    files = {"weights": "weights.safetensors", "query": "query.npy"}
    query_file = x.transpose(0, 1) if cfg["seq_first"] else x
    save_npy(os.path.join(folder, "query.npy"), query_file)
    if cfg["cross"]:
        files.update(key="key.npy", value="value.npy")
        save_npy(os.path.join(folder, "key.npy"), xk.transpose(0, 1) if cfg["seq_first"] else xk)
        save_npy(os.path.join(folder, "value.npy"), xv.transpose(0, 1) if cfg["seq_first"] else xv)
    if mask_array is not None:
        cfg["mask_file"] = "mask.npy"
        np.save(os.path.join(folder, "mask.npy"), mask_array, allow_pickle=False)
    store = "F32" if cfg["dtype"] == "float32" else {"bfloat16": "BF16", "float16": "F16"}[cfg["dtype"]]
    write_safetensors(os.path.join(folder, "weights.safetensors"), tensors, store,
                      {"format": "pt", "source": "AttnViz tests/torch_reference/make_option_fixtures.py",
                       "seed": str(case["seed"])})
    loaded = read_safetensors(os.path.join(folder, "weights.safetensors"))
    for n, t in tensors:
        assert np.array_equal(loaded[n], t.detach().float().numpy()), n
    cfg["weight_names"] = "torch" if case["kind"] == "mha" else "hf"
    cfg["weight_dtype"] = store

    steps = []
    for step_name, t, dims in variant_steps:
        save_npy(os.path.join(folder, step_name + ".npy"), t)
        steps.append({"name": step_name, "file": step_name + ".npy", "shape": list(t.shape), "dims": dims})
    extra_files = []
    for extra_name, t in sorted(extra.items()):
        if isinstance(t, (torch.Tensor, np.ndarray)):
            save_npy(os.path.join(folder, extra_name + ".npy"), t)
            extra_files.append({"file": extra_name + ".npy", "shape": list(t.shape)})
    rows = fully_masked_rows(rec)
    doc = dict(case=name, description=case["description"], config=cfg, files=files, steps=steps,
               extra_files=extra_files,
               fully_masked_rows=rows,
               torch_fully_masked_result=fully_masked_result(rec, rows),
               reference=case["kind"], reference_max_abs_diff={k: float(f"{v:.3e}") for k, v in checks.items()},
               tolerance=limit)
    if dtype_report:
        doc["dtype_report"] = dtype_report
    if "relative_position_check" in extra:
        doc["relative_position_check"] = extra["relative_position_check"]
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return doc


def dtype_comparison(cfg, p, x, xk, xv, bool_mask, float_mask, emulated):
    """bfloat16: torch's own bf16 kernels are what the files hold; the float32
    math rounded after each op (the emulation AttnViz implements) is compared with
    them step by step.  float16: torch 1.13 has no CPU half matmul, so the files
    hold the emulation and its distance from float32 is reported instead."""
    fp32 = fw.step_by_step(dict(cfg, dtype="float32"), p, x, xk, xv, bool_mask, float_mask, "float32")
    report = {"steps": {}}
    if cfg["dtype"] == "bfloat16":
        native = fw.step_by_step(cfg, p, x, xk, xv, bool_mask, float_mask, "native")
        for (n, t_nat, _), (_, t_emu, _), (_, t32, _) in zip(native.steps, emulated.steps, fp32.steps):
            report["steps"][n] = {"native_vs_emulated": float(f"{max_diff(t_nat, t_emu):.3e}"),
                                  "native_vs_emulated_ulps": float(f"{ulps(t_nat, t_emu, cfg['dtype']):.3g}"),
                                  "native_vs_float32": float(f"{max_diff(t_nat, t32):.3e}")}
        report["files_hold"] = "torch's native bfloat16 kernels (CPU), widened to float32"
        return native, {}, report
    for (n, t_emu, _), (_, t32, _) in zip(emulated.steps, fp32.steps):
        report["steps"][n] = {"emulated_vs_float32": float(f"{max_diff(t_emu, t32):.3e}")}
    report["files_hold"] = ("float32 math rounded to float16 after every op (torch 1.13 has no CPU "
                            "float16 matmul/softmax kernels)")
    return emulated, {}, report


def relative_position_check(case, cfg, p, x, xk, xv, bool_mask, float_mask, rec):
    """Scores at two position offsets: q.k under RoPE depends only on i - j."""
    other = case["relative_check"]
    shifted = fw.step_by_step(dict(cfg, position_offset=other), p, x, xk, xv, bool_mask, float_mask)
    a, b = rec.get("attn_scores"), shifted.get("attn_scores")
    diff = max_diff(a, b)
    changed = max_diff(rec.get("q_rot"), shifted.get("q_rot"))
    assert diff < 1e-4 and changed > 1e-2, (diff, changed)
    return {f"relpos_scores_offset{other}": b,
            "relative_position_check": {
                "offsets": [cfg["position_offset"], other],
                "files": ["attn_scores.npy", f"relpos_scores_offset{other}.npy"],
                "max_abs_diff_scores": float(f"{diff:.3e}"),
                "max_abs_diff_q_rot": float(f"{changed:.3e}")}}


def main():
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, numpy {np.__version__}; writing {OUT_ROOT}")
    os.makedirs(OUT_ROOT, exist_ok=True)
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    for entry in os.listdir(OUT_ROOT):
        if os.path.isdir(os.path.join(OUT_ROOT, entry)) and entry not in names:
            shutil.rmtree(os.path.join(OUT_ROOT, entry))
    docs = [run_case(case) for case in CASES]
    with open(os.path.join(OUT_ROOT, "cases.json"), "w") as f:
        json.dump([{"case": d["case"], "description": d["description"]} for d in docs], f, indent=1)
        f.write("\n")
    with open(os.path.join(OUT_ROOT, "kernel_tolerances.json"), "w") as f:
        json.dump({"torch": torch.__version__.split("a")[0], "threads": 1,
                   "what": "torch's bfloat16 CPU kernel vs float32 math rounded to bfloat16, same rounded inputs; "
                           "inner = the reduced dimension (softmax: row length)",
                   "ops": measure_kernel_tolerances()}, f, indent=1)
        f.write("\n")
    print_folder_size(OUT_ROOT, len(CASES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
