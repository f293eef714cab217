// StepId: the closed list of steps a forward can record, declared once.
//
// Everything that talks about a step (the core, its text, the display model, the
// inspector, the CLI, the file format and the tests) uses this enumeration. The
// manifest's step name ("attn_scores", also the .npy file name) is derived from it
// by step_name(); nothing else spells a step by hand. A `switch` over StepId with no
// `default:` makes the compiler (-Wswitch, an error under ATTNVIZ_WERROR) point at
// every place that needs a case when a step is added here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace attn {

// Listed in the order a forward records them (not every forward records all of them:
// `qkv` only in the fused variant, `attn_masked` only with a mask, the model steps
// only when a trained model runs (core/model/), ...). V is the model's vocabulary size.
enum class StepId : uint8_t {
    Tokens,             // "tokens"             (B, L)     token ids (strings in Trace::model)
    TokenEmbedding,     // "token_embedding"    (B, L, E)  rows of the embedding table
    PositionEmbedding,  // "position_embedding" (B, L, E)  learned position rows 0..L-1
    EmbeddingSum,       // "embedding_sum"      (B, L, E)  their sum: layer 0's input
    LayerInput,         // "layer_input"        (B, L, E)  residual stream entering layer k > 0
    Norm,               // "norm"               (B, L, E)  LayerNorm before attention
    Input,         // "input"          (B, L, E)      the query-side input X
    KeyInput,      // "key_input"      (B, S, kdim)   cross-attention's key input
    ValueInput,    // "value_input"    (B, S, vdim)   cross-attention's value input
    Qkv,           // "qkv"            (B, L, 3E)     fused projection
    Q,             // "q"              (B, L, E)
    K,             // "k"              (B, S, E)
    V,             // "v"              (B, S, E)
    QSplit,        // "q_split"        (B, L, H, d_h) view
    KSplit,        // "k_split"        (B, S, H, d_h) view
    VSplit,        // "v_split"        (B, S, H, d_h) view
    QHeads,        // "q_heads"        (B, H, L, d_h)
    KHeads,        // "k_heads"        (B, H, S, d_h)
    VHeads,        // "v_heads"        (B, H_kv, S, d_h)  (+ the zero row of add_zero_attn)
    RopeCos,       // "rope_cos"       (L, d_h)       cos of each position's angles
    RopeSin,       // "rope_sin"       (L, d_h)
    QRot,          // "q_rot"          (B, H, L, d_h) q_heads rotated (RoPE)
    KRot,          // "k_rot"          (B, H_kv, S, d_h)
    KRepeated,     // "k_repeated"     (B, H, S, d_h) repeat_kv (H_kv < H)
    VRepeated,     // "v_repeated"     (B, H, S, d_h)
    AttnScores,    // "attn_scores"    (B, H, L, S)
    AttnScaled,    // "attn_scaled"    (B, H, L, S)
    AttnMasked,    // "attn_masked"    (B, H, L, S)
    AttnWeights,   // "attn_weights"   (B, H, L, S)
    AttnWeightsAvg,  // "attn_weights_avg" (B, L, S)  mean over heads
    AttnDropped,   // "attn_dropped"   (B, H, L, S)
    Context,       // "context"        (B, H, L, d_h)
    ContextSplit,  // "context_split"  (B, L, H, d_h) view
    Concat,        // "concat"         (B, L, E)
    Out,           // "out"            (B, L, E)
    Residual,           // "residual"           (B, L, E)  layer input + out
    NextTokenProbs,     // "next_token_probs"   (B, L, V)  language model: softmax of the logits
    PredictedTokens,    // "predicted_tokens"   (B, L)     algorithmic models: argmax of the logits
};

inline constexpr std::size_t kStepIdCount = static_cast<std::size_t>(StepId::PredictedTokens) + 1;

// Every StepId in record order, for loops that must visit all of them.
inline constexpr std::array<StepId, kStepIdCount> kAllStepIds = {
    StepId::Tokens,     StepId::TokenEmbedding, StepId::PositionEmbedding, StepId::EmbeddingSum, StepId::LayerInput,
    StepId::Norm,
    StepId::Input,      StepId::KeyInput,    StepId::ValueInput,  StepId::Qkv,         StepId::Q,
    StepId::K,          StepId::V,           StepId::QSplit,      StepId::KSplit,      StepId::VSplit,
    StepId::QHeads,     StepId::KHeads,      StepId::VHeads,      StepId::RopeCos,     StepId::RopeSin,
    StepId::QRot,       StepId::KRot,        StepId::KRepeated,   StepId::VRepeated,   StepId::AttnScores,
    StepId::AttnScaled, StepId::AttnMasked,  StepId::AttnWeights, StepId::AttnWeightsAvg, StepId::AttnDropped,
    StepId::Context,    StepId::ContextSplit, StepId::Concat,     StepId::Out,
    StepId::Residual,   StepId::NextTokenProbs, StepId::PredictedTokens,
};

// The manifest / file name of a step: "attn_scores" for StepId::AttnScores.
const char* step_name(StepId id);
// The inverse of step_name(); nullopt for a name no step has.
std::optional<StepId> parse_step_name(std::string_view name);

}  // namespace attn
