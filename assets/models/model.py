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
"""

import math

import torch
from torch import nn
from torch.nn import functional as F

LN_EPS = 1e-5


class Block(nn.Module):
    def __init__(self, dim, heads, mlp):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim, eps=LN_EPS)
        self.attn = nn.Module()
        for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
            setattr(self.attn, name, nn.Linear(dim, dim, bias=True))
        self.mlp = None
        if mlp:
            self.ln2 = nn.LayerNorm(dim, eps=LN_EPS)
            self.mlp = nn.Module()
            self.mlp.fc1 = nn.Linear(dim, 4 * dim, bias=True)
            self.mlp.fc2 = nn.Linear(4 * dim, dim, bias=True)

    def forward(self, x, causal, rec=None):
        """x: (B, L, D).  rec: dict that receives every intermediate, or None."""
        b, l, d = x.shape
        h, dh = self.heads, d // self.heads
        a = self.attn
        ln1 = self.ln1(x)
        q, k, v = a.q_proj(ln1), a.k_proj(ln1), a.v_proj(ln1)          # (B, L, D)

        def split(t):                                                   # (B, L, D) -> (B, H, L, dh)
            return t.reshape(b, l, h, dh).permute(0, 2, 1, 3)

        qh, kh, vh = split(q), split(k), split(v)
        scores = qh @ kh.transpose(-1, -2)                              # (B, H, L, L)
        scaled = scores / math.sqrt(dh)
        masked = scaled
        if causal:
            above = torch.ones(l, l, dtype=torch.bool).triu(1)
            masked = scaled.masked_fill(above, float("-inf"))
        weights = torch.softmax(masked, dim=-1)                         # (B, H, L, L)
        context = weights @ vh                                          # (B, H, L, dh)
        concat = context.permute(0, 2, 1, 3).reshape(b, l, d)           # (B, L, D)
        attn_out = a.o_proj(concat)
        resid = x + attn_out
        if rec is not None:
            rec.update(ln1=ln1, q=qh, k=kh, v=vh, scores=scores, scaled=scaled, masked=masked,
                       weights=weights, context=context, concat=concat, attn_out=attn_out, resid_attn=resid)
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
    def __init__(self, vocab, dim, heads, layers, max_len, mlp, causal):
        super().__init__()
        self.causal = causal
        self.tok_emb = nn.Embedding(vocab, dim)
        self.pos_emb = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([Block(dim, heads, mlp) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(dim, eps=LN_EPS)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        for p in self.parameters():
            if p.dim() == 2:
                nn.init.normal_(p, std=0.08)

    def forward(self, ids, trace=None):
        """ids: (B, L) int64.  Returns logits (B, L, V) and per-layer weights [(B, H, L, L)].

        trace: a dict filled with every intermediate (for the parity fixtures)."""
        l = ids.shape[1]
        tok = self.tok_emb(ids)                                         # (B, L, D)
        pos = self.pos_emb.weight[:l].unsqueeze(0)                      # (1, L, D)
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
