// The attention forward, written once, as a sequence of named steps (the way llm.c's
// gpt2_forward reads). Sections:
//   [1] Recording            StepRecorder: the plan's rows (core/forward_plan.h), each given
//                            its tensor; the trace lists them in the plan's order
//   [2] Parameters, inputs   rounded to the compute dtype as .to(dtype) does, recorded
//   [3] q, k, v into heads   the plan's QkvSource, over a table of the three roles
//   [4] RoPE, cache, repeat  q and k rotated; a block's k and v appended to the KV cache;
//                            key/value heads copied to their query heads
//   [5] Per-head maps        computed by core/attend_heads.cpp, recorded here
//   [6] Heads joined, out    (B, H, L, d_h) -> (B, L, E) -> the output projection
//   [7] run_attention        the forward itself: the sections above, in order; and
//                            run_attention_block, a block of rows against the KV cache
#include "core/attention.h"

#include <algorithm>
#include <cassert>

#include "core/attend_heads.h"
#include "core/bind_mask.h"
#include "core/extra_keys.h"
#include "core/forward_plan.h"
#include "core/head_average.h"
#include "core/ops.h"
#include "core/repeat_kv.h"
#include "core/rope.h"

namespace attn {
namespace {

// ---------------------------------------------------------------------------
// [1] Recording
// ---------------------------------------------------------------------------

// The trace being written: one step per row of the plan, in the plan's order, with the
// row's kind and sources. The forward hands each step its tensor in the order its data
// allows; finish() checks every step got one and marks the views.
struct StepRecorder {
    Trace trace;

    StepRecorder(const AttentionConfig& config, const ForwardPlan& plan) {
        trace.config = config;
        for (PlannedStep& row : planned_step_rows(plan)) {
            Step step;
            step.id = row.id;
            step.kind = row.kind;
            step.sources = std::move(row.sources);
            trace.steps.push_back(std::move(step));
        }
    }

    // Step `id`'s tensor and where its numbers came from; returns the recorded tensor
    // (stable: no step is added after the constructor).
    const Tensor& put(StepId id, Tensor tensor, Provenance provenance = {}) {
        const int i = trace.index_of(id);
        assert(i >= 0 && "the forward computed a step its plan does not list (core/forward_plan.cpp)");
        Step& step = trace.steps[static_cast<size_t>(i)];
        step.tensor = std::move(tensor);
        step.provenance = std::move(provenance);
        return step.tensor;
    }

    Trace finish() && {
        for (Step& step : trace.steps) {
            assert(!step.tensor.empty() && "the forward must compute every planned step");
            const Step* primary = step.has_primary_source() ? trace.find(step.primary_source()) : nullptr;
            step.is_view = primary && step.tensor.shares_storage_with(primary->tensor);
        }
        return std::move(trace);
    }
};

Provenance made_by(WeightId weight, bool per_head = false) {
    Provenance p;
    p.has_weight = true;
    p.weight = weight;
    p.per_head = per_head;
    return p;
}

Provenance permuted(std::vector<int> permutation) {
    Provenance p;
    p.permutation = std::move(permutation);
    return p;
}

// ---------------------------------------------------------------------------
// [2] Parameters and inputs
// ---------------------------------------------------------------------------

// The query rows this forward computes: L, or a block's rows against the cache.
int64_t query_rows(const Trace& t) { return t.block.count > 0 ? t.block.count : t.config.L(); }

// The emulated dtype's rounding of a whole tensor, in place (nothing for float32).
Tensor rounded(Tensor t, DType dtype) {
    if (dtype != DType::Float32) round_to_dtype_in_place(dtype, t.mutable_data(), t.numel());
    return t;
}

// The parameters the forward multiplies by: the given ones, or for a lower dtype a
// rounded copy, so the caller's stay as they were.
std::shared_ptr<const AttentionWeights> rounded_parameters(std::shared_ptr<const AttentionWeights> given, DType dtype) {
    if (dtype == DType::Float32) return given;
    auto copy = std::make_shared<AttentionWeights>(*given);
    AttentionWeights& w = *copy;
    for (Mat* m : {&w.w_q, &w.w_k, &w.w_v, &w.w_o}) round_to_dtype_in_place(dtype, m->data(), m->size());
    for (Vec* v : {&w.b_q, &w.b_k, &w.b_v, &w.b_o, &w.bias_k, &w.bias_v}) round_to_dtype_in_place(dtype, v->data(), v->size());
    return copy;
}

// Three tensors, one per role: what q, k, v are projected from, their projections, or
// their heads.
struct Qkv {
    Tensor q, k, v;
    Tensor& of(int part) { return part == 0 ? q : part == 1 ? k : v; }
    const Tensor& of(int part) const { return part == 0 ? q : part == 1 ? k : v; }
};

// A given input as the forward reads it: contiguous (a copy for a lower dtype, so the
// rounding never reaches the caller's tensor), with its roles, rounded.
Tensor input_tensor(const Tensor& given, std::vector<int64_t> shape, std::vector<DimRole> roles, DType dtype) {
    return rounded(given.contiguous(dtype != DType::Float32).view(std::move(shape), std::move(roles)), dtype);
}

// X (B, L, d_in), and for cross-attention X_k (B, S, kdim) and X_v (B, S, vdim):
// what q, k and v are projected from.
// A block against the cache reads its own rows of X only.
Qkv record_inputs(StepRecorder& rec, const ForwardPlan& plan, const AttentionInputs& inputs) {
    const AttentionConfig& c = rec.trace.config;
    const int64_t B = c.batch, L = c.L(), S = c.S();
    const std::vector<DimRole> roles = {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding};
    const QueryBlock& block = rec.trace.block;
    const Tensor query = block.count == 0 ? inputs.query
                                          : inputs.query.contiguous().view({B, L, c.d_in()}, roles).narrow(1, block.first, block.count);
    const Tensor& x = rec.put(StepId::Input, input_tensor(query, {B, query_rows(rec.trace), c.d_in()}, roles, c.dtype));
    if (!plan.cross) return {x, x, x};
    return {x,
            rec.put(StepId::KeyInput, input_tensor(inputs.key, {B, S, c.key_dim()},
                                                   {DimRole::Batch, DimRole::KeyPos, DimRole::KeyFeature}, c.dtype)),
            rec.put(StepId::ValueInput, input_tensor(inputs.value, {B, S, c.value_dim()},
                                                     {DimRole::Batch, DimRole::KeyPos, DimRole::ValueFeature}, c.dtype))};
}

// ---------------------------------------------------------------------------
// [3] q, k, v into heads
// ---------------------------------------------------------------------------

// What differs between q, k and v: their steps, weight and row role.
struct QkvRole {
    StepId projected, split, heads;
    WeightId weight;
    DimRole position;  // L for queries, S for keys and values
    int part;          // column block inside the fused qkv
};
constexpr QkvRole kQkvRoles[3] = {
    {StepId::Q, StepId::QSplit, StepId::QHeads, WeightId::Wq, DimRole::QueryPos, 0},
    {StepId::K, StepId::KSplit, StepId::KHeads, WeightId::Wk, DimRole::KeyPos, 1},
    {StepId::V, StepId::VSplit, StepId::VHeads, WeightId::Wv, DimRole::KeyPos, 2},
};

// Stacked: H small projections per role, the heads born separate.   -> (B, H, N, d_h) each
Qkv project_per_head(StepRecorder& rec, const AttentionWeights& w, const Qkv& inputs) {
    const AttentionConfig& c = rec.trace.config;
    Qkv heads;
    for (const QkvRole& r : kQkvRoles) {
        const LinearParams p = linear_params(w, r.weight);
        heads.of(r.part) = rec.put(r.heads, rounded(per_head_linear(inputs.of(r.part), p.weight, p.bias, c.H(), r.position), c.dtype),
                                   made_by(r.weight, true));
    }
    return heads;
}

// Fused: one (3E, d_in) projection, q, k and v its column slices (views); computed as the
// three products side by side (linear_parts), so its numbers are split's.   -> (B, L, E) each
Qkv project_fused(StepRecorder& rec, const AttentionWeights& w, const Tensor& x) {
    const AttentionConfig& c = rec.trace.config;
    const int64_t E = c.E();
    Vec b_qkv;
    if (w.has_bias()) {
        b_qkv.resize(3 * E);
        b_qkv << w.b_q, w.b_k, w.b_v;
    }
    const Tensor& qkv = rec.put(StepId::Qkv, rounded(linear_parts(x, {w.w_q, w.w_k, w.w_v}, b_qkv, {DimRole::Batch, DimRole::QueryPos, DimRole::FusedQkv}), c.dtype),
                                made_by(WeightId::Wqkv));
    Qkv projected;
    for (const QkvRole& r : kQkvRoles) {
        Provenance slice;
        slice.column = r.part * E;
        slice.columns = E;
        projected.of(r.part) = rec.put(r.projected, slice_columns(qkv, r.part, E, r.position), slice);
    }
    return projected;
}

// Split: one nn.Linear per role; keys and values get nn.MultiheadAttention's bias_k /
// bias_v row when asked for.   -> (B, L, E), (B, S(+1), H_kv*d_h), (B, S(+1), H_kv*d_h)
Qkv project_separately(StepRecorder& rec, const AttentionWeights& w, const Qkv& inputs) {
    const AttentionConfig& c = rec.trace.config;
    Qkv projected;
    for (const QkvRole& r : kQkvRoles) {
        const LinearParams p = linear_params(w, r.weight);
        Tensor y = rounded(linear(inputs.of(r.part), p.weight, p.bias, {DimRole::Batch, r.position, DimRole::Embedding}), c.dtype);
        Provenance made = made_by(r.weight);
        if (r.part > 0 && c.add_bias_kv) {  // (B, S, W) -> (B, S + 1, W)
            const Vec& row = r.part == 1 ? w.bias_k : w.bias_v;
            y = append_bias_row(y, std::vector<float>(row.data(), row.data() + row.size()));
            made.appended_bias_row = true;
        }
        projected.of(r.part) = rec.put(r.projected, std::move(y), made);
    }
    return projected;
}

// (B, N, H or H_kv, d_h) views, then (B, H or H_kv, N, d_h) with heads first; keys and
// values get add_zero_attn's zero row when asked for (a copy).
Qkv split_into_heads(StepRecorder& rec, const Qkv& projected) {
    const AttentionConfig& c = rec.trace.config;
    Qkv split, heads;
    for (const QkvRole& r : kQkvRoles)
        split.of(r.part) = rec.put(r.split, split_heads(projected.of(r.part), r.part == 0 ? c.H() : c.H_kv(), r.position),
                                   permuted({0, 1, 2, 2}));
    for (const QkvRole& r : kQkvRoles) {
        Tensor t = swap_heads_and_positions(split.of(r.part));
        Provenance moved = permuted({0, 2, 1, 3});
        if (r.part > 0 && c.add_zero_attn) {  // (B, H_kv, S, d_h) -> (B, H_kv, S + 1, d_h)
            t = append_zero_row(t);
            moved.appended_zero_row = true;
        }
        heads.of(r.part) = rec.put(r.heads, std::move(t), moved);
    }
    return heads;
}

// q (B, H, L, d_h); k and v (B, H_kv, S_total, d_h), as the plan's variant makes them.
Qkv project_into_heads(StepRecorder& rec, const ForwardPlan& plan, const AttentionWeights& w, const Qkv& inputs) {
    switch (plan.qkv) {
        case QkvSource::PerHeadProjections: return project_per_head(rec, w, inputs);
        case QkvSource::FusedThenSlices: return split_into_heads(rec, project_fused(rec, w, inputs.q));
        case QkvSource::SeparateProjections: break;
    }
    return split_into_heads(rec, project_separately(rec, w, inputs));
}

// ---------------------------------------------------------------------------
// [4] RoPE and repeat_kv
// ---------------------------------------------------------------------------

// A (rows, cols) matrix as a tensor with the given roles.
Tensor tensor_of(const Mat& m, std::vector<DimRole> roles) {
    Tensor t = Tensor::uninitialized({m.rows(), m.cols()}, std::move(roles));
    std::copy(m.data(), m.data() + m.size(), t.mutable_data());
    return t;
}

// The (L, d_h) cos and sin tables, then q and k turned by them. A block against the cache
// turns its rows by their absolute positions (its first row's onwards).
void rotate(StepRecorder& rec, Qkv& heads) {
    const AttentionConfig& c = rec.trace.config;
    const RopeTables tables = rope_tables(query_rows(rec.trace), c.head_dim(), c.rope_base,
                                          c.position_offset + rec.trace.block.first, c.rope_style);
    const std::vector<DimRole> table_roles = {DimRole::QueryPos, DimRole::HeadDim};
    rec.put(StepId::RopeCos, rounded(tensor_of(tables.cos, table_roles), c.dtype));
    rec.put(StepId::RopeSin, rounded(tensor_of(tables.sin, table_roles), c.dtype));
    heads.q = rec.put(StepId::QRot, apply_rope(heads.q, tables, c.rope_style, c.dtype));
    heads.k = rec.put(StepId::KRot, apply_rope(heads.k, tables, c.rope_style, c.dtype));
}

// The block's keys (after RoPE) and values appended to the cache of the earlier
// positions; attention then reads every cached position.
// (B, H_kv, n, d_h) each -> (B, H_kv, S_t, d_h), views of the cache
void append_to_cache(StepRecorder& rec, Qkv& heads, KvCache& cache) {
    cache.append(heads.k, heads.v);
    heads.k = rec.put(StepId::KCache, cache.keys());
    heads.v = rec.put(StepId::VCache, cache.values());
}

// Grouped-query attention: each key/value head copied to the query heads of its group.
// (B, H_kv, S, d_h) -> (B, H, S, d_h)
void repeat_kv_heads(StepRecorder& rec, Qkv& heads) {
    const int H = rec.trace.config.H();
    heads.k = rec.put(StepId::KRepeated, repeat_kv(heads.k, H));
    heads.v = rec.put(StepId::VRepeated, repeat_kv(heads.v, H));
}

// ---------------------------------------------------------------------------
// [5] Per-head maps
// ---------------------------------------------------------------------------

// What the mask step applied: the configuration's mask and lengths, and whether a
// caller's painted cells were combined in.
Provenance mask_applied(const AttentionConfig& c, bool custom_mask) {
    Provenance applied;
    applied.mask = c.mask;
    if (!c.mask_spec().valid_lengths.empty()) applied.valid_lengths = c.valid_lengths;
    applied.custom_mask = custom_mask;
    return applied;
}

// The per-head maps as the plan's steps; returns the recorded context (B, H, L, d_h).
Tensor record_maps(StepRecorder& rec, const ForwardPlan& plan, HeadMaps maps, bool custom_mask) {
    const AttentionConfig& c = rec.trace.config;
    rec.put(StepId::AttnScores, std::move(maps.scores));
    rec.put(StepId::AttnScaled, std::move(maps.scaled));
    if (plan.mask) rec.put(StepId::AttnMasked, std::move(maps.masked), mask_applied(c, custom_mask));
    const Tensor* returned = &rec.put(StepId::AttnWeights, std::move(maps.weights));  // steps never move
    if (plan.dropout) returned = &rec.put(StepId::AttnDropped, std::move(maps.dropped));
    // The head mean of the weights nn.MultiheadAttention returns: after dropout (torch 1.13's
    // multi_head_attention_forward drops before it averages).
    if (plan.average) rec.put(StepId::AttnWeightsAvg, rounded(average_heads(*returned), c.dtype));
    rec.trace.fully_masked_rows = std::move(maps.fully_masked);
    return rec.put(StepId::Context, std::move(maps.context));
}

// ---------------------------------------------------------------------------
// [6] Heads joined, output projection
// ---------------------------------------------------------------------------

// (B, H, L, d_h) -> (B, L, E): a transpose then .contiguous().view(), or torch.cat of the
// heads' (B, L, d_h) outputs along the last dimension.
Tensor join_heads(StepRecorder& rec, const ForwardPlan& plan, const Tensor& context) {
    switch (plan.join) {
        case HeadJoin::TransposeContiguousView: {
            const Tensor& tokens_first = rec.put(StepId::ContextSplit, swap_heads_and_positions(context), permuted({0, 2, 1, 3}));
            return rec.put(StepId::Concat, merge_heads(tokens_first));
        }
        case HeadJoin::Cat: break;
    }
    return rec.put(StepId::Concat, merge_heads(swap_heads_and_positions(context)), permuted({0, 2, 1}));
}

// concat W_o^T + b_o.   (B, L, E) -> (B, L, E)
const Tensor& project_out(StepRecorder& rec, const AttentionWeights& w, const Tensor& concat) {
    return rec.put(StepId::Out, rounded(linear(concat, w.w_o, w.b_o, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding}), rec.trace.config.dtype),
                   made_by(WeightId::Wo));
}

// The checks before any arithmetic: weights given, a valid configuration, inputs and
// weights of its shapes, a caller's mask of (L, S) cells.
Status check_forward(const AttentionConfig& c, const AttentionWeights* weights, const AttentionInputs& inputs,
                     const std::vector<uint8_t>& custom_mask) {
    if (!weights) return Status::failure(Message::internal("no weights given"));
    if (Status s = validate(c); !s) return s;
    if (Status s = check_shapes(c, *weights, inputs); !s) return s;
    if (!custom_mask.empty() && custom_mask.size() != static_cast<size_t>(c.L()) * static_cast<size_t>(c.S()))
        return Status::failure(Message("error.attention.custom_mask_size"));
    return ok_status();
}

// The forward, for the whole pass (cache null) or a block of rows against the cache.
Result<Trace> forward(const AttentionConfig& c, std::shared_ptr<const AttentionWeights> weights, const AttentionInputs& inputs,
                      const std::vector<uint8_t>& custom_mask, KvCache* cache, QueryBlock block) {
    FlushDenormals flush;
    const Result<BoundMask> mask = bind_mask(c);  // bound to the whole (L, S): a block reads its rows
    if (!mask) return Result<Trace>::failure(mask.message());
    const ForwardPlan plan = plan_for(c, !custom_mask.empty(), cache != nullptr);
    StepRecorder rec(c, plan);
    rec.trace.block = block;
    rec.trace.parameters = rounded_parameters(std::move(weights), c.dtype);  // as .to(dtype) does
    const AttentionWeights& w = rec.trace.weights();

    const Qkv x = record_inputs(rec, plan, inputs);   // X (B, L, d_in); cross: X_k, X_v (B, S, kdim or vdim)
    Qkv heads = project_into_heads(rec, plan, w, x);  // q (B, H, L, d_h); k, v (B, H_kv, S_total, d_h)
    if (plan.rope) rotate(rec, heads);                // q, k turned by position
    if (plan.cache) append_to_cache(rec, heads, *cache);  // k, v (B, H_kv, S_t, d_h): every cached position
    if (plan.repeat_kv) repeat_kv_heads(rec, heads);  // k, v (B, H, S_total, d_h)
    Masks masks = masks_of(c, mask.value(), custom_mask);
    masks.query_offset = block.first;
    HeadMaps maps = attend_per_head(c, plan, masks, heads.q, heads.k, heads.v);  // (B, H, L, S_total) each
    const Tensor context = record_maps(rec, plan, std::move(maps), !custom_mask.empty());  // (B, H, L, d_h)
    const Tensor concat = join_heads(rec, plan, context);                                  // (B, L, E)
    const bool finite = plan.out_proj ? project_out(rec, w, concat).all_finite() : concat.all_finite();

    // Finite inputs can still overflow float32 in a dot product; say so rather than
    // hand the learner a trace full of NaN.
    if (!finite)
        return Result<Trace>::failure(Message(c.dtype == DType::Float16 ? "error.attention.overflow_float16"
                                                                        : "error.attention.overflow_float32"));
    return std::move(rec).finish();
}

// A block's rows inside the pass, and a cache of this configuration's sizes holding every
// earlier position (made, or cut back to them, here).
Status prepare_block(const AttentionConfig& c, KvCache& cache, QueryBlock block) {
    if (Status s = check_decodable(c); !s) return s;
    if (block.first < 0 || block.count < 1 || block.first + block.count > c.L())
        return Status::failure(Message::internal("a block of query rows outside 0 .. L - 1"));
    if (cache.empty() || cache.capacity() < c.L()) cache = KvCache(c.batch, c.H_kv(), c.L(), c.head_dim());
    if (cache.length() < block.first)
        return Status::failure(Message::internal("the KV cache lacks positions before the block"));
    cache.truncate(block.first);
    return ok_status();
}

}  // namespace

// ---------------------------------------------------------------------------
// [7] run_attention
// ---------------------------------------------------------------------------
Result<Trace> run_attention(const AttentionConfig& c, const AttentionWeights& given_weights, const AttentionInputs& inputs,
                            const std::vector<uint8_t>& custom_mask) {
    return run_attention(c, std::make_shared<const AttentionWeights>(given_weights), inputs, custom_mask);
}

Result<Trace> run_attention(const AttentionConfig& c, std::shared_ptr<const AttentionWeights> weights,
                            const AttentionInputs& inputs, const std::vector<uint8_t>& custom_mask) {
    if (Status s = check_forward(c, weights.get(), inputs, custom_mask); !s) return Result<Trace>::failure(s.message());
    return forward(c, std::move(weights), inputs, custom_mask, nullptr, {});
}

Result<Trace> run_attention_block(const AttentionConfig& c, std::shared_ptr<const AttentionWeights> weights,
                                  const AttentionInputs& inputs, KvCache& cache, QueryBlock block,
                                  const std::vector<uint8_t>& custom_mask) {
    if (Status s = check_forward(c, weights.get(), inputs, custom_mask); !s) return Result<Trace>::failure(s.message());
    if (Status s = prepare_block(c, cache, block); !s) return Result<Trace>::failure(s.message());
    return forward(c, std::move(weights), inputs, custom_mask, &cache, block);
}

Result<Trace> run_attention(const AttentionConfig& config) {
    if (Status s = validate(config); !s) return Result<Trace>::failure(s.message());
    return run_attention(config, default_weights(config), default_inputs(config));
}

}  // namespace attn
