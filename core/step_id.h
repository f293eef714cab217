// The steps a forward can record, declared once: the enumeration StepId and one table,
// kStepTable, with a row per step. Every fact about a step that more than one place needs
// is a column of that row (its file name, kind, side, dimension roles and what the window
// does with it); everything else is derived from the table: kAllStepIds, step_name(),
// parse_step_name() and the questions the GUI asks (step_info(id).holds_kv_heads(), ...).
//
// Adding a step: an enumerator and its row (the static_asserts below check the order);
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
    AttnScores, AttnScaled, AttnMasked, AttnWeights, AttnWeightsAvg, AttnDropped,
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
using D = DimRole;
inline constexpr DimRole B = D::Batch, L = D::QueryPos, S = D::KeyPos, H = D::Head, Dh = D::HeadDim, E = D::Embedding,
                         Kdim = D::KeyFeature, Vdim = D::ValueFeature, E3 = D::FusedQkv, Vocab = D::Vocabulary;
namespace f = step_flag;

// clang-format off
inline constexpr StepInfo kRows[] = {
    // id                       name                  kind               side         dimensions            note on a model     flags
    {StepId::Tokens,            "tokens",             Kind::Input,       Side::Query, dims_of(B, L),        Note::UnknownWords, f::TokenIds},
    {StepId::TokenEmbedding,    "token_embedding",    Kind::Lookup,      Side::Query, dims_of(B, L, E),     Note::SameRow,      f::None},
    {StepId::PositionEmbedding, "position_embedding", Kind::Lookup,      Side::Query, dims_of(B, L, E),     Note::SumsDiffer,   f::None},
    {StepId::EmbeddingSum,      "embedding_sum",      Kind::Add,         Side::Query, dims_of(B, L, E),     Note::SumsDiffer,   f::None},
    {StepId::LayerInput,        "layer_input",        Kind::Input,       Side::Query, dims_of(B, L, E),     Note::None,         f::None},
    {StepId::Norm,              "norm",               Kind::Norm,        Side::Query, dims_of(B, L, E),     Note::None,         f::None},
    {StepId::Input,             "input",              Kind::Input,       Side::Query, dims_of(B, L, E),     Note::None,         f::EditableInput},
    {StepId::KeyInput,          "key_input",          Kind::Input,       Side::Key,   dims_of(B, S, Kdim),  Note::None,         f::None},
    {StepId::ValueInput,        "value_input",        Kind::Input,       Side::Value, dims_of(B, S, Vdim),  Note::None,         f::None},
    {StepId::Qkv,               "qkv",                Kind::Projection,  Side::Query, dims_of(B, L, E3),    Note::None,         f::None},
    {StepId::Q,                 "q",                  Kind::Projection,  Side::Query, dims_of(B, L, E),     Note::None,         f::None},
    {StepId::K,                 "k",                  Kind::Projection,  Side::Key,   dims_of(B, S, E),     Note::None,         f::KvHeads},
    {StepId::V,                 "v",                  Kind::Projection,  Side::Value, dims_of(B, S, E),     Note::None,         f::KvHeads},
    {StepId::QSplit,            "q_split",            Kind::View,        Side::Query, dims_of(B, L, H, Dh), Note::None,         f::None},
    {StepId::KSplit,            "k_split",            Kind::View,        Side::Key,   dims_of(B, S, H, Dh), Note::None,         f::KvHeads},
    {StepId::VSplit,            "v_split",            Kind::View,        Side::Value, dims_of(B, S, H, Dh), Note::None,         f::KvHeads},
    {StepId::QHeads,            "q_heads",            Kind::Transpose,   Side::Query, dims_of(B, H, L, Dh), Note::None,         f::None},
    {StepId::KHeads,            "k_heads",            Kind::Transpose,   Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::KvHeads},
    {StepId::VHeads,            "v_heads",            Kind::Transpose,   Side::Value, dims_of(B, H, S, Dh), Note::None,         f::KvHeads},
    {StepId::RopeCos,           "rope_cos",           Kind::RopeTable,   Side::Query, dims_of(L, Dh),       Note::None,         f::None},
    {StepId::RopeSin,           "rope_sin",           Kind::RopeTable,   Side::Query, dims_of(L, Dh),       Note::None,         f::None},
    {StepId::QRot,              "q_rot",              Kind::Rotation,    Side::Query, dims_of(B, H, L, Dh), Note::None,         f::None},
    {StepId::KRot,              "k_rot",              Kind::Rotation,    Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::KvHeads},
    {StepId::KCache,            "k_cache",            Kind::CacheAppend, Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::KvHeads},
    {StepId::VCache,            "v_cache",            Kind::CacheAppend, Side::Value, dims_of(B, H, S, Dh), Note::None,         f::KvHeads},
    {StepId::KRepeated,         "k_repeated",         Kind::RepeatKv,    Side::Key,   dims_of(B, H, S, Dh), Note::None,         f::None},
    {StepId::VRepeated,         "v_repeated",         Kind::RepeatKv,    Side::Value, dims_of(B, H, S, Dh), Note::None,         f::None},
    {StepId::AttnScores,        "attn_scores",        Kind::Scores,      Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Paintable},
    {StepId::AttnScaled,        "attn_scaled",        Kind::Scale,       Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Paintable},
    {StepId::AttnMasked,        "attn_masked",        Kind::Mask,        Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Paintable | f::MaskedRows},
    {StepId::AttnWeights,       "attn_weights",       Kind::Softmax,     Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Probability | f::Paintable | f::MaskedRows},
    {StepId::AttnWeightsAvg,    "attn_weights_avg",   Kind::HeadMean,    Side::Map,   dims_of(B, L, S),     Note::None,         f::Probability | f::Paintable | f::MaskedRows},
    {StepId::AttnDropped,       "attn_dropped",       Kind::Dropout,     Side::Map,   dims_of(B, H, L, S),  Note::None,         f::Probability | f::MaskedRows},
    {StepId::Context,           "context",            Kind::WeightedSum, Side::Query, dims_of(B, H, L, Dh), Note::None,         f::None},
    {StepId::ContextSplit,      "context_split",      Kind::Transpose,   Side::Query, dims_of(B, L, H, Dh), Note::None,         f::None},
    {StepId::Concat,            "concat",             Kind::Concat,      Side::Query, dims_of(B, L, E),     Note::None,         f::None},
    {StepId::Out,               "out",                Kind::Projection,  Side::Query, dims_of(B, L, E),     Note::Prediction,   f::None},
    {StepId::Residual,          "residual",           Kind::Add,         Side::Query, dims_of(B, L, E),     Note::Prediction,   f::Residual},
    {StepId::NextTokenProbs,    "next_token_probs",   Kind::Prediction,  Side::Query, dims_of(B, L, Vocab), Note::Prediction,   f::Probability},
    {StepId::PredictedTokens,   "predicted_tokens",   Kind::Prediction,  Side::Query, dims_of(B, L),        Note::Prediction,   f::TokenIds},
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
