// explain_cell for the articles' options. Sections:
//   [1] Scale and mask      every --scale, every mask source and fill, both orders
//   [2] Extra key rows      bias_k / bias_v after the projection, add_zero_attn's zero row
//   [3] RoPE                the cos/sin tables and the rotated coordinates
//   [4] repeat_kv, mean     grouped-query copies and the head-averaged weights
// Every value here was rounded to the compute dtype after its op (attention.cpp); the
// explanations give the unrounded arithmetic and CellExplanation::dtype names the rounding.
#include <cmath>
#include <optional>

#include "core/bind_mask.h"
#include "core/explain_cell_parts.h"
#include "core/mask_spec.h"
#include "core/repeat_kv.h"
#include "core/rope.h"

namespace attn::explain_parts {

// ---------------------------------------------------------------------------
// [1] Scale and mask
// ---------------------------------------------------------------------------

void explain_scale(const Trace& trace, const Step& step, CellExplanation& e) {
    set_operand(trace, e, step.primary_source(), e.cell.index);
    e.rule = CellRule::Scale;
    e.factor = trace.config.scale_factor();
    e.scale_kind = trace.config.scale.kind;
    e.extra_key = extra_key_of_column(trace.config, index_of_role(step.tensor, e.cell.index, DimRole::KeyPos));
}

namespace {

// The configuration's mask as the forward binds it (core/bind_mask.h); empty when the
// configuration has no such source.
std::optional<BoundMask> bound_config_mask(const AttentionConfig& c, MaskSources sources) {
    Result<BoundMask> bound = bind_mask(c, sources);
    if (!bound || !bound->any()) return std::nullopt;
    return std::move(bound).value();
}

// Every preset (and the boolean file) that hides key j from query i of item b, head h.
std::vector<MaskReason> hiding_sources(const AttentionConfig& c, int64_t b, int64_t h, int64_t i, int64_t j,
                                       int& valid_length) {
    const MaskSpec spec = c.mask_spec();
    const MaskPresets& p = spec.presets;
    std::vector<MaskReason> reasons;
    if (!spec.valid_lengths.empty())
        valid_length = spec.valid_lengths.size() == 1 ? spec.valid_lengths[0] : spec.valid_lengths[static_cast<size_t>(b)];
    if (p.causal && j > i) reasons.push_back(MaskReason::Causal);
    if (p.window && (j > i || j <= i - spec.window)) reasons.push_back(MaskReason::Window);
    if (p.padding && j >= valid_length) reasons.push_back(MaskReason::Padding);
    if (p.left_padding && j < c.S() - valid_length) reasons.push_back(MaskReason::LeftPadding);
    if (!spec.file.empty() && spec.file_is_boolean) {
        const std::optional<BoundMask> file = bound_config_mask(c, MaskSources::FileOnly);
        if (file && file->is_masked(b, h, i, j)) reasons.push_back(MaskReason::FileBoolean);
    }
    return reasons;
}

}  // namespace

// Torch's order (core/mask_spec.h): masked = score + float addend, then the fill where a
// boolean source hides the key; the appended key columns pass unchanged; a caller's
// painted (L, S) mask writes the same fill.
void explain_mask(const Trace& trace, const Step& step, CellExplanation& e) {
    set_operand(trace, e, step.primary_source(), e.cell.index);
    const AttentionConfig& c = trace.config;
    const Provenance& p = step.provenance;
    e.mask_kind = p.mask;
    e.window = c.window;
    e.mask_fill = round_to_dtype(c.dtype, mask_fill_value(c.mask_fill, c.dtype));
    const int64_t b = index_of_role(step.tensor, e.cell.index, DimRole::Batch);
    const int64_t h = index_of_role(step.tensor, e.cell.index, DimRole::Head);
    // The query's row in the whole (L, S) mask: a block against the cache starts at its first row.
    const int64_t i = index_of_role(step.tensor, e.cell.index, DimRole::QueryPos) + trace.block.first;
    const int64_t j = index_of_role(step.tensor, e.cell.index, DimRole::KeyPos);
    e.extra_key = extra_key_of_column(c, j);
    e.rule = CellRule::MaskKept;
    if (e.extra_key != ExtraKeyKind::None) return;  // no mask reaches the appended columns
    const std::optional<BoundMask> bound = bound_config_mask(c, MaskSources::All);
    if (bound && bound->is_masked(b, h, i, j)) {
        e.rule = CellRule::MaskFilled;
        e.mask_reasons = hiding_sources(c, b, h, i, j, e.valid_length);
    } else if (p.custom_mask && e.value == e.mask_fill) {
        // Only the caller knows its painted cells; a fill the configuration does not explain is theirs.
        e.rule = CellRule::MaskFilled;
        e.mask_reasons = {MaskReason::Custom};
    } else if (bound && bound->additive(b, h, i, j) != 0.0f) {
        e.rule = CellRule::MaskAdded;
        e.mask_addend = bound->additive(b, h, i, j);
        if (e.mask_addend <= kFloatMaskHidesKey) e.mask_reasons = {MaskReason::FileFloat};
    }
    if (!e.mask_reasons.empty()) e.mask_reason = e.mask_reasons.front();
}

// ---------------------------------------------------------------------------
// [2] Extra key rows
// ---------------------------------------------------------------------------

bool explain_extra_key_row(const Trace& trace, const Step& step, CellExplanation& e) {
    const Provenance& p = step.provenance;
    const std::vector<int64_t>& idx = e.cell.index;
    if (p.appended_bias_row && idx.size() == 3 && idx[1] == step.tensor.dim(1) - 1) {
        // K / V (B, S + 1, W): row S is bias_k / bias_v itself, the same for every item.
        const Vec& row = step.id == StepId::K ? trace.weights().bias_k : trace.weights().bias_v;
        e.rule = CellRule::ExtraKey;
        e.extra_key = ExtraKeyKind::BiasKv;
        e.operand_value = row(idx[2]);
        return true;
    }
    if (p.appended_zero_row && idx.size() == 4 && idx[2] == step.tensor.dim(2) - 1) {
        e.rule = CellRule::ExtraKey;
        e.extra_key = ExtraKeyKind::ZeroAttn;
        e.operand_value = 0.0f;
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------
// [3] RoPE
// ---------------------------------------------------------------------------

namespace {
// Row n's angle for column c, as rope_tables computes it (core/rope.cpp); a block against
// the KV cache starts at its first row's absolute position.
void rope_angle(const Trace& trace, int64_t n, int64_t column, int64_t head_dim, CellExplanation& e) {
    const AttentionConfig& c = trace.config;
    e.rope.position = c.position_offset + trace.block.first + n;
    e.rope.frequency = rope_frequency(column, head_dim, c.rope_style);
    e.rope.inv_freq = rope_inv_freq(e.rope.frequency, head_dim, c.rope_base);
    e.rope.angle = static_cast<float>(e.rope.position) * e.rope.inv_freq;
}
}  // namespace

// rope_cos[n, c] = cos(angle), rope_sin[n, c] = sin(angle): nothing recorded before them.
void explain_rope_table(const Trace& trace, const Step& step, CellExplanation& e) {
    rope_angle(trace, e.cell.index[0], e.cell.index[1], step.tensor.dim(1), e);
    e.rope.sine = step.id == StepId::RopeSin;
    e.rule = CellRule::RopeAngle;
}

// x_rot[c] = x[c] * cos[n, c] + sign * x[partner] * sin[n, c] (apply_rope in core/rope.cpp:
// each product rounded to the dtype, then their sum).
void explain_rotation(const Trace& trace, const Step& step, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;  // (b, h, n, c)
    const StepId x_step = step.sources[0], cos_step = step.sources[1], sin_step = step.sources[2];
    const int64_t n = idx[2], c = idx[3], head_dim = step.tensor.dim(3);
    const DType dtype = trace.config.dtype;
    rope_angle(trace, n, c, head_dim, e);
    e.rope.partner = rope_partner(c, head_dim, trace.config.rope_style, &e.rope.sign);
    const Tensor& x = tensor_of(trace, x_step);
    Term along, across;
    along.k = c;
    along.a = CellAddress::of_step(x_step, idx);
    along.b = CellAddress::of_step(cos_step, {n, c});
    across.k = e.rope.partner;
    across.a = CellAddress::of_step(x_step, {idx[0], idx[1], n, e.rope.partner});
    across.b = CellAddress::of_step(sin_step, {n, c});
    along.a_value = x.at(along.a.index);
    along.b_value = tensor_of(trace, cos_step).at(along.b.index);
    across.a_value = x.at(across.a.index);
    across.b_value = tensor_of(trace, sin_step).at(across.b.index);
    along.value = round_to_dtype(dtype, along.a_value * along.b_value);
    across.value = round_to_dtype(dtype, (e.rope.sign * across.a_value) * across.b_value);
    e.operand = along.a;
    e.operand_value = along.a_value;
    e.highlights = {{x_step, {along.a.index, across.a.index}}, {cos_step, {along.b.index}}, {sin_step, {across.b.index}}};
    e.terms = {along, across};
    e.term_count = 2;
    e.sum = static_cast<double>(along.value + across.value);  // the float32 sum the core rounds
    e.rule = CellRule::Rotation;
}

// ---------------------------------------------------------------------------
// [4] repeat_kv and the head mean
// ---------------------------------------------------------------------------

// k_repeated[b, h, s, d] = k[b, h / group, s, d] (core/repeat_kv.h).
void explain_repeat(const Trace& trace, const Step& step, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;
    const StepId src = step.primary_source();
    const int H = trace.config.H(), kv_heads = static_cast<int>(tensor_of(trace, src).dim(1));
    e.kv_head = kv_head_of(static_cast<int>(idx[1]), H, kv_heads);
    e.group_size = H / kv_heads;
    set_operand(trace, e, src, {idx[0], e.kv_head, idx[2], idx[3]});
    e.rule = CellRule::Repeat;
}

// k_cache / v_cache[b, g, s, c]: the block's own positions are its k (after RoPE) or v,
// moved into the cache; earlier positions were computed by the step that first saw them.
void explain_cache(const Trace& trace, const Step& step, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;
    e.block_first = trace.block.first;
    if (idx[2] >= e.block_first) {
        set_operand(trace, e, step.primary_source(), {idx[0], idx[1], idx[2] - e.block_first, idx[3]});
        e.rule = CellRule::Move;
        return;
    }
    e.cached_position = idx[2];
    e.rule = CellRule::Cached;
}

// avg[b, l, s] = (sum over h of weights[b, h, l, s]) / H, summed in float in head order
// and divided once, as core/head_average.cpp does.
void explain_head_mean(const Trace& trace, const Step& step, const ExplainOptions& options, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;  // (b, l, s)
    const StepId src = step.primary_source();
    const Tensor& weights = tensor_of(trace, src);
    const int64_t H = weights.dim(1);
    std::vector<Term> terms;
    StepCells cells{src, {}};
    float sum = 0.0f;
    for (int64_t h = 0; h < H; ++h) {
        Term t;
        t.k = h;
        t.a = CellAddress::of_step(src, {idx[0], h, idx[1], idx[2]});
        t.a_value = weights.at(t.a.index);
        t.value = t.a_value;
        sum += t.value;
        terms.push_back(t);
        cells.cells.push_back(t.a.index);
    }
    keep_terms(std::move(terms), options, e);
    e.sum = sum;
    e.divisor = static_cast<int>(H);
    e.highlights.push_back(std::move(cells));
    e.rule = CellRule::Mean;
}

}  // namespace attn::explain_parts
