#include "core/kv_cache.h"

#include <algorithm>
#include <cassert>

namespace attn {
namespace {

const std::vector<DimRole> kCacheRoles = {DimRole::Batch, DimRole::Head, DimRole::KeyPos, DimRole::HeadDim};

// rows (B, H_kv, n, d_h), any strides, into positions [at, at + n) of buffer (B, H_kv, capacity, d_h).
void write_rows(Tensor& buffer, const Tensor& rows, int64_t at) {
    const Tensor dense = rows.contiguous();
    const int64_t B = rows.dim(0), G = rows.dim(1), n = rows.dim(2), dh = rows.dim(3), capacity = buffer.dim(2);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t g = 0; g < G; ++g) {
            const float* from = dense.data() + (b * G + g) * n * dh;
            float* to = buffer.mutable_data() + ((b * G + g) * capacity + at) * dh;
            std::copy(from, from + n * dh, to);
        }
}

}  // namespace

KvCache::KvCache(int64_t batch, int64_t kv_heads, int64_t capacity, int64_t head_dim)
    : k_(Tensor::uninitialized({batch, kv_heads, capacity, head_dim}, kCacheRoles)),
      v_(Tensor::uninitialized({batch, kv_heads, capacity, head_dim}, kCacheRoles)),
      capacity_(capacity) {}

void KvCache::truncate(int64_t positions) {
    if (positions >= length_) return;
    length_ = std::max<int64_t>(0, positions);
    views_past_length_ = true;
}

void KvCache::copy_into_fresh_buffers() {
    for (Tensor* buffer : {&k_, &v_}) {
        Tensor fresh = Tensor::uninitialized(buffer->shape(), kCacheRoles);
        write_rows(fresh, buffer->narrow(2, 0, length_), 0);
        *buffer = std::move(fresh);
    }
    views_past_length_ = false;
}

void KvCache::append(const Tensor& k_rows, const Tensor& v_rows) {
    assert(!empty() && k_rows.rank() == 4 && k_rows.dim(2) == v_rows.dim(2) && "KvCache::append: (B, H_kv, n, d_h) rows");
    assert(length_ + k_rows.dim(2) <= capacity_ && "KvCache::append: past the cache's capacity");
    if (views_past_length_) copy_into_fresh_buffers();  // earlier traces still show the old rows
    write_rows(k_, k_rows, length_);
    write_rows(v_, v_rows, length_);
    length_ += k_rows.dim(2);
}

Tensor KvCache::keys() const { return k_.narrow(2, 0, length_); }
Tensor KvCache::values() const { return v_.narrow(2, 0, length_); }

int64_t kv_cache_bytes_per_token(int64_t layers, int64_t kv_heads, int64_t head_dim, DType dtype) {
    const int64_t bytes = dtype == DType::Float32 ? 4 : 2;
    return 2 * layers * kv_heads * head_dim * bytes;
}

}  // namespace attn
