#include "core/config.h"
#include "core/bind_mask.h"
#include "core/forward_plan.h"
#include "core/repeat_kv.h"

#include <cmath>
#include <cstdio>

namespace attn {

const char* to_string(MaskKind mask) {
    switch (mask) {
        case MaskKind::None: return "none";
        case MaskKind::Causal: return "causal";
        case MaskKind::Padding: return "padding";
    }
    return "?";
}

const char* to_string(Variant variant) {
    switch (variant) {
        case Variant::Split: return "split";
        case Variant::Stacked: return "stacked";
        case Variant::Fused: return "fused";
    }
    return "?";
}

Result<MaskKind> parse_mask(const std::string& text) {
    if (text == "none") return MaskKind::None;
    if (text == "causal") return MaskKind::Causal;
    if (text == "padding") return MaskKind::Padding;
    return Result<MaskKind>::failure(Message("error.config.unknown_mask", {{"text", text}}));
}

Result<Variant> parse_variant(const std::string& text) {
    if (text == "split") return Variant::Split;
    if (text == "stacked") return Variant::Stacked;
    if (text == "fused") return Variant::Fused;
    return Result<Variant>::failure(Message("error.config.unknown_variant", {{"text", text}}));
}

const char* to_string(InitKind init) {
    switch (init) {
        case InitKind::Attnviz: return "attnviz";
        case InitKind::Torch: return "torch";
    }
    return "?";
}

Result<InitKind> parse_init(const std::string& text) {
    if (text == "attnviz") return InitKind::Attnviz;
    if (text == "torch") return InitKind::Torch;
    return Result<InitKind>::failure(Message("error.config.unknown_init", {{"text", text}}));
}

Result<ScaleChoice> parse_scale(const std::string& text) {
    ScaleChoice scale;
    if (text == "head") return scale;
    if (text == "hidden") { scale.kind = ScaleKind::Hidden; return scale; }
    if (text == "none") { scale.kind = ScaleKind::None; return scale; }
    try {
        size_t used = 0;
        const float value = std::stof(text, &used);
        if (used == text.size() && std::isfinite(value)) {
            scale.kind = ScaleKind::Value;
            scale.value = value;
            return scale;
        }
    } catch (const std::exception&) {
    }
    return Result<ScaleChoice>::failure(Message("error.config.unknown_scale", {{"text", text}}));
}

std::string to_string(const ScaleChoice& scale) {
    switch (scale.kind) {
        case ScaleKind::Head: return "head";
        case ScaleKind::Hidden: return "hidden";
        case ScaleKind::None: return "none";
        case ScaleKind::Value: {
            char text[32];
            std::snprintf(text, sizeof text, "%.9g", static_cast<double>(scale.value));
            return text;
        }
    }
    return "?";
}

MaskSpec AttentionConfig::mask_spec() const {
    MaskSpec spec;
    spec.presets = mask_presets;
    if (mask == MaskKind::Causal) spec.presets.causal = true;
    if (mask == MaskKind::Padding) spec.presets.padding = true;
    spec.valid_lengths = valid_lengths;
    spec.window = window;
    spec.file = mask_file;
    spec.file_is_boolean = mask_file_is_boolean;
    spec.fill = mask_fill;
    return spec;
}

bool AttentionConfig::has_mask() const { return mask != MaskKind::None || mask_presets.any() || !mask_file.empty(); }

float AttentionConfig::scale_factor() const {
    switch (scale.kind) {
        case ScaleKind::Head: return 1.0f / std::sqrt(static_cast<float>(head_dim()));
        case ScaleKind::Hidden: return 1.0f / std::sqrt(static_cast<float>(hidden_dim));
        case ScaleKind::None: return 1.0f;
        case ScaleKind::Value: return scale.value;
    }
    return 1.0f;
}

bool AttentionConfig::is_cross() const {
    return cross_attention || S() != L() || key_dim() != d_in() || value_dim() != d_in();
}

std::vector<int> nearest_valid_heads(int hidden_dim, int num_heads) {
    std::vector<int> out;
    if (hidden_dim < 1) return out;
    for (int h = std::min(num_heads, hidden_dim); h >= 1; --h)
        if (hidden_dim % h == 0) { out.push_back(h); break; }
    for (int h = std::max(num_heads, 1); h <= hidden_dim; ++h)
        if (hidden_dim % h == 0) {
            if (out.empty() || out.back() != h) out.push_back(h);
            break;
        }
    return out;
}

std::vector<int> nearest_valid_hidden(int hidden_dim, int num_heads) {
    std::vector<int> out;
    if (num_heads < 1) return out;
    const int below = (hidden_dim / num_heads) * num_heads;
    if (below >= num_heads) out.push_back(below);
    const int above = below == hidden_dim ? below : below + num_heads;
    if (out.empty() || out.back() != above) out.push_back(above);
    return out;
}

std::string format_bytes(uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 5) { value /= 1024.0; ++unit; }
    char text[32];
    if (unit == 0) std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
    else std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return text;
}

// The length of one dimension of a planned step, from its table row's roles (StepInfo::dims).
static double dim_length(DimRole role, const PlannedStep& step, const AttentionConfig& c) {
    const StepInfo& row = step_info(step.id);
    switch (role) {
        case DimRole::Batch: return c.batch;
        case DimRole::QueryPos: return c.L();
        case DimRole::KeyPos:  // the inputs' S keys; bias_k's row from the projections on; add_zero_attn's from the heads on
            if (step.kind == StepKind::Input) return c.S();
            if (step.kind == StepKind::Projection || step.kind == StepKind::Slice || step.kind == StepKind::View)
                return c.S() + (c.add_bias_kv ? 1 : 0);
            return c.S_total();
        case DimRole::Head: return row.holds_kv_heads() ? c.H_kv() : c.H();
        case DimRole::HeadDim: return c.head_dim();
        case DimRole::Embedding:  // the input X is d_in wide; k and v are the H_kv heads' width
            if (step.kind == StepKind::Input) return c.d_in();
            return row.holds_kv_heads() ? c.kv_width() : c.E();
        case DimRole::FusedQkv: return 3.0 * c.E();
        case DimRole::KeyFeature: return c.key_dim();
        case DimRole::ValueFeature: return c.value_dim();
        case DimRole::Vocabulary:
        case DimRole::Other: return 0;  // a trained model's steps: never in an attention plan
    }
    return 0;
}

// Floats a planned step owns: its dimensions' product, or 0 for a view of its source's
// buffer (a transpose that appends add_zero_attn's row copies). In double so absurd sizes
// cannot overflow before they are refused.
static double owned_floats(const PlannedStep& step, const AttentionConfig& c) {
    const StepInfo& row = step_info(step.id);
    const bool appends_zero_row = step.kind == StepKind::Transpose && row.holds_kv_heads() && c.add_zero_attn;
    if (views_source(step.kind) && !appends_zero_row) return 0;
    double floats = 1;
    for (int d = 0; d < row.dims.rank; ++d) floats *= dim_length(row.dims.roles[static_cast<size_t>(d)], step, c);
    return floats;
}

// The sum over the steps the forward will record (planned_steps), plus one flag byte
// per query row.
static double estimate_bytes_double(const AttentionConfig& c) {
    double floats = 0;
    for (const PlannedStep& step : planned_step_rows(plan_for(c))) floats += owned_floats(step, c);
    return floats * sizeof(float) + static_cast<double>(c.batch) * c.H() * c.L();
}

static uint64_t to_bytes(double bytes) { return bytes >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(bytes); }

uint64_t estimate_trace_bytes(const AttentionConfig& config) { return to_bytes(estimate_bytes_double(config)); }

// The trace plus the weights, held twice at most (the fused variant stacks a copy).
static double estimate_peak_double(const AttentionConfig& c) {
    const double E = c.E();
    const double kv = c.kv_width();
    const double weight_floats = E * (E + c.d_in()) + kv * (c.key_dim() + c.value_dim()) + 4 * E + 2 * kv;
    return estimate_bytes_double(c) + 2 * weight_floats * sizeof(float);
}

uint64_t estimate_peak_bytes(const AttentionConfig& config) { return to_bytes(estimate_peak_double(config)); }

// Fills and scales that would silently turn the mask into something else.
static Status check_mask_fill_and_scale(const AttentionConfig& c) {
    // float16's largest finite magnitude is 65504: a fill such as -1e20 becomes -inf there
    // (PyTorch refuses such a masked_fill on half tensors), changing how fully masked rows end.
    constexpr float kFloat16Max = 65504.0f;
    // `min` follows the dtype (float16's own lowest); only a fixed number can be too large.
    const bool fixed_number = c.mask_fill.kind == MaskFillKind::Value || c.mask_fill.kind == MaskFillKind::Negative1e20;
    const float fill = mask_fill_value(c.mask_fill, DType::Float32);
    if (c.dtype == DType::Float16 && fixed_number && std::isfinite(fill) && std::fabs(fill) > kFloat16Max)
        return Status::failure(Message("error.config.fill_float16", {{"fill", to_string(c.mask_fill)}}));
    // Masking before scaling multiplies the fill by the scale: 0 x -inf is NaN, and a
    // negative scale turns "never" into "always".
    if (c.mask_before_scale && c.scale.kind == ScaleKind::Value && c.scale.value <= 0.0f) {
        char scale[32];
        std::snprintf(scale, sizeof scale, "%g", static_cast<double>(c.scale.value));
        return Status::failure(Message("error.config.scale_after_mask", {{"scale", scale}, {"fill", to_string(c.mask_fill)}}));
    }
    return ok_status();
}

Status check_decodable(const AttentionConfig& c) {
    if (c.is_cross()) return Status::failure(Message("error.decode.cross"));
    if (c.dropout > 0.0f) return Status::failure(Message("error.decode.dropout"));
    if (c.add_bias_kv || c.add_zero_attn) return Status::failure(Message("error.decode.extra_keys"));
    const MaskPresets presets = c.mask_spec().presets;
    if (!presets.causal && !presets.window) return Status::failure(Message("error.decode.not_causal"));
    return ok_status();
}

// --decode-from P: rows 0..P-1 the prefill, at least one row decoded.
static Status check_decode(const AttentionConfig& c) {
    if (c.decode_from < 1 || c.decode_from > c.L() - 1)
        return Status::failure(Message("error.decode.range", {{"from", c.decode_from}, {"last", c.L() - 1}}));
    return check_decodable(c);
}

Status validate(const AttentionConfig& c) {
    struct Size { const char* name; int value; };
    const Size sizes[] = {{"batch", c.batch},          {"seq_len", c.seq_len},
                          {"hidden_dim", c.hidden_dim}, {"num_heads", c.num_heads}};
    for (const Size& s : sizes)
        if (s.value < 1) return Status::failure(Message("error.config.at_least_one", {{"name", s.name}, {"value", s.value}}));
    const Size optional_sizes[] = {{"kv_len", c.kv_len},           {"kdim", c.kdim},
                                   {"vdim", c.vdim},               {"input_dim", c.input_dim},
                                   {"num_kv_heads", c.num_kv_heads}, {"window", c.window},
                                   {"position_offset", c.position_offset}, {"decode_from", c.decode_from}};
    for (const Size& s : optional_sizes)
        if (s.value < 0) return Status::failure(Message("error.config.at_least_one", {{"name", s.name}, {"value", s.value}}));

    if (c.hidden_dim % c.num_heads != 0)
        return Status::failure(Message("error.config.heads_divide",
                                       {{"hidden_dim", c.hidden_dim},
                                        {"num_heads", c.num_heads},
                                        {"heads", either(nearest_valid_heads(c.hidden_dim, c.num_heads))},
                                        {"hidden", either(nearest_valid_hidden(c.hidden_dim, c.num_heads))}}));
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f))  // also rejects NaN
        return Status::failure(Message("error.config.dropout", {{"value", std::to_string(c.dropout)}}));
    if (c.num_kv_heads > 0)
        if (Status s = check_kv_heads(c.num_heads, c.num_kv_heads); !s) return s;
    if (c.rope) {
        if (Status s = check_rope(c.head_dim(), c.rope_base, c.position_offset); !s) return s;
        if (c.is_cross() || c.add_bias_kv || c.add_zero_attn)
            return Status::failure(Message("error.config.rope_self_only"));
    }
    if (c.scale.kind == ScaleKind::Value && !std::isfinite(c.scale.value))
        return Status::failure(Message("error.config.scale_not_finite"));
    if (c.variant != Variant::Split) {
        const char* name = to_string(c.variant);
        if (c.H_kv() != c.num_heads)
            return Status::failure(Message(c.variant == Variant::Fused ? "error.config.kv_heads_fused" : "error.config.kv_heads_stacked",
                                           {{"variant", name}}));
        if (c.add_bias_kv || c.add_zero_attn)
            return Status::failure(Message("error.config.extra_keys_split", {{"variant", name}}));
    }
    if (c.variant == Variant::Fused && c.is_cross())
        return Status::failure(Message("error.config.fused_self_only"));

    const MaskSpec spec = c.mask_spec();
    const bool uses_lengths = spec.presets.reads_valid_lengths();
    if (uses_lengths) {
        const size_t n = c.valid_lengths.size();
        if (n != 1 && n != static_cast<size_t>(c.batch))
            return Status::failure(Message("error.config.lengths_count", {{"batch", c.batch}, {"count", n}}));
        for (int len : c.valid_lengths)
            if (len < 0 || len > c.S())
                return Status::failure(Message("error.config.length_range", {{"length", len}, {"keys", c.S()}}));
    } else if (!c.valid_lengths.empty()) {
        return Status::failure(Message("error.config.lengths_unused", {{"mask", to_string(spec.presets)}}));
    }
    if (c.has_mask())
        if (Status s = check_mask_fill_and_scale(c); !s) return s;
    if (c.decode_from != 0)
        if (Status s = check_decode(c); !s) return s;
    if (c.has_mask()) {
        // The checks only the bound mask knows (window, file shape and values); lengths were checked above.
        if (Result<BoundMask> bound = bind_mask(c); !bound) return Status::failure(bound.message());
    }

    if (estimate_peak_double(c) > static_cast<double>(c.max_memory_bytes))
        return Status::failure(Message("error.config.memory", {{"needed", format_bytes(estimate_peak_bytes(c))},
                                                                {"budget", format_bytes(c.max_memory_bytes)}}));
    return ok_status();
}

}  // namespace attn
