// The steps a forward can record, declared once: the enumeration StepId and one table,
// kStepTable, with a row per step. Every fact about a step that more than one place needs
// is a column of that row (its file name, kind, side, dimension roles and what the window
// does with it); everything else is derived from the table: kAllStepIds, step_name(),
// parse_step_name() and the questions the GUI asks (step_info(id).holds_kv_heads(), ...).
//
// Adding a step: an enumerator and its row (the static_asserts below check the order). The
// row also says how the forward records it (when, what it reads, the lanes it feeds), so
// the plan (core/forward_plan.cpp) and the memory estimate (core/config.cpp) derive it;
// the compiler (-Wswitch, an error under ATTNVIZ_WERROR) then points at every `switch`
// over StepId that needs a case, all of them in the core and the step text.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include "core/dims.h"

namespace attn {

// Listed in the order a forward records them (not every forward records all of them:
// `qkv` only in the fused variant, `attn_masked` only with a mask, the model steps
// only when a trained model runs (core/model/), ...). Shapes are in kStepTable.
enum class StepId : uint8_t {
    // A trained model's steps before its attention (core/model/):
    Tokens, TokenEmbedding, PositionEmbedding, EmbeddingSum, LayerInput, Norm,
    // The attention forward (core/attention.cpp):
    Input, KeyInput, ValueInput, Qkv, Q, K, V, QSplit, KSplit, VSplit, QHeads, KHeads, VHeads,
    RopeCos, RopeSin, QRot, KRot, KCache, VCache, KRepeated, VRepeated,
    AttnScores, AttnScaled, AttnMasked, AttnWeights, AttnDropped, AttnWeightsAvg,
    Context, ContextSplit, Concat, Out,
    // A trained model's steps after its attention:
    Residual, NextTokenProbs, PredictedTokens,
};
// The last enumerator: the table below must have a row for it and every id before it.
inline constexpr StepId kLastStepId = StepId::PredictedTokens;

// What kind of operation produced a step; the GUI picks its animation from this.
enum class StepKind {
    Input,       // given data
    Projection,  // x W^T + b
    Slice,       // a view of part of another tensor (fused QKV)
    View,        // same bytes, new shape
    Transpose,   // same bytes, strides swapped
    Scores,      // Q K^T per head
    Scale,       // divide by sqrt(d_h)
    Mask,        // -inf where not allowed
    Softmax,     // normalise each row over keys
    Dropout,     // zero some weights, scale survivors
    WeightedSum, // weights @ V
    Concat,      // heads rejoined (contiguous copy + reshape, or torch.cat)
    RopeTable,   // cos or sin of each position's rotation angles (L, d_h)
    Rotation,    // RoPE: coordinate pairs of each head vector turned by their angle
    CacheAppend, // a decode step's key/value rows appended to the cache of earlier positions
    RepeatKv,    // key/value heads copied to the query heads of their group (GQA)
    HeadMean,    // attention weights averaged over heads
    // Steps of a trained model around its attention (core/model/):
    Lookup,      // rows of a table picked by token id or position (embeddings)
    Add,         // element-wise sum (embeddings, the residual connection)
    Norm,        // LayerNorm of each token's vector
    Prediction,  // what the model outputs: next-word probabilities or predicted tokens
};

// Which operand of attention a step is on the way to, read off its position axes:
// Query steps have a query axis (L) and no key axis, Key and Value steps a key axis (S)
// and no query axis, Map steps both (a query row against key columns).
enum class StepSide : uint8_t {
    Query,  // the input X, q and its heads, everything after the maps, the model's own steps
    Key,    // the key input, k and its heads
    Value,  // the value input, v and its heads
    Map,    // the (B, H, L, S) attention maps and their head mean
};
// "Q", "K", "V" for the three operands; "" for Map.
constexpr const char* side_letter(StepSide side) {
    switch (side) {
        case StepSide::Query: return "Q";
        case StepSide::Key: return "K";
        case StepSide::Value: return "V";
        case StepSide::Map: return "";
    }
    return "";
}

// The roles of a step's dimensions, in order (at most four).
struct StepDims {
    std::array<DimRole, 4> roles{};
    int rank = 0;
    constexpr bool has(DimRole role) const {
        for (int d = 0; d < rank; ++d)
            if (roles[static_cast<std::size_t>(d)] == role) return true;
        return false;
    }
};
// dims_of(Batch, Head, QueryPos, KeyPos): the roles of a (B, H, L, S) tensor.
template <typename... Roles>
constexpr StepDims dims_of(Roles... roles) {
    static_assert(sizeof...(Roles) <= 4, "a step has at most four dimensions");
    StepDims dims{};
    for (DimRole role : {roles...}) dims.roles[static_cast<std::size_t>(dims.rank++)] = role;
    return dims;
}

// The note about a trained model's words the window adds on a step (app/gui/display/step_notes.cpp).
enum class ModelNote : uint8_t {
    None,
    UnknownWords,  // the typed words the model does not know
    SameRow,       // a repeated word gets the same embedding row at each position
    SumsDiffer,    // ... but different sums once positions are added
    Prediction,    // what the model predicts from this point on
};

// Facts about a step, one bit each (StepInfo::flags).
namespace step_flag {
inline constexpr uint16_t None = 0;
inline constexpr uint16_t KvHeads = 1u << 0;        // its heads are the H_kv key/value heads
inline constexpr uint16_t Probability = 1u << 1;    // values in 0..1: attention weights, their mean, next-word odds
inline constexpr uint16_t Paintable = 1u << 2;      // the learner may paint mask cells on it (maps before dropout)
inline constexpr uint16_t MaskedRows = 1u << 3;     // shows the mask's effect, so fully masked rows are noted
inline constexpr uint16_t TokenIds = 1u << 4;       // holds token ids, not features
inline constexpr uint16_t Residual = 1u << 5;       // the residual connection: layer input + attention output
inline constexpr uint16_t EditableInput = 1u << 6;  // the query input X, whose cells the window lets the learner type
}  // namespace step_flag

// When the attention forward records a step: the switch of the ForwardPlan
// (core/forward_plan.h) that turns its row on.
enum class StepWhen : uint8_t {
    Model,      // never in a plain attention forward: a trained model's own steps (core/model/)
    Always,
    Cross,      // separate key and value inputs
    Fused,      // the fused variant: one (3E, d_in) projection, q, k and v its slices
    Stacked,    // the stacked variant: each head projected on its own
    Unstacked,  // split and fused: whole-width q, k, v viewed into heads, heads rejoined by a transpose
    Rope,       // RoPE on
    Cache,      // a block of rows against the KV cache (decode)
    RepeatKv,   // fewer key/value heads than query heads
    Mask,       // a mask (the configuration's or a caller's painted cells)
    Dropout,    // dropout p > 0
    Average,    // the head mean of the weights
    OutProj,    // the output projection
};

// An operand a step reads: the latest step on a side's lane (the lane a step feeds, see
// StepInfo::feeds), or one fixed step. The plan resolves lanes in its own order, so q's
// heads read `input` in the stacked variant and `q_split` in the others.
struct StepSource {
    bool latest = false;                // the lane's latest step, not `id`
    StepSide side = StepSide::Query;    // the lane, when `latest`
    StepId id = StepId::Tokens;         // the step, when not `latest`
};
constexpr StepSource latest(StepSide side) { return {true, side, StepId::Tokens}; }
constexpr StepSource fixed(StepId id) { return {false, StepSide::Query, id}; }
// A step's operands in argument order (scores: q, k; context: weights, v); at most three.
struct StepSources {
    std::array<StepSource, 3> items{};
    int count = 0;
};
template <typename... Sources>
constexpr StepSources reads(Sources... sources) {
    static_assert(sizeof...(Sources) <= 3, "a step reads at most three steps");
    const std::array<StepSource, sizeof...(Sources)> given{sources...};
    StepSources out{};
    for (const StepSource& s : given) out.items[static_cast<std::size_t>(out.count++)] = s;
    return out;
}

// The lanes a step feeds, one bit per StepSide: after it, a read of that lane's latest step
// means this step.
namespace step_lane {
inline constexpr uint8_t None = 0;
constexpr uint8_t of(StepSide side) { return static_cast<uint8_t>(1u << static_cast<unsigned>(side)); }
inline constexpr uint8_t Q = of(StepSide::Query), K = of(StepSide::Key), V = of(StepSide::Value), Map = of(StepSide::Map);
inline constexpr uint8_t QKV = Q | K | V;  // self-attention's input and the fused qkv: where q, k and v all start
}  // namespace step_lane

// The kind a step has instead of its row's in one variant (q, k, v: slices of the fused qkv;
// the heads: projected one by one in the stacked variant). `when` Always means none.
struct OtherKind {
    StepWhen when = StepWhen::Always;
    StepKind kind = StepKind::Input;
};
constexpr OtherKind same_kind() { return {}; }
constexpr OtherKind kind_in(StepWhen when, StepKind kind) { return {when, kind}; }

// Steps of these kinds share their source's buffer: they copy nothing (except a transpose
// that appends add_zero_attn's row, core/extra_keys.h).
constexpr bool views_source(StepKind kind) {
    return kind == StepKind::Slice || kind == StepKind::View || kind == StepKind::Transpose;
}

// One row of the step table.
struct StepInfo {
    StepId id;
    const char* name;  // "attn_scores": the manifest and .npy file name
    // As the split forward records it; the fused forward slices q, k and v out of qkv
    // (Slice) and the stacked one projects each head on its own (q/k/v_heads: Projection).
    StepKind kind;
    StepSide side;
    StepDims dims;  // the roles of its tensor's dimensions: (B, H, L, S) and so on
    ModelNote note;
    uint16_t flags;  // step_flag bits
    // How the attention forward records it (core/forward_plan.cpp derives the plan from these):
    StepWhen when;      // the plan switch that turns it on
    StepSources sources;  // what it is computed from
    uint8_t feeds;      // step_lane bits: the lanes whose latest step it becomes
    OtherKind other;    // its kind in the variant that makes it another way

    constexpr bool holds_kv_heads() const { return (flags & step_flag::KvHeads) != 0; }
    constexpr bool probability() const { return (flags & step_flag::Probability) != 0; }
    constexpr bool paintable() const { return (flags & step_flag::Paintable) != 0; }
    constexpr bool shows_masked_rows() const { return (flags & step_flag::MaskedRows) != 0; }
    constexpr bool token_ids() const { return (flags & step_flag::TokenIds) != 0; }
    constexpr bool residual() const { return (flags & step_flag::Residual) != 0; }
    constexpr bool editable_input() const { return (flags & step_flag::EditableInput) != 0; }
    // Its last axis is the model's vocabulary (V): next-word probabilities.
    constexpr bool vocabulary_axis() const {
        return dims.rank > 0 && dims.roles[static_cast<std::size_t>(dims.rank - 1)] == DimRole::Vocabulary;
    }
};

// The table itself, written with short names for the kinds, sides, roles and flags.
namespace step_table_detail {
using Kind = StepKind;
using Side = StepSide;
using Note = ModelNote;
using When = StepWhen;
namespace lane = step_lane;
using D = DimRole;
inline constexpr DimRole B = D::Batch, L = D::QueryPos, S = D::KeyPos, H = D::Head, Dh = D::HeadDim, E = D::Embedding,
                         Kdim = D::KeyFeature, Vdim = D::ValueFeature, E3 = D::FusedQkv, Vocab = D::Vocabulary;
namespace f = step_flag;

// clang-format off
inline constexpr StepInfo kRows[] = {
    // id                       name                  kind               side         dimensions            note on a model     flags                                          recorded when    reads                                                                       feeds lanes kind in another variant
    {StepId::Tokens,            "tokens",             Kind::Input,       Side::Query, dims_of(B, L),        Note::UnknownWords, f::TokenIds,                                   When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::TokenEmbedding,    "token_embedding",    Kind::Lookup,      Side::Query, dims_of(B, L, E),     Note::SameRow,      f::None,                                       When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::PositionEmbedding, "position_embedding", Kind::Lookup,      Side::Query, dims_of(B, L, E),     Note::SumsDiffer,   f::None,                                       When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::EmbeddingSum,      "embedding_sum",      Kind::Add,         Side::Query, dims_of(B, L, E),     Note::SumsDiffer,   f::None,                                       When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::LayerInput,        "layer_input",        Kind::Input,       Side::Query, dims_of(B, L, E),     Note::None,         f::None,                                       When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::Norm,              "norm",               Kind::Norm,        Side::Query, dims_of(B, L, E),     Note::None,         f::None,                                       When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::Input,             "input",              Kind::Input,       Side::Query, dims_of(B, L, E),     Note::None,         f::EditableInput,                              When::Always,    reads(),                                                                    lane::QKV,  same_kind()},
    {StepId::KeyInput,          "key_input",          Kind::Input,       Side::Key,   dims_of(B, S, Kdim),  Note::None,         f::None,                                       When::Cross,     reads(),                                                                    lane::K,    same_kind()},
    {StepId::ValueInput,        "value_input",        Kind::Input,       Side::Value, dims_of(B, S, Vdim),  Note::None,         f::None,                                       When::Cross,     reads(),                                                                    lane::V,    same_kind()},
    {StepId::Qkv,               "qkv",                Kind::Projection,  Side::Query, dims_of(B, L, E3),    Note::None,         f::None,                                       When::Fused,     reads(latest(Side::Query)),                                                 lane::QKV,  same_kind()},
    {StepId::Q,                 "q",                  Kind::Projection,  Side::Query, dims_of(B, L, E),     Note::None,         f::None,                                       When::Unstacked, reads(latest(Side::Query)),                                                 lane::Q,    kind_in(When::Fused, Kind::Slice)},
    {StepId::K,                 "k",                  Kind::Projection,  Side::Key,   dims_of(B, S, E),     Note::None,         f::KvHeads,                                    When::Unstacked, reads(latest(Side::Key)),                                                   lane::K,    kind_in(When::Fused, Kind::Slice)},
    {StepId::V,                 "v",                  Kind::Projection,  Side::Value, dims_of(B, S, E),     Note::None,         f::KvHeads,                                    When::Unstacked, reads(latest(Side::Value)),                                                 lane::V,    kind_in(When::Fused, Kind::Slice)},
    {StepId::QSplit,            "q_split",            Kind::View,        Side::Query, dims_of(B, L, H, Dh), Note::None,         f::None,                                       When::Unstacked, reads(latest(Side::Query)),                                                 lane::Q,    same_kind()},
    {StepId::KSplit,            "k_split",            Kind::View,        Side::Key,   dims_of(B, S, H, Dh), Note::None,         f::KvHeads,                                    When::Unstacked, reads(latest(Side::Key)),                                                   lane::K,    same_kind()},
    {StepId::VSplit,            "v_split",            Kind::View,        Side::Value, dims_of(B, S, H, Dh), Note::None,         f::KvHeads,                                    When::Unstacked, reads(latest(Side::Value)),                                                 lane::V,    same_kind()},
    {StepId::QHeads,            "q_heads",            Kind::Transpose,   Side::Query, dims_of(B, H, L, Dh), Note::None,         f::None,                                       When::Always,    reads(latest(Side::Query)),                                                 lane::Q,    kind_in(When::Stacked, Kind::Projection)},
    {StepId::KHeads,            "k_heads",            Kind::Transpose,   Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::KvHeads,                                    When::Always,    reads(latest(Side::Key)),                                                   lane::K,    kind_in(When::Stacked, Kind::Projection)},
    {StepId::VHeads,            "v_heads",            Kind::Transpose,   Side::Value, dims_of(B, H, S, Dh), Note::None,         f::KvHeads,                                    When::Always,    reads(latest(Side::Value)),                                                 lane::V,    kind_in(When::Stacked, Kind::Projection)},
    {StepId::RopeCos,           "rope_cos",           Kind::RopeTable,   Side::Query, dims_of(L, Dh),       Note::None,         f::None,                                       When::Rope,      reads(),                                                                    lane::None, same_kind()},
    {StepId::RopeSin,           "rope_sin",           Kind::RopeTable,   Side::Query, dims_of(L, Dh),       Note::None,         f::None,                                       When::Rope,      reads(),                                                                    lane::None, same_kind()},
    {StepId::QRot,              "q_rot",              Kind::Rotation,    Side::Query, dims_of(B, H, L, Dh), Note::None,         f::None,                                       When::Rope,      reads(latest(Side::Query), fixed(StepId::RopeCos), fixed(StepId::RopeSin)), lane::Q,    same_kind()},
    {StepId::KRot,              "k_rot",              Kind::Rotation,    Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::KvHeads,                                    When::Rope,      reads(latest(Side::Key), fixed(StepId::RopeCos), fixed(StepId::RopeSin)),   lane::K,    same_kind()},
    {StepId::KCache,            "k_cache",            Kind::CacheAppend, Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::KvHeads,                                    When::Cache,     reads(latest(Side::Key)),                                                   lane::K,    same_kind()},
    {StepId::VCache,            "v_cache",            Kind::CacheAppend, Side::Value, dims_of(B, H, S, Dh), Note::None,         f::KvHeads,                                    When::Cache,     reads(latest(Side::Value)),                                                 lane::V,    same_kind()},
    {StepId::KRepeated,         "k_repeated",         Kind::RepeatKv,    Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::None,                                       When::RepeatKv,  reads(latest(Side::Key)),                                                   lane::K,    same_kind()},
    {StepId::VRepeated,         "v_repeated",         Kind::RepeatKv,    Side::Value, dims_of(B, H, S, Dh), Note::None,         f::None,                                       When::RepeatKv,  reads(latest(Side::Value)),                                                 lane::V,    same_kind()},
    {StepId::AttnScores,        "attn_scores",        Kind::Scores,      Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Paintable,                                  When::Always,    reads(latest(Side::Query), latest(Side::Key)),                              lane::Map,  same_kind()},
    {StepId::AttnScaled,        "attn_scaled",        Kind::Scale,       Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Paintable,                                  When::Always,    reads(latest(Side::Map)),                                                   lane::Map,  same_kind()},
    {StepId::AttnMasked,        "attn_masked",        Kind::Mask,        Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Paintable | f::MaskedRows,                  When::Mask,      reads(latest(Side::Map)),                                                   lane::Map,  same_kind()},
    {StepId::AttnWeights,       "attn_weights",       Kind::Softmax,     Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Probability | f::Paintable | f::MaskedRows, When::Always,    reads(latest(Side::Map)),                                                   lane::Map,  same_kind()},
    {StepId::AttnDropped,       "attn_dropped",       Kind::Dropout,     Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Probability | f::MaskedRows,                When::Dropout,   reads(latest(Side::Map)),                                                   lane::Map,  same_kind()},
    {StepId::AttnWeightsAvg,    "attn_weights_avg",   Kind::HeadMean,    Side::Map,   dims_of(B, L, S),     Note::None,         f::Probability | f::Paintable | f::MaskedRows, When::Average,   reads(latest(Side::Map)),                                                   lane::None, same_kind()},
    {StepId::Context,           "context",            Kind::WeightedSum, Side::Query, dims_of(B, H, L, Dh), Note::None,         f::None,                                       When::Always,    reads(latest(Side::Map), latest(Side::Value)),                              lane::Q,    same_kind()},
    {StepId::ContextSplit,      "context_split",      Kind::Transpose,   Side::Query, dims_of(B, L, H, Dh), Note::None,         f::None,                                       When::Unstacked, reads(latest(Side::Query)),                                                 lane::Q,    same_kind()},
    {StepId::Concat,            "concat",             Kind::Concat,      Side::Query, dims_of(B, L, E),     Note::None,         f::None,                                       When::Always,    reads(latest(Side::Query)),                                                 lane::Q,    same_kind()},
    {StepId::Out,               "out",                Kind::Projection,  Side::Query, dims_of(B, L, E),     Note::Prediction,   f::None,                                       When::OutProj,   reads(latest(Side::Query)),                                                 lane::Q,    same_kind()},
    {StepId::Residual,          "residual",           Kind::Add,         Side::Query, dims_of(B, L, E),     Note::Prediction,   f::Residual,                                   When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::NextTokenProbs,    "next_token_probs",   Kind::Prediction,  Side::Query, dims_of(B, L, Vocab), Note::Prediction,   f::Probability,                                When::Model,     reads(),                                                                    lane::None, same_kind()},
    {StepId::PredictedTokens,   "predicted_tokens",   Kind::Prediction,  Side::Query, dims_of(B, L),        Note::Prediction,   f::TokenIds,                                   When::Model,     reads(),                                                                    lane::None, same_kind()},
};
// clang-format on
}  // namespace step_table_detail

// A row per step, in record order: row i describes the StepId whose value is i.
inline constexpr const auto& kStepTable = step_table_detail::kRows;
inline constexpr std::size_t kStepIdCount = std::size(kStepTable);

namespace step_table_detail {
constexpr bool rows_in_enum_order() {
    for (std::size_t i = 0; i < kStepIdCount; ++i)
        if (static_cast<std::size_t>(kStepTable[i].id) != i) return false;
    return true;
}
constexpr std::array<StepId, kStepIdCount> all_ids() {
    std::array<StepId, kStepIdCount> ids{};
    for (std::size_t i = 0; i < kStepIdCount; ++i) ids[i] = kStepTable[i].id;
    return ids;
}
}  // namespace step_table_detail
static_assert(step_table_detail::rows_in_enum_order(), "kStepTable: row i must describe the StepId whose value is i");
static_assert(kStepIdCount == static_cast<std::size_t>(kLastStepId) + 1, "kStepTable: one row per StepId");

// Every StepId in record order, for loops that must visit all of them.
inline constexpr std::array<StepId, kStepIdCount> kAllStepIds = step_table_detail::all_ids();

// The row of a step.
constexpr const StepInfo& step_info(StepId id) { return kStepTable[static_cast<std::size_t>(id)]; }
// The manifest / file name of a step: "attn_scores" for StepId::AttnScores.
constexpr const char* step_name(StepId id) { return step_info(id).name; }
// The inverse of step_name(); nullopt for a name no step has.
std::optional<StepId> parse_step_name(std::string_view name);

}  // namespace attn
