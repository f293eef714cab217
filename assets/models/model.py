"""The one transformer architecture every AttnViz example model uses.

Written out by hand (no nn.MultiheadAttention, no nn.TransformerEncoder) so the
C++ side can follow it line by line.  Sizes:
    L  sequence length (<= max_len)        D  hidden_dim
    H  heads                                d_h = D / H
    V  vocabulary size                      F  MLP width = 4 D

    x   = tok_emb[ids] + pos_emb[0:L]                               # (L, D)
    for each layer i:
        h       = LayerNorm_ln1(x)                                  # (L, D)
        q, k, v = h Wq^T + bq, h Wk^T + bk, h Wv^T + bv             # (L, D) each
        split into heads: column block j*d_h .. (j+1)*d_h - 1 is head j
        scores  = q_j k_j^T                                         # (H, L, L)
        scaled  = scores / sqrt(d_h)
        masked  = scaled with -inf above the diagonal (causal models only)
        weights = softmax(masked, over the last axis)
        context = weights v_j                                       # (H, L, d_h)
        concat  = heads side by side, head 0 first                  # (L, D)
        attn    = concat Wo^T + bo                                  # (L, D)
        x       = x + attn
        if mlp:  x = x + fc2(GELU_erf(fc1(LayerNorm_ln2(x))))       # fc1 (F, D), fc2 (D, F)
    logits = LayerNorm_ln_f(x) lm_head^T                            # (L, V), no bias, not tied

LayerNorm: (x - mean) / sqrt(var + 1e-5) * weight + bias, biased variance over D.

Llama-style options (tiny-llama; `llama=True`): RMSNorm (x / sqrt(mean(x^2) + eps) * weight)
instead of LayerNorm, no biases anywhere (projections, MLP, norms), no position table:
RoPE turns q and k after the head split (Hugging Face's rotate_half pairing: column c with
c + d_h/2, angle p * base^(-2c/d_h)), and grouped-query heads: `kv_heads` key/value heads,
each shared by heads / kv_heads query heads (k_proj, v_proj are (kv_heads d_h, D)); the
MLP keeps the exact GELU.
"""

import math

import torch
from torch import nn
from torch.nn import functional as F

LN_EPS = 1e-5
ROPE_BASE = 10000.0


class RMSNorm(nn.Module):
    """Llama's RMSNorm: x / sqrt(mean(x^2) + eps) * weight, no bias."""

    def __init__(self, dim, eps=LN_EPS):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(l, dh, offset=0):
    """cos, sin (L, dh) for positions offset .. offset + L - 1, half-split pairing (cat(freqs, freqs))."""
    inv_freq = 1.0 / (ROPE_BASE ** (torch.arange(0, dh, 2, dtype=torch.float32) / dh))
    angles = torch.arange(offset, offset + l, dtype=torch.float32)[:, None] * inv_freq[None, :]
    emb = torch.cat([angles, angles], dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat([-x2, x1], dim=-1)


class Block(nn.Module):
    def __init__(self, dim, heads, mlp, llama=False, kv_heads=None):
        super().__init__()
        self.heads = heads
        self.kv_heads = kv_heads or heads
        self.llama = llama
        bias = not llama
        norm = (lambda: RMSNorm(dim)) if llama else (lambda: nn.LayerNorm(dim, eps=LN_EPS))
        kv_dim = self.kv_heads * (dim // heads)
        self.ln1 = norm()
        self.attn = nn.Module()
        for name, out in (("q_proj", dim), ("k_proj", kv_dim), ("v_proj", kv_dim), ("o_proj", dim)):
            setattr(self.attn, name, nn.Linear(dim, out, bias=bias))
        self.mlp = None
        if mlp:
            self.ln2 = norm()
            self.mlp = nn.Module()
            self.mlp.fc1 = nn.Linear(dim, 4 * dim, bias=bias)
            self.mlp.fc2 = nn.Linear(4 * dim, dim, bias=bias)

    def forward(self, x, causal, rec=None):
        """x: (B, L, D).  rec: dict that receives every intermediate, or None."""
        b, l, d = x.shape
        h, dh = self.heads, d // self.heads
        a = self.attn
        ln1 = self.ln1(x)
        q, k, v = a.q_proj(ln1), a.k_proj(ln1), a.v_proj(ln1)          # (B, L, D), k v (B, L, H_kv dh)

        def split(t):                                                   # (B, L, n dh) -> (B, n, L, dh)
            return t.reshape(b, l, -1, dh).permute(0, 2, 1, 3)

        qh, kh, vh = split(q), split(k), split(v)
        qr, kr = qh, kh
        if self.llama:
            cos, sin = rope_tables(l, dh)
            qr = qh * cos + rotate_half(qh) * sin                       # (B, H, L, dh)
            kr = kh * cos + rotate_half(kh) * sin                       # (B, H_kv, L, dh): what a KV cache holds
        group = h // self.kv_heads                                      # repeat_kv: (B, H_kv, L, dh) -> (B, H, L, dh)
        k_all = kr.repeat_interleave(group, dim=1)
        v_all = vh.repeat_interleave(group, dim=1)
        scores = qr @ k_all.transpose(-1, -2)                           # (B, H, L, L)
        scaled = scores / math.sqrt(dh)
        masked = scaled
        if causal:
            above = torch.ones(l, l, dtype=torch.bool).triu(1)
            masked = scaled.masked_fill(above, float("-inf"))
        weights = torch.softmax(masked, dim=-1)                         # (B, H, L, L)
        context = weights @ v_all                                       # (B, H, L, dh)
        concat = context.permute(0, 2, 1, 3).reshape(b, l, d)           # (B, L, D)
        attn_out = a.o_proj(concat)
        resid = x + attn_out
        if rec is not None:
            rec.update(ln1=ln1, q=qh, k=kh, v=vh, scores=scores, scaled=scaled, masked=masked,
                       weights=weights, context=context, concat=concat, attn_out=attn_out, resid_attn=resid)
            if self.llama:
                rec.update(q_rot=qr, k_rot=kr)
        if self.mlp is None:
            return resid, weights
        ln2 = self.ln2(resid)
        fc1 = self.mlp.fc1(ln2)                                         # (B, L, 4D)
        act = F.gelu(fc1)                                               # exact erf form
        fc2 = self.mlp.fc2(act)                                         # (B, L, D)
        out = resid + fc2
        if rec is not None:
            rec.update(ln2=ln2, mlp_fc1=fc1, mlp_gelu=act, mlp_fc2=fc2, resid_mlp=out)
        return out, weights


class TinyTransformer(nn.Module):
    def __init__(self, vocab, dim, heads, layers, max_len, mlp, causal, llama=False, kv_heads=None):
        super().__init__()
        self.causal = causal
        self.llama = llama
        self.tok_emb = nn.Embedding(vocab, dim)
        self.pos_emb = None if llama else nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([Block(dim, heads, mlp, llama, kv_heads) for _ in range(layers)])
        self.ln_f = RMSNorm(dim) if llama else nn.LayerNorm(dim, eps=LN_EPS)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        for p in self.parameters():
            if p.dim() == 2:
                nn.init.normal_(p, std=0.08)

    def forward(self, ids, trace=None):
        """ids: (B, L) int64.  Returns logits (B, L, V) and per-layer weights [(B, H, L, L)].

        trace: a dict filled with every intermediate (for the parity fixtures)."""
        l = ids.shape[1]
        tok = self.tok_emb(ids)                                         # (B, L, D)
        pos = (torch.zeros(1, l, tok.shape[-1], dtype=tok.dtype) if self.llama   # RoPE: no position table
               else self.pos_emb.weight[:l].unsqueeze(0))                          # (1, L, D)
        x = tok + pos
        if trace is not None:
            trace.update(token_embedding=tok, position_embedding=pos.expand_as(tok), embedding_sum=x)
        all_weights = []
        for i, layer in enumerate(self.layers):
            rec = {} if trace is not None else None
            x, w = layer(x, self.causal, rec)
            all_weights.append(w)
            if trace is not None:
                for key, val in rec.items():
                    trace["layer%d.%s" % (i, key)] = val
        final = self.ln_f(x)
        logits = self.lm_head(final)                                    # (B, L, V)
        if trace is not None:
            trace.update(final_norm=final, logits=logits, probs=torch.softmax(logits, dim=-1))
        return logits, all_weights
