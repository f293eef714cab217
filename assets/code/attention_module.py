import torch
from torch import nn


class Attention(nn.Module):
    """{code.comment.module}"""

    def __init__(self, d_in, E, H, H_kv=None, kdim=None, vdim=None,
                 qkv_bias=True, out_proj=True, out_bias=True,
                 fused=False, add_bias_kv=False, add_zero_attn=False,
                 scale=None, mask_before_scale=False,
                 mask_fill=float("-inf"), rope=None, dropout=0.0,
                 average_weights=False):
        super().__init__()
        self.H, self.H_kv, self.d_h = H, H_kv or H, E // H
        kv_width = self.H_kv * self.d_h
        self.fused = fused
        if fused:  # {code.comment.fused}
            self.qkv_proj = nn.Linear(d_in, 3 * E, bias=qkv_bias)
        else:
            self.q_proj = nn.Linear(d_in, E, bias=qkv_bias)
            self.k_proj = nn.Linear(kdim or d_in, kv_width, qkv_bias)
            self.v_proj = nn.Linear(vdim or d_in, kv_width, qkv_bias)
        if add_bias_kv:  # {code.comment.bias_kv}
            self.bias_k = nn.Parameter(torch.zeros(1, 1, kv_width))
            self.bias_v = nn.Parameter(torch.zeros(1, 1, kv_width))
        self.add_bias_kv = add_bias_kv
        self.add_zero_attn = add_zero_attn
        self.out_proj = nn.Linear(E, E, out_bias) if out_proj else None
        self.scale = scale if scale is not None else self.d_h ** -0.5
        self.mask_before_scale = mask_before_scale
        self.mask_fill = float(mask_fill)
        self.rope = rope  # {code.comment.rope_arg}
        self.dropout = nn.Dropout(dropout)
        self.average_weights = average_weights
        self.steps = {}  # {code.comment.steps_dict}

    def rope_tables(self, L, past=0):
        """{code.comment.rope_tables}"""
        d_h, base = self.d_h, self.rope["base"]
        offset = self.rope["offset"] + past
        exponents = torch.arange(0, d_h, 2).float() / d_h
        inv_freq = 1.0 / (base ** exponents)  # (d_h / 2)
        positions = torch.arange(offset, offset + L).float()
        angles = positions[:, None] * inv_freq[None, :]
        if self.rope["style"] == "half":  # {code.comment.rope_half}
            angles = torch.cat([angles, angles], dim=-1)
        else:  # {code.comment.rope_interleaved}
            angles = angles.repeat_interleave(2, dim=-1)
        return angles.cos(), angles.sin()

    def rotate(self, x):
        """{code.comment.rotate}"""
        if self.rope["style"] == "half":
            x1, x2 = x.chunk(2, dim=-1)
            return torch.cat([-x2, x1], dim=-1)
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack([-x2, x1], dim=-1).flatten(-2)

    def masked(self, scores, mask, mask_add):
        """{code.comment.masked}"""
        if mask_add is not None:
            scores = scores + mask_add
        if mask is not None:  # {code.comment.mask_true}
            scores = scores.masked_fill(mask, self.mask_fill)
        return scores

    def forward(self, x, key=None, value=None, mask=None,
                mask_add=None, dropout_keep=None, cache=None):
        # {code.comment.forward_args}
        B, L = x.shape[0], x.shape[1]  # step: input (B, L, d_in)
        past = 0 if cache is None else cache["k"].shape[2]  # {code.comment.past}
        key_input = x if key is None else key  # step: key_input (B, S, kdim)
        value_input = x if value is None else value  # step: value_input (B, S, vdim)

        # {code.comment.project}
        if self.fused:
            qkv = self.qkv_proj(x)  # step: qkv (B, L, 3E)
            q, k, v = qkv.chunk(3, dim=-1)  # step: q, k, v (B, L, E)
        else:
            q = self.q_proj(x)  # step: q (B, L, E)
            k = self.k_proj(key_input)  # step: k (B, S, H_kv*d_h)
            v = self.v_proj(value_input)  # step: v (B, S, H_kv*d_h)
        if self.add_bias_kv:  # {code.comment.bias_kv_cat}
            k = torch.cat([k, self.bias_k.expand(B, 1, -1)], 1)  # step: k (B, S+1, H_kv*d_h)
            v = torch.cat([v, self.bias_v.expand(B, 1, -1)], 1)  # step: v (B, S+1, H_kv*d_h)
        q_split = q.view(B, L, self.H, self.d_h)  # step: q_split (B, L, H, d_h)
        k_split = k.view(B, -1, self.H_kv, self.d_h)  # step: k_split (B, S, H_kv, d_h)
        v_split = v.view(B, -1, self.H_kv, self.d_h)  # step: v_split (B, S, H_kv, d_h)
        q_heads = q_split.transpose(1, 2)  # step: q_heads (B, H, L, d_h)
        k_heads = k_split.transpose(1, 2)  # step: k_heads (B, H_kv, S, d_h)
        v_heads = v_split.transpose(1, 2)  # step: v_heads (B, H_kv, S, d_h)
        if self.add_zero_attn:  # {code.comment.zero_attn}
            zero = k_heads.new_zeros(B, self.H_kv, 1, self.d_h)
            k_heads = torch.cat([k_heads, zero], dim=2)  # step: k_heads (B, H_kv, S+1, d_h)
            v_heads = torch.cat([v_heads, zero], dim=2)  # step: v_heads (B, H_kv, S+1, d_h)
        queries, keys, values = q_heads, k_heads, v_heads

        if self.rope is not None:  # {code.comment.rope_rotate}
            rope_cos, rope_sin = self.rope_tables(L, past)  # step: rope_cos, rope_sin (L, d_h)
            q_rot = q_heads * rope_cos + self.rotate(q_heads) * rope_sin  # step: q_rot (B, H, L, d_h)
            k_rot = k_heads * rope_cos + self.rotate(k_heads) * rope_sin  # step: k_rot (B, H_kv, S, d_h)
            queries, keys = q_rot, k_rot
        if cache is not None:  # {code.comment.kv_cache}
            k_cache = torch.cat([cache["k"], keys], dim=2)  # step: k_cache (B, H_kv, S_t, d_h)
            v_cache = torch.cat([cache["v"], values], dim=2)  # step: v_cache (B, H_kv, S_t, d_h)
            cache["k"], cache["v"] = k_cache, v_cache
            keys, values = k_cache, v_cache
        if self.H_kv < self.H:  # {code.comment.repeat_kv}
            group = self.H // self.H_kv
            k_repeated = keys.repeat_interleave(group, dim=1)  # step: k_repeated (B, H, S, d_h)
            v_repeated = values.repeat_interleave(group, dim=1)  # step: v_repeated (B, H, S, d_h)
            keys, values = k_repeated, v_repeated

        # {code.comment.scores}
        attn_scores = queries @ keys.transpose(-2, -1)  # step: attn_scores (B, H, L, S)
        has_mask = mask is not None or mask_add is not None
        if has_mask and self.mask_before_scale:  # {code.comment.mask_first}
            attn_masked = self.masked(attn_scores, mask, mask_add)  # step: attn_masked (B, H, L, S)
            attn_scaled = attn_masked * self.scale  # step: attn_scaled (B, H, L, S)
            logits = attn_scaled
        else:
            attn_scaled = attn_scores * self.scale  # step: attn_scaled (B, H, L, S)
            logits = attn_scaled
            if has_mask:
                attn_masked = self.masked(attn_scaled, mask, mask_add)  # step: attn_masked (B, H, L, S)
                logits = attn_masked
        attn_weights = torch.softmax(logits, dim=-1)  # step: attn_weights (B, H, L, S)
        # {code.comment.all_masked}
        attn_weights = attn_weights.nan_to_num(0.0)  # step: attn_weights (B, H, L, S)
        attended = attn_weights
        if self.dropout.p > 0:
            if dropout_keep is not None:  # {code.comment.dropout_replay}
                keep_scale = 1.0 / (1.0 - self.dropout.p)
                attn_dropped = attn_weights * dropout_keep * keep_scale  # step: attn_dropped (B, H, L, S)
            else:
                attn_dropped = self.dropout(attn_weights)  # step: attn_dropped (B, H, L, S)
            attended = attn_dropped
        if self.average_weights:  # {code.comment.average}
            attn_weights_avg = attended.mean(dim=1)  # step: attn_weights_avg (B, L, S)

        # {code.comment.weighted_sum}
        context = attended @ values  # step: context (B, H, L, d_h)
        context_split = context.transpose(1, 2)  # step: context_split (B, L, H, d_h)
        concat = context_split.reshape(B, L, -1)  # step: concat (B, L, E)
        out = concat
        if self.out_proj is not None:
            out = self.out_proj(concat)  # step: out (B, L, E)

        # {code.comment.keep_all}
        self.steps = {n: t for n, t in locals().items()
                      if torch.is_tensor(t)}
        self.steps["input"] = x
        return out
