#include "core/step_id.h"

namespace attn {

const char* step_name(StepId id) {
    switch (id) {
        case StepId::Tokens: return "tokens";
        case StepId::TokenEmbedding: return "token_embedding";
        case StepId::PositionEmbedding: return "position_embedding";
        case StepId::EmbeddingSum: return "embedding_sum";
        case StepId::LayerInput: return "layer_input";
        case StepId::Norm: return "norm";
        case StepId::Input: return "input";
        case StepId::KeyInput: return "key_input";
        case StepId::ValueInput: return "value_input";
        case StepId::Qkv: return "qkv";
        case StepId::Q: return "q";
        case StepId::K: return "k";
        case StepId::V: return "v";
        case StepId::QSplit: return "q_split";
        case StepId::KSplit: return "k_split";
        case StepId::VSplit: return "v_split";
        case StepId::QHeads: return "q_heads";
        case StepId::KHeads: return "k_heads";
        case StepId::VHeads: return "v_heads";
        case StepId::RopeCos: return "rope_cos";
        case StepId::RopeSin: return "rope_sin";
        case StepId::QRot: return "q_rot";
        case StepId::KRot: return "k_rot";
        case StepId::KRepeated: return "k_repeated";
        case StepId::VRepeated: return "v_repeated";
        case StepId::AttnScores: return "attn_scores";
        case StepId::AttnScaled: return "attn_scaled";
        case StepId::AttnMasked: return "attn_masked";
        case StepId::AttnWeights: return "attn_weights";
        case StepId::AttnWeightsAvg: return "attn_weights_avg";
        case StepId::AttnDropped: return "attn_dropped";
        case StepId::Context: return "context";
        case StepId::ContextSplit: return "context_split";
        case StepId::Concat: return "concat";
        case StepId::Out: return "out";
        case StepId::Residual: return "residual";
        case StepId::NextTokenProbs: return "next_token_probs";
        case StepId::PredictedTokens: return "predicted_tokens";
    }
    return "?";  // unreachable for a valid StepId; -Wswitch guards the list above
}

std::optional<StepId> parse_step_name(std::string_view name) {
    for (StepId id : kAllStepIds)
        if (name == step_name(id)) return id;
    return std::nullopt;
}

}  // namespace attn
