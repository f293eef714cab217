// The per-head pass of the forward (core/attend_heads.h). Sections:
//   [1] Masks        the configuration's bound mask and a caller's painted cells, combined
//   [2] One head     scores -> scale and mask -> softmax -> dropout -> weighted sum
//   [3] Every head   in parallel over (b, h)
#include "core/attend_heads.h"

#include <algorithm>

#include "core/ops.h"
#include "core/rng.h"
#include "core/torch_dropout.h"

namespace attn {

// ---------------------------------------------------------------------------
// [1] Masks
// ---------------------------------------------------------------------------

Masks masks_of(const AttentionConfig& c, const BoundMask& bound, const std::vector<uint8_t>& custom) {
    Masks masks;
    masks.bound = bound.any() ? &bound : nullptr;
    masks.custom = &custom;
    masks.custom_keys = c.S();
    masks.fill = mask_fill_value(c.mask_fill, c.dtype);
    return masks;
}

namespace {

// masked = scores with every mask applied; row_flags (L) gets 1 for rows with no key left.
void apply_masks(const Masks& masks, const ConstMatMap& scores, int64_t b, int64_t h, MatMap masked, uint8_t* row_flags) {
    const int64_t L = scores.rows(), cols = scores.cols();
    if (masks.bound) masks.bound->apply(scores, b, h, masked, row_flags, masks.query_offset);
    else masked = scores;
    if (!masks.custom || masks.custom->empty()) return;
    // The caller's mask covers the whole pass's real keys; a block against the cache sees
    // the first `cols` of them, its rows at query_offset onwards.
    const int64_t S = masks.custom_keys, keys = std::min(S, cols);
    for (int64_t row = 0; row < L; ++row) {
        const int64_t i = row + masks.query_offset;
        bool every_key_hidden = cols == keys;
        for (int64_t j = 0; j < keys; ++j) {
            const bool custom = (*masks.custom)[static_cast<size_t>(i * S + j)] != 0;
            if (custom) masked(row, j) = masks.fill;
            every_key_hidden = every_key_hidden && (custom || (masks.bound && masks.bound->hides_key(b, h, i, j)));
        }
        row_flags[row] = every_key_hidden ? 1 : 0;
    }
}

// ---------------------------------------------------------------------------
// [2] One head
// ---------------------------------------------------------------------------

// What every head of one forward reads and writes. S counts the key rows after the
// extra ones (bias_k, zero_attn).
struct HeadPass {
    const AttentionConfig& c;
    const ForwardPlan& plan;
    const Masks& masks;
    const Tensor &q, &k, &v;  // (B, H, L or S_total, d_h): H heads each (after repeat_kv)
    HeadMaps& maps;
    int64_t H, L, S, dh;
    float scale;
    bool replay_dropout;  // torch's keep mask covers every (b, h, i, j): replay it

    MatMap map(Tensor& t, int64_t bh) const { return MatMap(t.mutable_data() + bh * L * S, L, S); }  // (L, S)
    ConstMatMap read(const float* map) const { return ConstMatMap(map, L, S); }
    void round(float* values, int64_t count) const {  // the compute dtype's rounding, in place
        if (c.dtype != DType::Float32) round_to_dtype_in_place(c.dtype, values, count);
    }
};

HeadMaps allocate_maps(const HeadPass& p) {
    const int64_t B = p.c.batch;
    const std::vector<DimRole> map_roles = {DimRole::Batch, DimRole::Head, DimRole::QueryPos, DimRole::KeyPos};
    HeadMaps m;
    m.scores = Tensor::uninitialized({B, p.H, p.L, p.S}, map_roles);
    m.scaled = Tensor::uninitialized({B, p.H, p.L, p.S}, map_roles);
    if (p.plan.mask) m.masked = Tensor::uninitialized({B, p.H, p.L, p.S}, map_roles);
    m.weights = Tensor::uninitialized({B, p.H, p.L, p.S}, map_roles);
    if (p.plan.dropout) m.dropped = Tensor::uninitialized({B, p.H, p.L, p.S}, map_roles);
    m.context = Tensor::uninitialized({B, p.H, p.L, p.dh}, {DimRole::Batch, DimRole::Head, DimRole::QueryPos, DimRole::HeadDim});
    m.fully_masked.assign(static_cast<size_t>(B * p.H * p.L), 0);
    return m;
}

// Head (b, h)'s scores scaled and masked, in the configured order; returns the softmax's
// input. mask_flags (L) gets 1 for the rows the masks leave without a key.
const float* scale_and_mask(const HeadPass& p, int64_t b, int64_t h, const float* scores, std::vector<uint8_t>& mask_flags) {
    const int64_t bh = b * p.H + h, n = p.L * p.S;
    MatMap scaled = p.map(p.maps.scaled, bh);
    if (!p.plan.mask) {
        scale_scores(p.read(scores), p.scale, scaled);
        p.round(scaled.data(), n);
        return scaled.data();
    }
    mask_flags.assign(static_cast<size_t>(p.L), 0);
    MatMap masked = p.map(p.maps.masked, bh);
    if (p.plan.mask_before_scale) {  // mask the raw scores, then scale (the fill is scaled too)
        apply_masks(p.masks, p.read(scores), b, h, masked, mask_flags.data());
        p.round(masked.data(), n);
        scale_scores(p.read(masked.data()), p.scale, scaled);
        p.round(scaled.data(), n);
        return scaled.data();
    }
    scale_scores(p.read(scores), p.scale, scaled);
    p.round(scaled.data(), n);
    apply_masks(p.masks, p.read(scaled.data()), b, h, masked, mask_flags.data());
    p.round(masked.data(), n);
    return masked.data();
}

// Head (b, h)'s weights after dropout: torch's replayed (B, H, L, S) keep mask, kept
// cells times torch's factor, or the head's own seeded stream.
const float* drop(const HeadPass& p, int64_t b, int64_t h, const float* weights) {
    const int64_t bh = b * p.H + h, n = p.L * p.S;
    MatMap dropped = p.map(p.maps.dropped, bh);
    if (p.replay_dropout) {
        const uint8_t* keep = p.c.dropout_keep.data() + bh * n;
        const float factor = torch_dropout_scale(p.c.dropout);
        for (int64_t i = 0; i < n; ++i) dropped.data()[i] = keep[i] ? weights[i] * factor : 0.0f;
    } else {
        Rng rng = dropout_stream(p.c.dropout_seed, b, h);
        dropout(p.read(weights), p.c.dropout, rng, dropped);
    }
    p.round(dropped.data(), n);
    return dropped.data();
}

// Head bh = b * H + h: scores -> scale, mask -> softmax -> dropout -> weighted sum.
void attend_one_head(const HeadPass& p, int64_t bh) {
    const int64_t b = bh / p.H, h = bh % p.H, L = p.L;
    const Mat q_h = head_block(p.q, b, h);  // (L, d_h)
    const Mat k_h = head_block(p.k, b, h);  // (S, d_h)
    const Mat v_h = head_block(p.v, b, h);  // (S, d_h)
    MatMap scores = p.map(p.maps.scores, bh);
    attention_scores(q_h, k_h, scores);
    p.round(scores.data(), L * p.S);
    std::vector<uint8_t> mask_flags;  // (L): rows the masks leave without a key
    const float* softmax_input = scale_and_mask(p, b, h, scores.data(), mask_flags);
    MatMap weights = p.map(p.maps.weights, bh);
    uint8_t* flags = p.maps.fully_masked.data() + bh * L;
    softmax_rows(p.read(softmax_input), weights, flags);  // in float32, then rounded (as Llama casts)
    p.round(weights.data(), L * p.S);
    for (size_t i = 0; i < mask_flags.size(); ++i) flags[i] |= mask_flags[i];
    const float* attended = p.plan.dropout ? drop(p, b, h, weights.data()) : weights.data();
    MatMap context(p.maps.context.mutable_data() + bh * L * p.dh, L, p.dh);
    weighted_sum(p.read(attended), v_h, context);
    p.round(context.data(), L * p.dh);
}

}  // namespace

// ---------------------------------------------------------------------------
// [3] Every head
// ---------------------------------------------------------------------------

HeadMaps attend_per_head(const AttentionConfig& c, const ForwardPlan& plan, const Masks& masks, const Tensor& q,
                         const Tensor& k, const Tensor& v) {
    HeadMaps maps;
    const int64_t B = c.batch, H = c.H(), L = q.dim(2), S = k.dim(2), dh = c.head_dim();  // L: the block's rows
    // torch's replayed mask when it covers every (b, h, i, j); the seeded streams otherwise.
    const bool replay_dropout = plan.dropout && static_cast<int64_t>(c.dropout_keep.size()) == B * H * L * S;
    const HeadPass pass{c, plan, masks, q, k, v, maps, H, L, S, dh, c.scale_factor(), replay_dropout};
    maps = allocate_maps(pass);
    const int64_t work_per_head = L * S * dh;  // multiply-adds of one head's scores
    for_each_head(B * H, [&pass](int64_t bh) { attend_one_head(pass, bh); }, work_per_head);
    return maps;
}

}  // namespace attn
