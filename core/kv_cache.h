// KvCache: the keys and values of the positions a causal self-attention has already seen,
// kept between decode steps as a generating model keeps them.
//
// As Hugging Face's cache holds them: (B, H_kv, S_t, d_h), keys after RoPE at their absolute
// positions, grouped-query heads not yet repeated (repeat_kv reads the cache), so the cache
// costs 2 x H_kv x d_h numbers per position and layer. Each decode step appends its row and
// attends to every cached one (core/attention.h, run_attention_block).
#pragma once

#include <cstdint>

#include "core/dtype_round.h"
#include "core/tensor.h"

namespace attn {

class KvCache {
public:
    KvCache() = default;
    // Room for `capacity` positions of (batch, kv_heads, ., head_dim).
    KvCache(int64_t batch, int64_t kv_heads, int64_t capacity, int64_t head_dim);

    int64_t length() const { return length_; }      // positions held: 0 .. length() - 1
    int64_t capacity() const { return capacity_; }
    bool empty() const { return k_.empty(); }

    // Keeps the first `positions` (a step computed again from an earlier point). Views
    // handed out before keep their numbers: the next append writes into a fresh buffer.
    void truncate(int64_t positions);
    // Appends k_rows and v_rows, (B, H_kv, n, d_h) each, at positions length() .. length() + n - 1.
    // The caller checks the shapes and that length() + n <= capacity().
    void append(const Tensor& k_rows, const Tensor& v_rows);
    // Everything held, as views of the cache's buffer: (B, H_kv, length(), d_h) each.
    // Later appends never change the rows these views show.
    Tensor keys() const;
    Tensor values() const;

private:
    void copy_into_fresh_buffers();

    Tensor k_, v_;  // (B, H_kv, capacity, d_h)
    int64_t capacity_ = 0, length_ = 0;
    bool views_past_length_ = false;  // after truncate(): handed-out views may cover rows >= length_
};

// Bytes the cache holds per position: 2 (K and V) x layers x H_kv x d_h x bytes of one number.
int64_t kv_cache_bytes_per_token(int64_t layers, int64_t kv_heads, int64_t head_dim, DType dtype);

}  // namespace attn
