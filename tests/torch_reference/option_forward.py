"""The attention forward with the articles' options, one AttnViz step at a time, plus the
independent PyTorch references it is checked against.

Used by make_option_fixtures.py (read that file's docstring first).  Two kinds
of code live here:

  * step_by_step(): the trace AttnViz is meant to record, step by step, named
    as AttnViz names its steps.  It is the thing under test on the C++ side,
    so it is never trusted on its own: every case also runs
  * an independent reference: torch.nn.MultiheadAttention itself, a
    transcription of Hugging Face's eager LlamaAttention (rotate_half,
    repeat_kv), Meta's complex-number RoPE (interleaved pairs), or the
    from-scratch articles' own modules (d_in -> d_out, mask before scale).

Shapes: B batch, L query length, S key length (plus 1 for add_bias_kv and 1
for add_zero_attn), d_in the query input width, E = hidden_dim = H * d_h,
H query heads, H_kv key/value heads (GQA), d_h head width.
"""

import math

import torch

# --------------------------------------------------------------------------
# dtype handling
# --------------------------------------------------------------------------

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def rounder(dtype_name):
    """Round a float32 tensor to `dtype_name` and widen it back (emulation)."""
    if dtype_name == "float32":
        return lambda t: t
    low = DTYPES[dtype_name]
    return lambda t: t.to(low).to(torch.float32)


def fill_value(mask_fill, dtype_name):
    """The number a boolean mask writes into the scores.

    "min" is torch.finfo(<compute dtype>).min, as Hugging Face builds it."""
    if mask_fill == "-inf":
        return float("-inf")
    if mask_fill == "min":
        return torch.finfo(DTYPES[dtype_name]).min
    return float(mask_fill)


def scale_factor(scale, head_dim, hidden_dim):
    """(factor, how): scores are divided by sqrt(n) for head/hidden, multiplied otherwise."""
    if scale == "head":
        return 1.0 / math.sqrt(head_dim), ("div", math.sqrt(head_dim))
    if scale == "hidden":
        return 1.0 / math.sqrt(hidden_dim), ("div", math.sqrt(hidden_dim))
    if scale == "none":
        return 1.0, ("mul", 1.0)
    return float(scale), ("mul", float(scale))


# --------------------------------------------------------------------------
# rotary position embedding
# --------------------------------------------------------------------------

def rope_tables(seq_len, head_dim, base, offset, style):
    """cos, sin: (L, d_h) float32 for positions offset .. offset + L - 1.

    half:        column c uses frequency index c mod d_h/2 (Hugging Face's
                 cat(freqs, freqs));
    interleaved: column c uses frequency index c // 2 (adjacent pairs)."""
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
    positions = torch.arange(offset, offset + seq_len, dtype=torch.int64).float()
    angles = positions[:, None] * inv_freq[None, :]          # (L, d_h/2)
    if style == "half":
        full = torch.cat((angles, angles), dim=-1)
    else:
        full = torch.repeat_interleave(angles, 2, dim=-1)
    return full.cos(), full.sin()


def rotate_pairs(x, style):
    """The partner of each coordinate with the sign of a +90 degree turn."""
    if style == "half":
        first, second = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-second, first), dim=-1)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((-odd, even), dim=-1).flatten(-2)


# --------------------------------------------------------------------------
# the trace, step by step
# --------------------------------------------------------------------------

class StepRecorder:
    """Ordered (name, tensor, dims) triples, as AttnViz's manifest lists them."""

    def __init__(self):
        self.steps = []

    def add(self, name, tensor, dims):
        assert tensor.dim() == len(dims), (name, tuple(tensor.shape), dims)
        self.steps.append((name, tensor, dims))
        return tensor

    def get(self, name):
        for n, t, _ in self.steps:
            if n == name:
                return t
        raise KeyError(name)


def step_by_step(cfg, p, x, xk, xv, bool_mask, float_mask, mode="float32"):
    """Run the forward and record every step.

    cfg        the case's config dict (option names)
    p          parameters, float32: wq (E, d_in), wk/wv (H_kv*d_h, kdim/vdim),
               bq/bk/bv, wo (E, E), bo, bias_k/bias_v (H_kv*d_h); None when absent
    x          (B, L, d_in); xk (B, S, kdim); xv (B, S, vdim)
    bool_mask  broadcastable to (B, H, L, S), True = masked out, or None
    float_mask broadcastable to (B, H, L, S), added to the scores, or None
    mode       "float32"; "emulate" (float32 math rounded to cfg["dtype"] after
               every op); "native" (torch's own kernels in cfg["dtype"])
    """
    dtype_name = cfg["dtype"]
    native = mode == "native"
    r = rounder(dtype_name) if mode == "emulate" else (lambda t: t)
    low = DTYPES[dtype_name] if native else torch.float32
    cast = (lambda t: None if t is None else t.to(low))
    if mode == "emulate":
        cast = (lambda t: None if t is None else r(t))

    B, L, _ = x.shape
    S = xk.shape[1]
    H, H_kv = cfg["num_heads"], cfg["num_kv_heads"]
    E = cfg["hidden_dim"]
    dh = E // H
    rec = StepRecorder()

    x, xk, xv = cast(x), cast(xk), cast(xv)
    wq, wk, wv, wo = cast(p["wq"]), cast(p["wk"]), cast(p["wv"]), cast(p.get("wo"))
    bq, bk, bv, bo = cast(p.get("bq")), cast(p.get("bk")), cast(p.get("bv")), cast(p.get("bo"))

    rec.add("input", x, ["B", "L", "d_in"])
    if cfg["cross"]:
        rec.add("key_input", xk, ["B", "S", "kdim"])
        rec.add("value_input", xv, ["B", "S", "vdim"])

    def linear(t, w, b):
        return r(torch.nn.functional.linear(t, w, b))

    q = rec.add("q", linear(x, wq, bq), ["B", "L", "E"])
    k = linear(xk, wk, bk)
    v = linear(xv, wv, bv)
    if cfg["add_bias_kv"]:
        # nn.MultiheadAttention appends the learned row after the projection.
        k = torch.cat((k, cast(p["bias_k"]).view(1, 1, -1).expand(B, 1, -1)), dim=1)
        v = torch.cat((v, cast(p["bias_v"]).view(1, 1, -1).expand(B, 1, -1)), dim=1)
    kv_dims = ["B", "S", "E"] if H_kv == H else ["B", "S", "H_kv*d_h"]
    rec.add("k", k, kv_dims)
    rec.add("v", v, kv_dims)
    S_k = k.shape[1]

    q_split = rec.add("q_split", q.view(B, L, H, dh), ["B", "L", "H", "d_h"])
    kh_name = "H" if H_kv == H else "H_kv"
    k_split = rec.add("k_split", k.view(B, S_k, H_kv, dh), ["B", "S", kh_name, "d_h"])
    v_split = rec.add("v_split", v.view(B, S_k, H_kv, dh), ["B", "S", kh_name, "d_h"])
    q_heads = rec.add("q_heads", q_split.transpose(1, 2), ["B", "H", "L", "d_h"])
    k_heads = k_split.transpose(1, 2)
    v_heads = v_split.transpose(1, 2)
    if cfg["add_zero_attn"]:
        # ... and the zero row after the split into heads.
        k_heads = torch.cat((k_heads, torch.zeros_like(k_heads[:, :, :1])), dim=2)
        v_heads = torch.cat((v_heads, torch.zeros_like(v_heads[:, :, :1])), dim=2)
    rec.add("k_heads", k_heads, ["B", kh_name, "S", "d_h"])
    rec.add("v_heads", v_heads, ["B", kh_name, "S", "d_h"])
    S_all = k_heads.shape[2]

    if cfg["rope"]:
        cos32, sin32 = rope_tables(L, dh, cfg["rope_base"], cfg["position_offset"], cfg["rope_style"])
        cos, sin = cast(cos32), cast(sin32)
        rec.add("rope_cos", cos, ["L", "d_h"])
        rec.add("rope_sin", sin, ["L", "d_h"])
        style = cfg["rope_style"]

        def rotate(t):
            return r(r(t * cos) + r(rotate_pairs(t, style) * sin))

        q_heads = rec.add("q_rot", rotate(q_heads), ["B", "H", "L", "d_h"])
        k_heads = rec.add("k_rot", rotate(k_heads), ["B", kh_name, "S", "d_h"])

    if H_kv != H:
        # repeat_kv: key head g serves query heads g*n_rep .. g*n_rep + n_rep - 1.
        n_rep = H // H_kv
        k_heads = rec.add("k_repeated", k_heads.repeat_interleave(n_rep, dim=1), ["B", "H", "S", "d_h"])
        v_heads = rec.add("v_repeated", v_heads.repeat_interleave(n_rep, dim=1), ["B", "H", "S", "d_h"])

    scores = rec.add("attn_scores", r(q_heads @ k_heads.transpose(-1, -2)), ["B", "H", "L", "S"])

    # Masks widened by the extra key columns: torch never masks those.
    extra = S_all - S

    def widen(m, pad_value):
        if m is None or extra == 0:
            return m
        m = m.expand(*m.shape[:-1], S) if m.dim() >= 1 else m
        pad = torch.full((*m.shape[:-1], extra), pad_value, dtype=m.dtype)
        return torch.cat((m, pad), dim=-1)

    bool_mask = widen(bool_mask, False)
    float_mask = widen(float_mask, 0.0)
    has_mask = bool_mask is not None or float_mask is not None
    fill = fill_value(cfg["mask_fill"], dtype_name)

    def apply_mask(t):
        if float_mask is not None:
            t = r(t + cast(float_mask))
        if bool_mask is not None:
            t = t.masked_fill(bool_mask, fill)
        return t

    _, (how, amount) = scale_factor(cfg["scale"], dh, cfg["hidden_dim"])

    def apply_scale(t):
        return r(t / amount) if how == "div" else r(t * amount)

    dims4 = ["B", "H", "L", "S"]
    if has_mask and cfg["mask_before_scale"]:
        masked = rec.add("attn_masked", apply_mask(scores), dims4)
        logits = rec.add("attn_scaled", apply_scale(masked), dims4)
    else:
        logits = rec.add("attn_scaled", apply_scale(scores), dims4)
        if has_mask:
            logits = rec.add("attn_masked", apply_mask(logits), dims4)

    # Softmax in float32, cast back to the compute dtype (Llama's order).
    weights = torch.softmax(logits.to(torch.float32), dim=-1)
    weights = r(weights).to(low) if not native else weights.to(low)
    rec.add("attn_weights", weights, dims4)
    if cfg["average_weights"]:
        rec.add("attn_weights_avg", r(weights.mean(dim=1)), ["B", "L", "S"])

    context = rec.add("context", r(weights @ v_heads), ["B", "H", "L", "d_h"])
    context_split = rec.add("context_split", context.transpose(1, 2), ["B", "L", "H", "d_h"])
    concat = rec.add("concat", context_split.reshape(B, L, E), ["B", "L", "E"])
    if not cfg["no_out_proj"]:
        rec.add("out", linear(concat, wo, bo), ["B", "L", "E"])
    return rec


# --------------------------------------------------------------------------
# independent references
# --------------------------------------------------------------------------

def hf_llama_eager(hidden, p, num_heads, num_kv_heads, position_ids, mask4d, rope_base, dtype, use_rope=True):
    """A transcription of Hugging Face's eager LlamaAttention forward.

    hidden (B, L, E) already in `dtype`; p holds q/k/v/o weights (no biases,
    as Llama); mask4d (B, 1, L, S) additive in `dtype` or None."""
    bsz, q_len, _ = hidden.shape
    head_dim = p["wq"].shape[0] // num_heads
    lin = torch.nn.functional.linear
    query_states = lin(hidden, p["wq"].to(dtype)).view(bsz, q_len, num_heads, head_dim).transpose(1, 2)
    key_states = lin(hidden, p["wk"].to(dtype)).view(bsz, q_len, num_kv_heads, head_dim).transpose(1, 2)
    value_states = lin(hidden, p["wv"].to(dtype)).view(bsz, q_len, num_kv_heads, head_dim).transpose(1, 2)

    # LlamaRotaryEmbedding: float32 tables, cast to the activations' dtype.
    inv_freq = 1.0 / (rope_base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
    freqs = (inv_freq[None, :, None] @ position_ids[:, None, :].float()).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos().to(dtype), emb.sin().to(dtype)

    def rotate_half(t):
        t1, t2 = t[..., : t.shape[-1] // 2], t[..., t.shape[-1] // 2:]
        return torch.cat((-t2, t1), dim=-1)

    if use_rope:   # (AttnViz's GQA-without-RoPE cases skip this block)
        cos_u, sin_u = cos.unsqueeze(1), sin.unsqueeze(1)
        query_states = (query_states * cos_u) + (rotate_half(query_states) * sin_u)
        key_states = (key_states * cos_u) + (rotate_half(key_states) * sin_u)

    def repeat_kv(t, n_rep):
        b, n_kv, slen, hd = t.shape
        if n_rep == 1:
            return t
        t = t[:, :, None, :, :].expand(b, n_kv, n_rep, slen, hd)
        return t.reshape(b, n_kv * n_rep, slen, hd)

    n_rep = num_heads // num_kv_heads
    k_rot = key_states
    key_states = repeat_kv(key_states, n_rep)
    value_states = repeat_kv(value_states, n_rep)
    attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(head_dim)
    if mask4d is not None:
        attn_weights = attn_weights + mask4d
    attn_weights = torch.nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(dtype)
    attn_output = torch.matmul(attn_weights, value_states)
    attn_output = attn_output.transpose(1, 2).contiguous().reshape(bsz, q_len, -1)
    out = lin(attn_output, p["wo"].to(dtype))
    return dict(q_rot=query_states, k_rot=k_rot, k_repeated=key_states, v_repeated=value_states,
                attn_weights=attn_weights, out=out, rope_cos=cos[0], rope_sin=sin[0])


def meta_rope_interleaved(q_heads, k_heads, base, offset):
    """Meta's original llama apply_rotary_emb: adjacent pairs as complex numbers.

    q_heads (B, H, L, d_h) -> rotated, same shape."""
    dh, L = q_heads.shape[-1], q_heads.shape[-2]
    freqs = 1.0 / (base ** (torch.arange(0, dh, 2)[: dh // 2].float() / dh))
    t = torch.arange(offset, offset + L).float()
    freqs_cis = torch.polar(torch.ones(L, dh // 2), torch.outer(t, freqs))   # (L, d_h/2)

    def apply(x):
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(xc * freqs_cis).flatten(-2)

    return apply(q_heads), apply(k_heads)


class FromScratchMHA(torch.nn.Module):
    """The LLM-from-scratch articles' efficient module, rewritten: d_in -> d_out,
    optional qkv bias, causal mask filled with -inf on the raw scores, then the
    softmax of scores / sqrt(d_h), then an output projection."""

    def __init__(self, d_in, d_out, context_length, num_heads, qkv_bias, out_bias=True):
        super().__init__()
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.W_query = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = torch.nn.Linear(d_out, d_out, bias=out_bias)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, n, _ = x.shape
        split = (lambda t: t.view(b, n, self.num_heads, self.head_dim).transpose(1, 2))
        queries, keys, values = split(self.W_query(x)), split(self.W_key(x)), split(self.W_value(x))
        scores = queries @ keys.transpose(2, 3)
        scores = scores.masked_fill(self.mask.bool()[:n, :n], -torch.inf)
        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        context = (weights @ values).transpose(1, 2).contiguous().view(b, n, self.d_out)
        return self.out_proj(context), weights


class SingleHeadCausal(torch.nn.Module):
    """One head of the articles' stacked wrapper: no output projection."""

    def __init__(self, d_in, d_out, context_length, qkv_bias=False):
        super().__init__()
        self.W_query = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        n = x.shape[1]
        keys, queries, values = self.W_key(x), self.W_query(x), self.W_value(x)
        scores = queries @ keys.transpose(1, 2)
        scores = scores.masked_fill(self.mask.bool()[:n, :n], -torch.inf)
        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        return weights @ values
