#include "core/repeat_kv.h"

#include <cassert>
#include <cstring>

namespace attn {

Status check_kv_heads(int num_heads, int num_kv_heads) {
    if (num_kv_heads >= 1 && num_kv_heads <= num_heads && num_heads % num_kv_heads == 0) return ok_status();
    std::string divisors;
    for (int d = 1; d <= num_heads; ++d)
        if (num_heads % d == 0) divisors += (divisors.empty() ? "" : ", ") + std::to_string(d);
    return Status::failure(Message("error.config.kv_heads_divide",
                                   {{"num_kv_heads", num_kv_heads}, {"num_heads", num_heads}, {"divisors", divisors}}));
}

int kv_head_of(int query_head, int num_heads, int num_kv_heads) {
    assert(check_kv_heads(num_heads, num_kv_heads).ok() && "kv_head_of: num_kv_heads must divide num_heads");
    return query_head / (num_heads / num_kv_heads);
}

std::vector<int> query_heads_sharing(int kv_head, int num_heads, int num_kv_heads) {
    assert(check_kv_heads(num_heads, num_kv_heads).ok() && "query_heads_sharing: num_kv_heads must divide num_heads");
    const int group = num_heads / num_kv_heads;
    std::vector<int> heads;
    for (int h = kv_head * group; h < (kv_head + 1) * group && h < num_heads; ++h) heads.push_back(h);
    return heads;
}

Tensor repeat_kv(const Tensor& kv, int num_heads) {
    assert(kv.rank() == 4 && "repeat_kv: kv must be (B, KV, S, d_h)");
    const int64_t B = kv.dim(0), KV = kv.dim(1), S = kv.dim(2), d_h = kv.dim(3);
    assert(check_kv_heads(num_heads, static_cast<int>(KV)).ok() && "repeat_kv: num_kv_heads must divide num_heads");
    const Tensor source = kv.contiguous();
    Tensor out = Tensor::uninitialized({B, num_heads, S, d_h}, {"B", "H", "S", "d_h"});
    const int64_t block = S * d_h;  // one head's (S, d_h)
    for (int64_t b = 0; b < B; ++b)
        for (int h = 0; h < num_heads; ++h) {
            const int64_t g = kv_head_of(h, num_heads, static_cast<int>(KV));
            std::memcpy(out.mutable_data() + (b * num_heads + h) * block, source.data() + (b * KV + g) * block,
                        static_cast<size_t>(block) * sizeof(float));
        }
    return out;
}

}  // namespace attn
