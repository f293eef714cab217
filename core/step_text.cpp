#include "core/step_text.h"

#include <cmath>
#include <cstdio>

namespace attn {

namespace {

// printf-style formatting into a std::string, for sentences that quote sizes.
template <typename... Args>
std::string fmt(const char* pattern, Args... args) {
    char buffer[1024];
    std::snprintf(buffer, sizeof buffer, pattern, args...);
    return buffer;
}

std::string projection_text(const char* letter, const char* role, const AttentionConfig& c) {
    const bool from_key_input = c.is_cross() && letter[0] != 'Q';
    const int in_width = letter[0] == 'K' ? c.key_dim() : letter[0] == 'V' ? c.value_dim() : c.E();
    std::string text = fmt(
        "Every token's %d-number vector is multiplied by a learned matrix to give its %s. "
        "%s is one ordinary linear layer over the whole width (%d -> %d): the heads do not exist yet, "
        "they are only a way of reading these %d columns later.",
        in_width, role, letter, in_width, c.E(), c.E());
    if (from_key_input) text += fmt(" Here it is computed from the separate %s input (cross-attention), so it has S = %d rows.",
                                    letter[0] == 'K' ? "key" : "value", c.S());
    if (c.variant == Variant::Fused)
        text += " In the fused variant this is not computed on its own: it is a slice of the qkv tensor, a view whose rows "
                "are 3E numbers apart in memory, so it is not contiguous.";
    return text;
}

std::string split_text(const char* letter, const AttentionConfig& c) {
    return fmt("view() reinterprets the last dimension E = %d as (H = %d heads) x (d_h = %d). No number moves and no "
               "memory is copied: the same buffer is read with new strides. Columns 0..%d of %s now belong to head 0, "
               "the next %d to head 1, and so on.",
               c.E(), c.H(), c.head_dim(), c.head_dim() - 1, letter, c.head_dim());
}

std::string heads_text(const char* letter, const AttentionConfig& c) {
    return fmt("transpose(1, 2) swaps the sequence and head dimensions so each head owns a (%s x d_h) matrix, ready for "
               "one batched matrix multiply over B x H. Only the strides are swapped: the buffer is unchanged, which "
               "makes this tensor non-contiguous (stepping along the sequence now jumps %d floats).",
               letter[0] == 'Q' ? "L" : "S", c.variant == Variant::Fused ? 3 * c.E() : c.E());
}

}  // namespace

StepText describe_step(const std::string& name, const AttentionConfig& c) {
    const int dh = c.head_dim();
    if (name == "input")
        return {"Input tokens", "X",
                fmt("The sequence we attend over: %d token(s), each a vector of hidden_dim = %d numbers (for a "
                    "language model, the token embeddings). Its three axes are the batch item, the token and the feature.", c.L(), c.E())};
    if (name == "key_input")
        return {"Key input", "X_k",
                fmt("Cross-attention: keys come from a different sequence of S = %d tokens of width kdim = %d "
                    "(for example an encoder's output), not from the queries' input.", c.S(), c.key_dim())};
    if (name == "value_input")
        return {"Value input", "X_v",
                fmt("The values' own input, S = %d tokens of width vdim = %d. Keys and values pair up "
                    "token by token, so they must have the same length.", c.S(), c.value_dim())};
    if (name == "qkv")
        return {"Fused QKV projection", "QKV = X W_qkv^T + b_qkv",
                fmt("One matrix multiply produces queries, keys and values together: W_qkv stacks W_q, W_k and W_v "
                    "into a (3E x E) = (%d x %d) matrix. One big multiply is faster than three small ones; Q, K and V "
                    "are then cut out of the %d columns.", 3 * c.E(), c.E(), 3 * c.E())};
    if (name == "q") return {"Query projection", "Q = X W_q^T + b_q", projection_text("Q", "query: what this token is looking for", c)};
    if (name == "k") return {"Key projection", "K = X W_k^T + b_k", projection_text("K", "key: what this token offers to be found by", c)};
    if (name == "v") return {"Value projection", "V = X W_v^T + b_v", projection_text("V", "value: what this token hands over when attended to", c)};
    if (name == "q_split") return {"Split Q into heads (view)", "Q.view(B, L, H, d_h)", split_text("Q", c)};
    if (name == "k_split") return {"Split K into heads (view)", "K.view(B, S, H, d_h)", split_text("K", c)};
    if (name == "v_split") return {"Split V into heads (view)", "V.view(B, S, H, d_h)", split_text("V", c)};
    if (c.variant == Variant::Stacked && (name == "q_heads" || name == "k_heads" || name == "v_heads")) {
        const char letter = static_cast<char>(name[0] - 'a' + 'A');
        return {std::string("Per-head ") + letter + " (stacked modules)",
                std::string(1, letter) + "_h = X W_" + static_cast<char>(name[0]) + ",h^T  for h = 0..H-1",
                fmt("The stacked variant keeps H = %d separate single-head modules. Each has its own small (d_h x E) = "
                    "(%d x %d) matrix and projects the input by itself, so the heads are born separate and no view or "
                    "transpose is needed. It computes the same numbers as one big projection, in H smaller multiplies.",
                    c.H(), dh, c.E())};
    }
    if (name == "q_heads") return {"Heads first (transpose Q)", "Q.transpose(1, 2)", heads_text("Q", c)};
    if (name == "k_heads") return {"Heads first (transpose K)", "K.transpose(1, 2)", heads_text("K", c)};
    if (name == "v_heads") return {"Heads first (transpose V)", "V.transpose(1, 2)", heads_text("V", c)};
    if (name == "attn_scores")
        return {"Scores: Q K^T per head", "scores[b,h] = Q[b,h] K[b,h]^T",
                fmt("For every head, every query row is dotted with every key row: cell (i, j) says how well query i "
                    "matches key j. It is one batched matmul of (L x d_h) by (d_h x S) per head, giving %d x %d scores "
                    "for each of the %d heads. Heads never mix here.", c.L(), c.S(), c.H())};
    if (name == "attn_scaled")
        return {"Scale by 1/sqrt(d_h)", "scores / sqrt(d_h)",
                fmt("A dot product of d_h random-ish numbers grows like sqrt(d_h), and large scores push softmax into "
                    "a near one-hot where gradients vanish. Dividing by sqrt(%d) = %.3f keeps the scores near unit scale.",
                    dh, std::sqrt(static_cast<double>(dh)))};
    if (name == "attn_masked") {
        std::string why = c.mask == MaskKind::Causal
                              ? "Causal mask: query i may only look at keys j <= i, so the upper triangle (the future) is set to -inf."
                              : c.mask == MaskKind::Padding
                                    ? "Key padding mask: keys beyond each batch item's valid length are padding, so their columns are set to -inf."
                                    : "Masked cells are set to -inf.";
        return {"Apply the mask", "scores[mask] = -inf",
                why + " exp(-inf) = 0, so after softmax those keys get exactly zero weight. A row with every key masked "
                      "would be 0/0; it is set to all zeros and flagged."};
    }
    if (name == "attn_weights")
        return {"Softmax over keys", "P = softmax(scores, dim = -1)",
                "Each row is turned into probabilities: exponentiate and divide by the row's sum, so a query's weights "
                "over all keys are positive and add up to 1. The row maximum is subtracted first so exp() cannot overflow; "
                "this changes nothing in the result."};
    if (name == "attn_dropped")
        return {"Dropout on the weights", "P' = P * keep / (1 - p)",
                fmt("During training each weight is zeroed with probability p = %.2f, and survivors are multiplied by "
                    "1/(1-p) = %.3f so the expected value stays the same (inverted dropout). Rows no longer sum to "
                    "exactly 1. At inference dropout is off.", c.dropout, 1.0 / (1.0 - c.dropout))};
    if (name == "context")
        return {"Weighted sum of values", "context[b,h] = P[b,h] V[b,h]",
                fmt("Each query's output is the average of the value rows, weighted by its attention row: "
                    "(L x S) times (S x d_h) gives one %d-number vector per token and head.", dh)};
    if (name == "context_split")
        return {"Tokens first again (transpose back)", "context.transpose(1, 2)",
                "Swap heads and sequence back to (B, L, H, d_h) so each token holds all its heads side by side. Again "
                "only strides change, so the result is not contiguous and cannot be view()ed into (B, L, E) yet."};
    if (name == "concat") {
        if (c.variant == Variant::Stacked)
            return {"Concatenate the heads", "torch.cat([head_0, ..., head_{H-1}], dim = -1)",
                    fmt("The stacked modules' outputs are glued side by side: H = %d blocks of d_h = %d columns make the "
                        "E = %d columns of one token. This copies into a new buffer.", c.H(), dh, c.E())};
        return {"Concatenate heads (contiguous + view)", "context.contiguous().view(B, L, E)",
                fmt(".contiguous() copies the transposed numbers into a fresh buffer in row order; only then can "
                    ".view() merge (H = %d, d_h = %d) into E = %d. This is the one copy in the whole head shuffle.",
                    c.H(), dh, c.E())};
    }
    if (name == "out")
        return {"Output projection", "out = concat W_o^T + b_o",
                "A last linear layer mixes the heads: until now each head's columns were computed independently, and "
                "W_o lets every output feature draw on all of them. The result has the input's shape, (B, L, E)."};
    return {name, "", ""};
}

}  // namespace attn
