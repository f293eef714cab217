"""The PyTorch module of every AttnViz recipe, one class per recipe.

Each class is our own transcription of the system an article teaches (see
core/recipe.cpp for the titles): the same layers constructed in the same order,
so that `torch.manual_seed(N)` followed by the constructor draws the same
weights AttnViz's `--init torch` replays, and the same forward. The only
addition is `self.keep(step, tensor)`, which remembers intermediate tensors under
AttnViz's step names ("q", "attn_scores", ...) so a test can compare them; a
single-head module keeps them in its own (B, L, ...) layout and
make_recipe_fixtures.py adds the head axis.

AttnViz's code panel shows the class of the recipe in use (and helper classes it
builds): a line ending in a "step:" comment, naming a step and its shape, is
the line that produces that step, as in attention_module.py. tests/torch_reference/make_recipe_fixtures.py
imports this file, so the code shown is the code that wrote the fixtures.

The panel shows each class as its article writes it (app/io/torch_code.cpp,
article_lines): `self.keep("q", expr)` is shown as `expr`, a statement made only
of `self.keep` calls is not shown (its step goes to the line that made the kept
value), `Traced` is shown as `nn.Module`, a line with a "trace-only" comment is
not shown, and a line with an "article:" comment is shown as the code after it.

Shapes: B batch, L query length, S key length, E width, H heads, d_h = E / H.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Traced(nn.Module):
    """A module that remembers named intermediate tensors of its last forward."""

    def __init__(self):
        super().__init__()
        self.steps = {}

    def keep(self, step, tensor):
        self.steps[step] = tensor.detach().clone()
        return tensor


# --------------------------------------------------------------------------
# scratch-stacked: H single causal heads, outputs concatenated
# --------------------------------------------------------------------------

class ScratchCausalHead(nn.Module):
    """One causal head whose projections are plain (d_in, d_out) parameters."""

    def __init__(self, d_in, d_out, context_length, dropout):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):  # x: (B, L, d_in)
        n = x.shape[1]
        queries = x @ self.W_query  # step: q_heads (B, L, d_out) of one head
        keys = x @ self.W_key  # step: k_heads (B, S, d_out) of one head
        values = x @ self.W_value  # step: v_heads (B, S, d_out) of one head
        scores = queries @ keys.transpose(1, 2)  # step: attn_scores (B, L, S) of one head
        masked = scores.masked_fill(self.mask.bool()[:n, :n], -torch.inf)  # step: attn_masked (B, L, S) of one head
        # mask first, then scale
        scaled = masked / keys.shape[-1] ** 0.5  # step: attn_scaled (B, L, S) of one head
        weights = torch.softmax(scaled, dim=-1)  # step: attn_weights (B, L, S) of one head
        dropped = self.dropout(weights)  # step: attn_dropped (B, L, S) of one head
        context = dropped @ values  # step: context (B, L, d_out) of one head
        parts = dict(q_heads=queries, k_heads=keys, v_heads=values, attn_scores=scores,  # trace-only
                     attn_masked=masked, attn_scaled=scaled, attn_weights=weights,  # trace-only
                     attn_dropped=dropped, context=context)  # trace-only
        return context, parts  # article: return context


class ScratchStacked(Traced):
    """num_heads ScratchCausalHead modules side by side; torch.cat joins them."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads):
        super().__init__()
        self.heads = nn.ModuleList(
            [ScratchCausalHead(d_in, d_out, context_length, dropout) for _ in range(num_heads)])

    def forward(self, x):
        self.keep("input", x)  # step: input (B, L, E)
        outputs = [head(x) for head in self.heads]  # trace-only
        for step in ("q_heads", "k_heads", "v_heads", "attn_scores", "attn_masked", "attn_scaled",  # trace-only
                     "attn_weights", "attn_dropped", "context"):  # trace-only
            self.keep(step, torch.stack([parts[step] for _, parts in outputs], dim=1))  # trace-only (B, H, ...)
        return self.keep("concat", torch.cat([context for context, _ in outputs], dim=-1))  # article: return torch.cat([head(x) for head in self.heads], dim=-1)  # step: concat (B, L, E)


# --------------------------------------------------------------------------
# scratch-mha: one projection per Q/K/V, split into heads by view + transpose
# --------------------------------------------------------------------------

class ScratchMha(Traced):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.Wq = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.Wk = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.Wv = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.Wo = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, n, _ = x.shape
        self.keep("input", x)  # step: input (B, L, E)
        q = self.keep("q", self.Wq(x))  # step: q (B, L, E)
        k = self.keep("k", self.Wk(x))  # step: k (B, S, E)
        v = self.keep("v", self.Wv(x))  # step: v (B, S, E)
        q = self.keep("q_split", q.view(b, n, self.num_heads, self.head_dim))  # step: q_split (B, L, H, d_h)
        k = self.keep("k_split", k.view(b, n, self.num_heads, self.head_dim))  # step: k_split (B, S, H, d_h)
        v = self.keep("v_split", v.view(b, n, self.num_heads, self.head_dim))  # step: v_split (B, S, H, d_h)
        q = self.keep("q_heads", q.transpose(1, 2))  # step: q_heads (B, H, L, d_h)
        k = self.keep("k_heads", k.transpose(1, 2))  # step: k_heads (B, H, S, d_h)
        v = self.keep("v_heads", v.transpose(1, 2))  # step: v_heads (B, H, S, d_h)
        scores = self.keep("attn_scores", q @ k.transpose(2, 3))  # step: attn_scores (B, H, L, S)
        masked = self.keep("attn_masked", scores.masked_fill(self.mask.bool()[:n, :n], -torch.inf))  # step: attn_masked (B, H, L, S)
        scaled = self.keep("attn_scaled", masked / k.shape[-1] ** 0.5)  # step: attn_scaled (B, H, L, S)
        weights = self.keep("attn_weights", torch.softmax(scaled, dim=-1))  # step: attn_weights (B, H, L, S)
        dropped = self.keep("attn_dropped", self.dropout(weights))  # step: attn_dropped (B, H, L, S)
        context = self.keep("context", dropped @ v)  # step: context (B, H, L, d_h)
        context = self.keep("context_split", context.transpose(1, 2))  # step: context_split (B, L, H, d_h)
        context = self.keep("concat", context.contiguous().view(b, n, self.d_out))  # step: concat (B, L, E)
        return self.keep("out", self.Wo(context))  # step: out (B, L, E)


# --------------------------------------------------------------------------
# scratch-kv-cache: the same weight-split class as the book's KV-cache chapter
# continues it (rasbt/LLMs-from-scratch, ch04/03_kv-cache/gpt_with_kv_cache.py): the
# new keys and values join cache_k / cache_v along T in their (b, T, H, d_h) layout,
# before the transpose, and ptr_current_pos says which rows of the causal mask the new
# queries are. AttnViz's k_cache is the same numbers after that transpose.
# --------------------------------------------------------------------------

class ScratchKvCache(Traced):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1), persistent=False)
        # The cache: empty until the first forward with use_cache, then (b, T, H, d_h).
        self.register_buffer("cache_k", None, persistent=False)
        self.register_buffer("cache_v", None, persistent=False)
        self.ptr_current_pos = 0  # positions already in the cache: the first new query's row

    def forward(self, x, use_cache=False):
        b, num_tokens, d_in = x.shape
        self.keep("input", x)  # step: input (B, L, E)
        keys_new = self.keep("k", self.W_key(x))  # step: k (B, S, E)
        values_new = self.keep("v", self.W_value(x))  # step: v (B, S, E)
        queries = self.keep("q", self.W_query(x))  # step: q (B, L, E)
        keys_new = self.keep("k_split", keys_new.view(b, num_tokens, self.num_heads, self.head_dim))  # step: k_split (B, S, H, d_h)
        values_new = self.keep("v_split", values_new.view(b, num_tokens, self.num_heads, self.head_dim))  # step: v_split (B, S, H, d_h)
        queries = self.keep("q_split", queries.view(b, num_tokens, self.num_heads, self.head_dim))  # step: q_split (B, L, H, d_h)

        if use_cache:  # generation: the new rows are appended along T (dim 1), still (b, T, H, d_h)
            self.cache_k = keys_new if self.cache_k is None else torch.cat([self.cache_k, keys_new], dim=1)
            self.cache_v = values_new if self.cache_v is None else torch.cat([self.cache_v, values_new], dim=1)
            keys, values = self.cache_k, self.cache_v
        else:
            keys, values = keys_new, values_new

        # (b, T, H, d_h) -> (b, H, T, d_h): with the cache, every position so far
        keys = self.keep("k_cache" if use_cache else "k_heads", keys.transpose(1, 2))  # step: k_heads, k_cache (B, H, S_t, d_h)
        queries = self.keep("q_heads", queries.transpose(1, 2))  # step: q_heads (B, H, L, d_h)
        values = self.keep("v_cache" if use_cache else "v_heads", values.transpose(1, 2))  # step: v_heads, v_cache (B, H, S_t, d_h)

        attn_scores = self.keep("attn_scores", queries @ keys.transpose(2, 3))  # step: attn_scores (B, H, L, S)
        num_tokens_Q, num_tokens_K = queries.shape[-2], keys.shape[-2]
        if use_cache:  # the new queries are rows ptr_current_pos .. of the causal mask
            mask_bool = self.mask.bool()[self.ptr_current_pos:self.ptr_current_pos + num_tokens_Q, :num_tokens_K]
            self.ptr_current_pos += num_tokens_Q
        else:
            mask_bool = self.mask.bool()[:num_tokens_Q, :num_tokens_K]
        attn_scores = self.keep("attn_masked", attn_scores.masked_fill(mask_bool, -torch.inf))  # article: attn_scores.masked_fill_(mask_bool, -torch.inf)  # step: attn_masked (B, H, L, S)
        scaled = self.keep("attn_scaled", attn_scores / keys.shape[-1] ** 0.5)  # trace-only
        attn_weights = self.keep("attn_weights", torch.softmax(scaled, dim=-1))  # article: attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)  # step: attn_scaled, attn_weights (B, H, L, S)
        attn_weights = self.dropout(attn_weights)  # generation runs in eval mode: dropout does nothing here
        context_vec = self.keep("context", attn_weights @ values)  # trace-only
        context_vec = self.keep("context_split", context_vec.transpose(1, 2))  # article: context_vec = (attn_weights @ values).transpose(1, 2)  # step: context, context_split (B, L, H, d_h)
        context_vec = self.keep("concat", context_vec.contiguous().view(b, num_tokens, self.d_out))  # step: concat (B, L, E)
        return self.keep("out", self.out_proj(context_vec))  # step: out (B, L, E)

    def reset_cache(self):
        self.cache_k, self.cache_v = None, None
        self.ptr_current_pos = 0


# --------------------------------------------------------------------------
# day15-mha: the Day 15 article's weight-split class, two heads of width 1
# --------------------------------------------------------------------------

class Day15Mha(Traced):
    """The weight-split module as the Day 15 article names its layers (W_query,
    W_key, W_value, out_proj, built in that order); its example asks for
    d_out = 2, so each of the two heads is one number wide."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, _ = x.shape
        self.keep("input", x)  # step: input (B, L, E)
        keys = self.keep("k", self.W_key(x))  # step: k (B, S, E)
        queries = self.keep("q", self.W_query(x))  # step: q (B, L, E)
        values = self.keep("v", self.W_value(x))  # step: v (B, S, E)
        keys = self.keep("k_split", keys.view(b, num_tokens, self.num_heads, self.head_dim))  # step: k_split (B, S, H, d_h)
        values = self.keep("v_split", values.view(b, num_tokens, self.num_heads, self.head_dim))  # step: v_split (B, S, H, d_h)
        queries = self.keep("q_split", queries.view(b, num_tokens, self.num_heads, self.head_dim))  # step: q_split (B, L, H, d_h)
        keys = self.keep("k_heads", keys.transpose(1, 2))  # step: k_heads (B, H, S, d_h)
        queries = self.keep("q_heads", queries.transpose(1, 2))  # step: q_heads (B, H, L, d_h)
        values = self.keep("v_heads", values.transpose(1, 2))  # step: v_heads (B, H, S, d_h)
        attn_scores = self.keep("attn_scores", queries @ keys.transpose(2, 3))  # step: attn_scores (B, H, L, S)
        hidden = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores = self.keep("attn_masked", attn_scores.masked_fill(hidden, -torch.inf))  # step: attn_masked (B, H, L, S)
        attn_scaled = self.keep("attn_scaled", attn_scores / keys.shape[-1] ** 0.5)  # step: attn_scaled (B, H, L, S)
        attn_weights = self.keep("attn_weights", torch.softmax(attn_scaled, dim=-1))  # step: attn_weights (B, H, L, S)
        attn_weights = self.keep("attn_dropped", self.dropout(attn_weights))  # step: attn_dropped (B, H, L, S)
        context_vec = self.keep("context", attn_weights @ values)  # step: context (B, H, L, d_h)
        context_vec = self.keep("context_split", context_vec.transpose(1, 2))  # step: context_split (B, L, H, d_h)
        context_vec = self.keep("concat", context_vec.contiguous().view(b, num_tokens, self.d_out))  # step: concat (B, L, E)
        return self.keep("out", self.out_proj(context_vec))  # step: out (B, L, E)


# --------------------------------------------------------------------------
# selfatt-v1 .. v4: the four single-head levels of the interview article
# --------------------------------------------------------------------------

class SelfAttV1(Traced):
    """Single head, scaled by sqrt(hidden_dim), no output projection."""

    def __init__(self, hidden_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.query_proj = nn.Linear(hidden_dim, hidden_dim)
        self.key_proj = nn.Linear(hidden_dim, hidden_dim)
        self.value_proj = nn.Linear(hidden_dim, hidden_dim)

    def forward(self, X):  # (B, L, E)
        self.keep("input", X)  # step: input (B, L, E)
        Q = self.keep("q", self.query_proj(X))  # step: q (B, L, E)
        K = self.keep("k", self.key_proj(X))  # step: k (B, S, E)
        V = self.keep("v", self.value_proj(X))  # step: v (B, S, E)
        scores = self.keep("attn_scores", Q @ K.transpose(-1, -2))  # step: attn_scores (B, L, S)
        scaled = self.keep("attn_scaled", scores / math.sqrt(self.hidden_dim))  # step: attn_scaled (B, L, S)
        weights = self.keep("attn_weights", torch.softmax(scaled, dim=-1))  # step: attn_weights (B, L, S)
        return self.keep("context", weights @ V)  # step: context (B, L, E)


class SelfAttV2(Traced):
    """One fused (3E, E) projection split into Q, K, V; output projection."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.proj = nn.Linear(dim, dim * 3)
        self.output_proj = nn.Linear(dim, dim)

    def forward(self, X):
        self.keep("input", X)  # step: input (B, L, E)
        QKV = self.keep("qkv", self.proj(X))  # step: qkv (B, L, 3E)
        Q, K, V = torch.split(QKV, self.dim, dim=-1)  # step: q, k, v (B, L, E)
        self.keep("q", Q), self.keep("k", K), self.keep("v", V)
        scores = self.keep("attn_scores", Q @ K.transpose(-1, -2))  # step: attn_scores (B, L, S)
        scaled = self.keep("attn_scaled", scores / math.sqrt(self.dim))  # step: attn_scaled (B, L, S)
        weights = self.keep("attn_weights", torch.softmax(scaled, dim=-1))  # step: attn_weights (B, L, S)
        context = self.keep("context", weights @ V)  # step: context (B, L, E)
        return self.keep("out", self.output_proj(context))  # step: out (B, L, E)


class SelfAttV3(Traced):
    """Fused projection, a (B, L, S) 0/1 padding mask filled with -1e20 after the
    scaling, dropout on the weights, output projection."""

    def __init__(self, dim, dropout=0.1):
        super().__init__()
        self.dim = dim
        self.proj = nn.Linear(dim, dim * 3)
        self.att_drop = nn.Dropout(dropout)
        self.output_proj = nn.Linear(dim, dim)

    def forward(self, X, attention_mask=None):  # attention_mask: (B, L, S), 1 = keep
        self.keep("input", X)  # step: input (B, L, E)
        QKV = self.keep("qkv", self.proj(X))  # step: qkv (B, L, 3E)
        Q, K, V = torch.split(QKV, self.dim, dim=-1)  # step: q, k, v (B, L, E)
        self.keep("q", Q), self.keep("k", K), self.keep("v", V)
        scores = self.keep("attn_scores", Q @ K.transpose(-1, -2))  # step: attn_scores (B, L, S)
        att = self.keep("attn_scaled", scores / math.sqrt(self.dim))  # step: attn_scaled (B, L, S)
        if attention_mask is not None:
            att = self.keep("attn_masked", att.masked_fill(attention_mask == 0, float("-1e20")))  # step: attn_masked (B, L, S)
        weights = self.keep("attn_weights", torch.softmax(att, dim=-1))  # step: attn_weights (B, L, S)
        dropped = self.keep("attn_dropped", self.att_drop(weights))  # step: attn_dropped (B, L, S)
        context = self.keep("context", dropped @ V)  # step: context (B, L, E)
        return self.keep("out", self.output_proj(context))  # step: out (B, L, E)


class SelfAttV4(Traced):
    """As SelfAttV3 with three separate projections."""

    def __init__(self, dim, dropout=0.1):
        super().__init__()
        self.dim = dim
        self.query_proj = nn.Linear(dim, dim)
        self.key_proj = nn.Linear(dim, dim)
        self.value_proj = nn.Linear(dim, dim)
        self.att_drop = nn.Dropout(dropout)
        self.output_proj = nn.Linear(dim, dim)

    def forward(self, X, attention_mask=None):
        self.keep("input", X)  # step: input (B, L, E)
        Q = self.keep("q", self.query_proj(X))  # step: q (B, L, E)
        K = self.keep("k", self.key_proj(X))  # step: k (B, S, E)
        V = self.keep("v", self.value_proj(X))  # step: v (B, S, E)
        scores = self.keep("attn_scores", Q @ K.transpose(-1, -2))  # step: attn_scores (B, L, S)
        att = self.keep("attn_scaled", scores / math.sqrt(self.dim))  # step: attn_scaled (B, L, S)
        if attention_mask is not None:
            att = self.keep("attn_masked", att.masked_fill(attention_mask == 0, float("-1e20")))  # step: attn_masked (B, L, S)
        weights = self.keep("attn_weights", torch.softmax(att, dim=-1))  # step: attn_weights (B, L, S)
        dropped = self.keep("attn_dropped", self.att_drop(weights))  # step: attn_dropped (B, L, S)
        context = self.keep("context", dropped @ V)  # step: context (B, L, E)
        return self.keep("out", self.output_proj(context))  # step: out (B, L, E)


# --------------------------------------------------------------------------
# interview-mha: the interview article's multi-head level, (B, H, L, S) mask
# --------------------------------------------------------------------------

class InterviewMha(Traced):
    def __init__(self, hidden_dim, nums_head, dropout=0.1):
        super().__init__()
        self.nums_head = nums_head
        self.head_dim = hidden_dim // nums_head
        self.hidden_dim = hidden_dim
        self.q_proj = nn.Linear(hidden_dim, hidden_dim)
        self.k_proj = nn.Linear(hidden_dim, hidden_dim)
        self.v_proj = nn.Linear(hidden_dim, hidden_dim)
        self.att_dropout = nn.Dropout(dropout)  # constructed, never applied in forward
        self.o_proj = nn.Linear(hidden_dim, hidden_dim)

    def forward(self, X, attention_mask=None):  # attention_mask: (B, H, L, S), 1 = keep
        b, n, _ = X.size()
        self.keep("input", X)  # step: input (B, L, E)
        Q = self.keep("q", self.q_proj(X))  # step: q (B, L, E)
        K = self.keep("k", self.k_proj(X))  # step: k (B, S, E)
        V = self.keep("v", self.v_proj(X))  # step: v (B, S, E)
        q = self.keep("q_split", Q.view(b, n, self.nums_head, self.head_dim))  # step: q_split (B, L, H, d_h)
        k = self.keep("k_split", K.view(b, n, self.nums_head, self.head_dim))  # step: k_split (B, S, H, d_h)
        v = self.keep("v_split", V.view(b, n, self.nums_head, self.head_dim))  # step: v_split (B, S, H, d_h)
        q = self.keep("q_heads", q.permute(0, 2, 1, 3))  # step: q_heads (B, H, L, d_h)
        k = self.keep("k_heads", k.transpose(1, 2))  # step: k_heads (B, H, S, d_h)
        v = self.keep("v_heads", v.transpose(1, 2))  # step: v_heads (B, H, S, d_h)
        scores = self.keep("attn_scores", q @ k.transpose(-1, -2))  # step: attn_scores (B, H, L, S)
        att = self.keep("attn_scaled", scores / math.sqrt(self.head_dim))  # step: attn_scaled (B, H, L, S)
        if attention_mask is not None:
            att = self.keep("attn_masked", att.masked_fill(attention_mask == 0, float("-1e20")))  # step: attn_masked (B, H, L, S)
        weights = self.keep("attn_weights", torch.softmax(att, dim=3))  # step: attn_weights (B, H, L, S)
        context = self.keep("context", weights @ v)  # step: context (B, H, L, d_h)
        context = self.keep("context_split", context.transpose(1, 2).contiguous())  # step: context_split (B, L, H, d_h)
        output = self.keep("concat", context.view(b, n, -1))  # step: concat (B, L, E)
        return self.keep("out", self.o_proj(output))  # step: out (B, L, E)


# --------------------------------------------------------------------------
# torch-mha: nn.MultiheadAttention, its forward spelled out step by step
# --------------------------------------------------------------------------

class TorchMha(Traced):
    """nn.MultiheadAttention(batch_first=True). The forward recomputes what
    F.multi_head_attention_forward does, from the module's own parameters, so
    every step can be kept; `check` compares it with the module's output."""

    def __init__(self, embed_dim, num_heads, kdim=None, vdim=None, dropout=0.0, bias=True):
        super().__init__()
        self.mha = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout, bias=bias,
                                         kdim=kdim, vdim=vdim, batch_first=True)

    def projection_weights(self):
        m, E = self.mha, self.mha.embed_dim
        if m._qkv_same_embed_dim:
            w_q, w_k, w_v = m.in_proj_weight[:E], m.in_proj_weight[E:2 * E], m.in_proj_weight[2 * E:]
        else:
            w_q, w_k, w_v = m.q_proj_weight, m.k_proj_weight, m.v_proj_weight
        if m.in_proj_bias is None:
            return (w_q, None), (w_k, None), (w_v, None)
        b = m.in_proj_bias
        return (w_q, b[:E]), (w_k, b[E:2 * E]), (w_v, b[2 * E:])

    def forward(self, query, key, value):
        m = self.mha
        b, n, E = query.shape
        s, H, dh = key.shape[1], m.num_heads, m.head_dim
        self.keep("input", query)  # step: input (B, L, E)
        self.keep("key_input", key)  # step: key_input (B, S, kdim)
        self.keep("value_input", value)  # step: value_input (B, S, vdim)
        (w_q, b_q), (w_k, b_k), (w_v, b_v) = self.projection_weights()
        q = self.keep("q", F.linear(query, w_q, b_q))  # step: q (B, L, E)
        k = self.keep("k", F.linear(key, w_k, b_k))  # step: k (B, S, E)
        v = self.keep("v", F.linear(value, w_v, b_v))  # step: v (B, S, E)
        q = self.keep("q_split", q.view(b, n, H, dh))  # step: q_split (B, L, H, d_h)
        k = self.keep("k_split", k.view(b, s, H, dh))  # step: k_split (B, S, H, d_h)
        v = self.keep("v_split", v.view(b, s, H, dh))  # step: v_split (B, S, H, d_h)
        q = self.keep("q_heads", q.transpose(1, 2))  # step: q_heads (B, H, L, d_h)
        k = self.keep("k_heads", k.transpose(1, 2))  # step: k_heads (B, H, S, d_h)
        v = self.keep("v_heads", v.transpose(1, 2))  # step: v_heads (B, H, S, d_h)
        scores = self.keep("attn_scores", q @ k.transpose(-2, -1))  # step: attn_scores (B, H, L, S)
        scaled = self.keep("attn_scaled", scores / math.sqrt(dh))  # step: attn_scaled (B, H, L, S)
        weights = self.keep("attn_weights", torch.softmax(scaled, dim=-1))  # step: attn_weights (B, H, L, S)
        if m.dropout > 0.0 and self.training:
            weights = self.keep("attn_dropped", F.dropout(weights, p=m.dropout))  # step: attn_dropped (B, H, L, S)
        context = self.keep("context", weights @ v)  # step: context (B, H, L, d_h)
        context = self.keep("context_split", context.transpose(1, 2))  # step: context_split (B, L, H, d_h)
        concat = self.keep("concat", context.contiguous().view(b, n, E))  # step: concat (B, L, E)
        return self.keep("out", m.out_proj(concat))  # step: out (B, L, E)

    def check(self, query, key, value, ours):
        """The module's own forward (same generator state for its dropout) gives `ours`."""
        expected, _ = self.mha(query, key, value, need_weights=True)
        return (expected - ours).abs().max().item()


# --------------------------------------------------------------------------
# llama: Hugging Face's LlamaAttention (eager), trimmed to the attention
# --------------------------------------------------------------------------

class DynamicCache:
    """Hugging Face's cache (transformers' cache_utils.DynamicCache) in miniature: per
    layer, the keys and values of every position so far, (B, H_kv, S, d_h), keys already
    rotated by RoPE at their own positions; update() appends a block's and returns all."""

    def __init__(self):
        self.key_cache, self.value_cache = [], []

    def get_seq_length(self, layer_idx=0):
        return self.key_cache[layer_idx].shape[-2] if layer_idx < len(self.key_cache) else 0

    def update(self, key_states, value_states, layer_idx):
        if layer_idx == len(self.key_cache):
            self.key_cache.append(key_states)
            self.value_cache.append(value_states)
        else:  # along the sequence axis, -2
            self.key_cache[layer_idx] = torch.cat([self.key_cache[layer_idx], key_states], dim=-2)
            self.value_cache[layer_idx] = torch.cat([self.value_cache[layer_idx], value_states], dim=-2)
        return self.key_cache[layer_idx], self.value_cache[layer_idx]


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaAttention(Traced):
    def __init__(self, hidden_size, num_heads, num_key_value_heads=None, rope_theta=10000.0):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.num_key_value_heads = num_key_value_heads or num_heads
        self.rope_theta = rope_theta
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, self.num_key_value_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, self.num_key_value_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size, bias=False)

    def rotary(self, past, seq_len):  # the angles of positions past .. past + seq_len - 1
        inv_freq = 1.0 / (self.rope_theta ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))
        positions = torch.arange(past, past + seq_len).float()
        freqs = positions[:, None] * inv_freq[None, :]        # (L, d_h / 2)
        emb = torch.cat((freqs, freqs), dim=-1)               # (L, d_h)
        return emb.cos(), emb.sin()

    def forward(self, hidden_states, past_key_value=None, layer_idx=0):
        bsz, q_len, _ = hidden_states.size()
        H, H_kv, dh = self.num_heads, self.num_key_value_heads, self.head_dim
        past = 0 if past_key_value is None else past_key_value.get_seq_length(layer_idx)  # positions already cached
        self.keep("input", hidden_states)  # step: input (B, L, E)
        q = self.keep("q", self.q_proj(hidden_states))  # step: q (B, L, E)
        k = self.keep("k", self.k_proj(hidden_states))  # step: k (B, S, H_kv d_h)
        v = self.keep("v", self.v_proj(hidden_states))  # step: v (B, S, H_kv d_h)
        q = self.keep("q_split", q.view(bsz, q_len, H, dh))  # step: q_split (B, L, H, d_h)
        k = self.keep("k_split", k.view(bsz, q_len, H_kv, dh))  # step: k_split (B, S, H_kv, d_h)
        v = self.keep("v_split", v.view(bsz, q_len, H_kv, dh))  # step: v_split (B, S, H_kv, d_h)
        q = self.keep("q_heads", q.transpose(1, 2))  # step: q_heads (B, H, L, d_h)
        k = self.keep("k_heads", k.transpose(1, 2))  # step: k_heads (B, H_kv, S, d_h)
        v = self.keep("v_heads", v.transpose(1, 2))  # step: v_heads (B, H_kv, S, d_h)
        cos, sin = self.rotary(past, q_len)
        self.keep("rope_cos", cos)  # step: rope_cos (L, d_h)
        self.keep("rope_sin", sin)  # step: rope_sin (L, d_h)
        q = self.keep("q_rot", q * cos + rotate_half(q) * sin)  # step: q_rot (B, H, L, d_h)
        k = self.keep("k_rot", k * cos + rotate_half(k) * sin)  # step: k_rot (B, H_kv, S, d_h)
        if past_key_value is not None:  # decoding: keys after RoPE and values join the cache
            k, v = past_key_value.update(k, v, layer_idx)  # step: k_cache, v_cache (B, H_kv, S_t, d_h)
            self.keep("k_cache", k), self.keep("v_cache", v)
        if H_kv < H:  # repeat_kv: each key/value head serves H / H_kv query heads
            k = self.keep("k_repeated", k.repeat_interleave(H // H_kv, dim=1))  # step: k_repeated (B, H, S, d_h)
            v = self.keep("v_repeated", v.repeat_interleave(H // H_kv, dim=1))  # step: v_repeated (B, H, S, d_h)
        scores = self.keep("attn_scores", torch.matmul(q, k.transpose(2, 3)))  # step: attn_scores (B, H, L, S)
        scaled = self.keep("attn_scaled", scores / math.sqrt(dh))  # step: attn_scaled (B, H, L, S)
        kv_len = k.shape[2]  # past + q_len: query i is position past + i and sees keys 0 .. past + i
        causal = torch.full((q_len, kv_len), torch.finfo(scaled.dtype).min).triu(past + 1)  # 0 on and below the diagonal
        masked = self.keep("attn_masked", scaled + causal)  # step: attn_masked (B, H, L, S)
        weights = self.keep("attn_weights", F.softmax(masked, dim=-1, dtype=torch.float32).to(q.dtype))  # step: attn_weights (B, H, L, S)
        context = self.keep("context", torch.matmul(weights, v))  # step: context (B, H, L, d_h)
        context = self.keep("context_split", context.transpose(1, 2).contiguous())  # step: context_split (B, L, H, d_h)
        concat = self.keep("concat", context.reshape(bsz, q_len, -1))  # step: concat (B, L, E)
        return self.keep("out", self.o_proj(concat))  # step: out (B, L, E)
