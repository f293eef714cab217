#include "core/step_text.h"

#include <algorithm>
#include <cmath>
#include <vector>
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
    const char* rows = letter[0] == 'Q' ? "L" : "S";
    return fmt("transpose(1, 2) swaps the sequence and head dimensions: (B, %s, H, d_h) becomes (B, H, %s, d_h). "
               "Why: matmul multiplies only the last two dimensions and treats every dimension before them as a batch "
               "of independent products. With heads before %s, the last two are (%s x d_h), so one matmul runs "
               "B x H = %d separate per-head products. Left as (B, %s, H, d_h), the last two would be (H x d_h) and "
               "the product would pair heads with heads inside each token instead of tokens with tokens. Only the "
               "strides are swapped: the buffer is unchanged, which makes this tensor non-contiguous (stepping along "
               "the sequence now jumps %d floats).",
               rows, rows, rows, rows, c.batch * c.H(), rows, c.variant == Variant::Fused ? 3 * c.E() : c.E());
}

}  // namespace

StepText describe_step(StepId id, const AttentionConfig& c) {
    const int dh = c.head_dim();
    switch (id) {
        case StepId::Tokens:
            return {"Tokens", "ids = vocabulary index of each word",
                fmt("The sentence cut at spaces into %d token(s); each word is replaced by its row number in the model's "
                    "vocabulary. A word the model never saw becomes <unk>. The numbers are only names: nothing is "
                    "computed with them except looking up rows.", c.L())};
        case StepId::TokenEmbedding:
            return {"Token embedding", "tok_emb[ids]",
                fmt("Each id picks one row of a learned table with one row per vocabulary word, so every token becomes "
                    "%d numbers. The same word always gets the same row here, wherever it stands.", c.E())};
        case StepId::PositionEmbedding:
            return {"Position embedding", "pos_emb[0 .. L-1]",
                fmt("A second learned table has one row per position (0, 1, 2, ...). Row t is the same for any word at "
                    "position t. Attention itself ignores order, so this is the only way the model knows where a token "
                    "is; here rows 0..%d are used.", c.L() - 1)};
        case StepId::EmbeddingSum:
            return {"Embedding sum", "x = tok_emb[ids] + pos_emb[0 .. L-1]",
                "Word row plus position row, element by element. This is why a word that appears twice now holds two "
                "different vectors: both copies got the same word row but different position rows. "
                "This is the input of the first layer, the start of the residual stream."};
        case StepId::LayerInput:
            return {"Layer input (from the previous layers)", "x = output of layers 0 .. k-1",
                "The residual stream entering this layer: the embedding sum after every earlier layer added its "
                "attention output (and its MLP output) to it, all computed for real on this sentence."};
        case StepId::Norm:
            return {"LayerNorm before attention", "LN(x) = (x - mean) / sqrt(var + 1e-5) * g + b",
                fmt("Each token's %d numbers are shifted to mean 0 and scaled to variance 1, then multiplied and shifted "
                    "by learned per-feature weights g and b. Normalising before attention (pre-LN) keeps the scores in a "
                    "stable range however large the residual stream grows. The result is the attention's input X.", c.E())};
        case StepId::Residual:
            return {"Residual connection", "x + out",
                "The attention output is added to the layer's input, not put in its place: each layer only adds a "
                "correction to the stream, so what earlier steps knew is kept. (In models with an MLP, that block adds "
                "its own correction next.)"};
        case StepId::NextTokenProbs:
            return {"Next-word probabilities", "softmax(LN_f(x_last) W_head^T)",
                "After the remaining layers, a final LayerNorm and one more linear layer give a score per vocabulary "
                "word at every position; the softmax turns each row into probabilities. Row t is the model's guess for "
                "the word after token t, so it can only use tokens 0..t (the causal mask)."};
        case StepId::PredictedTokens:
            return {"Predicted tokens", "argmax(LN_f(x_last) W_head^T)",
                "After the remaining layers, a final LayerNorm and a linear layer score every vocabulary token at each "
                "position; the highest score is the model's answer for that position. Compare it with what the task asks "
                "for (the reversed or sorted digits) to see the attention pattern produce the right output."};
        case StepId::Input:
            return {"Input tokens", "X",
                fmt("The sequence we attend over: %d token(s), each a vector of hidden_dim = %d numbers (for a "
                    "language model, the token embeddings). Its three axes are the batch item, the token and the feature.", c.L(), c.E())};
        case StepId::KeyInput:
            return {"Key input", "X_k",
                fmt("Cross-attention: keys come from a different sequence of S = %d tokens of width kdim = %d "
                    "(for example an encoder's output), not from the queries' input.", c.S(), c.key_dim())};
        case StepId::ValueInput:
            return {"Value input", "X_v",
                fmt("The values' own input, S = %d tokens of width vdim = %d. Keys and values pair up "
                    "token by token, so they must have the same length.", c.S(), c.value_dim())};
        case StepId::Qkv:
            return {"Fused QKV projection", "QKV = X W_qkv^T + b_qkv",
                fmt("One matrix multiply produces queries, keys and values together: W_qkv stacks W_q, W_k and W_v "
                    "into a (3E x E) = (%d x %d) matrix. One big multiply is faster than three small ones; Q, K and V "
                    "are then cut out of the %d columns.", 3 * c.E(), c.E(), 3 * c.E())};
        case StepId::Q: return {"Query projection", "Q = X W_q^T + b_q", projection_text("Q", "query: what this token is looking for", c)};
        case StepId::K: return {"Key projection", "K = X W_k^T + b_k", projection_text("K", "key: what this token offers to be found by", c)};
        case StepId::V: return {"Value projection", "V = X W_v^T + b_v", projection_text("V", "value: what this token hands over when attended to", c)};
        case StepId::QSplit: return {"Split Q into heads (view)", "Q.view(B, L, H, d_h)", split_text("Q", c)};
        case StepId::KSplit: return {"Split K into heads (view)", "K.view(B, S, H, d_h)", split_text("K", c)};
        case StepId::VSplit: return {"Split V into heads (view)", "V.view(B, S, H, d_h)", split_text("V", c)};
        case StepId::QHeads:
        case StepId::KHeads:
        case StepId::VHeads: {
            const char* letter = id == StepId::QHeads ? "Q" : id == StepId::KHeads ? "K" : "V";
            if (c.variant == Variant::Stacked) {
                const char lower = static_cast<char>(letter[0] - 'A' + 'a');
                return {std::string("Per-head ") + letter + " (stacked modules)",
                        std::string(letter) + "_h = X W_" + lower + ",h^T  for h = 0..H-1",
                        fmt("The stacked variant keeps H = %d separate single-head modules. Each has its own small (d_h x E) = "
                            "(%d x %d) matrix and projects the input by itself, so the heads are born separate and no view or "
                            "transpose is needed. It computes the same numbers as one big projection, in H smaller multiplies.",
                            c.H(), dh, c.E())};
            }
            return {std::string("Heads first (transpose ") + letter + ")", std::string(letter) + ".transpose(1, 2)",
                    heads_text(letter, c)};
        }
        case StepId::RopeCos:
        case StepId::RopeSin: {
            const bool cosine = id == StepId::RopeCos;
            return {cosine ? "RoPE: cos of each angle" : "RoPE: sin of each angle",
                    cosine ? "cos[p, c] = cos(p * base^(-2i/d_h))" : "sin[p, c] = sin(p * base^(-2i/d_h))",
                    fmt("Rotary position embedding turns each pair of head coordinates by an angle that grows with the "
                        "position p (%d .. %d) and shrinks with the pair's index i (base %g). This table holds the %s of "
                        "that angle for every position and column; columns of one pair share a frequency (%s pairing).",
                        c.position_offset, c.position_offset + c.L() - 1, c.rope_base, cosine ? "cosine" : "sine",
                        to_string(c.rope_style))};
        }
        case StepId::QRot:
        case StepId::KRot: {
            const char* letter = id == StepId::QRot ? "Q" : "K";
            return {std::string("RoPE: rotate ") + letter, std::string(letter) + "_rot = " + letter + " * cos + rotate(" + letter + ") * sin",
                    std::string("Each coordinate pair of every ") + letter +
                        " head vector is rotated by its position's angle. Lengths are unchanged; only directions turn, so a "
                        "query-key dot product ends up depending on how far apart the two positions are, not where they are."};
        }
        case StepId::KRepeated:
        case StepId::VRepeated: {
            const char* letter = id == StepId::KRepeated ? "K" : "V";
            return {std::string("Share ") + letter + " heads (repeat_kv)", std::string("repeat_kv(") + letter + ", H / H_kv)",
                    fmt("Grouped-query attention: only %d key/value heads were computed for %d query heads, so each is "
                        "copied to the %d query heads of its group. Query head h reads key/value head h / %d.",
                        c.H_kv(), c.H(), c.H() / c.H_kv(), c.H() / c.H_kv())};
        }
        case StepId::AttnWeightsAvg:
            return {"Weights averaged over heads", "P.mean(dim = 1)",
                    "nn.MultiheadAttention returns this by default (average_attn_weights=True): the mean of the heads' "
                    "weight maps. Each row still sums to 1, but which head looked where is lost."};
        case StepId::AttnScores:
            return {"Scores: Q K^T per head", "scores[b,h] = Q[b,h] K[b,h]^T",
                fmt("For every head, every query row is dotted with every key row: cell (i, j) says how well query i "
                    "matches key j. It is one batched matmul of (L x d_h) by (d_h x S) per head, giving %d x %d scores "
                    "for each of the %d heads. Heads never mix here.", c.L(), c.S(), c.H())};
        case StepId::AttnScaled:
            if (c.scale.kind == ScaleKind::Hidden)
                return {"Scale by 1/sqrt(E) (not d_h)", "scores / sqrt(E)",
                        fmt("These scores are divided by sqrt(hidden_dim) = sqrt(%d) instead of sqrt(d_h) = sqrt(%d): a "
                            "classic bug. Each head's dot product has only d_h terms, so this shrinks the scores too much "
                            "and flattens the softmax.", c.E(), dh)};
            if (c.scale.kind == ScaleKind::None)
                return {"No scaling", "scores * 1",
                        "The raw dot products go to the softmax unchanged; with a large d_h they grow like sqrt(d_h) and "
                        "push the softmax towards one-hot rows."};
            if (c.scale.kind == ScaleKind::Value)
                return {"Scale by a chosen factor", fmt("scores * %g", static_cast<double>(c.scale.value)),
                        fmt("Every score is multiplied by %g, the factor chosen with --scale.", static_cast<double>(c.scale.value))};
            return {"Scale by 1/sqrt(d_h)", "scores / sqrt(d_h)",
                fmt("A dot product of d_h numbers of unit size grows like sqrt(d_h). In a trained model with large "
                    "d_h, unscaled scores of several units would push softmax towards a one-hot row whose gradients "
                    "vanish. Dividing by sqrt(%d) = %.3f keeps the scores near unit scale whatever d_h is. How much it "
                    "matters depends on the numbers: inspect a cell to see its row's largest weight with and without "
                    "the division.",
                    dh, std::sqrt(static_cast<double>(dh)))};
        case StepId::AttnMasked: {
            std::string why =
                c.mask == MaskKind::Causal
                    ? "Causal mask: query i may only look at keys j <= i, so the upper triangle (the future) is set to -inf."
                : c.mask == MaskKind::Padding
                    ? "Key padding mask: keys beyond each batch item's valid length are padding, so their columns are set to -inf."
                    : "Masked cells get the fill value (--mask-fill, -inf by default); a float mask file is added.";
            return {"Apply the mask", "scores[mask] = -inf",
                    why + " exp(-inf) = 0, so after softmax those keys get exactly zero weight. A row with every key masked "
                          "would be 0/0; it is set to all zeros and flagged."};
        }
        case StepId::AttnWeights:
            return {"Softmax over keys", "P = softmax(scores, dim = -1)",
                "Each row is turned into probabilities: exponentiate and divide by the row's sum, so a query's weights "
                "over all keys are positive and add up to 1. The row maximum is subtracted first so exp() cannot overflow; "
                "this changes nothing in the result."};
        case StepId::AttnDropped:
            return {"Dropout on the weights", "P' = P * keep / (1 - p)",
                fmt("During training each weight is zeroed with probability p = %.2f, and survivors are multiplied by "
                    "1/(1-p) = %.3f so the expected value stays the same (inverted dropout). Rows no longer sum to "
                    "exactly 1. At inference dropout is off.", c.dropout, 1.0 / (1.0 - c.dropout))};
        case StepId::Context:
            return {"Weighted sum of values", "context[b,h] = P[b,h] V[b,h]",
                fmt("Each query's output is the average of the value rows, weighted by its attention row: "
                    "(L x S) times (S x d_h) gives one %d-number vector per token and head.", dh)};
        case StepId::ContextSplit:
            return {"Tokens first again (transpose back)", "context.transpose(1, 2)",
                "Swap heads and sequence back to (B, L, H, d_h) so each token holds all its heads side by side. Again "
                "only strides change, so the result is not contiguous and cannot be view()ed into (B, L, E) yet."};
        case StepId::Concat: {
            if (c.variant == Variant::Stacked)
                return {"Concatenate the heads", "torch.cat([head_0, ..., head_{H-1}], dim = -1)",
                        fmt("The stacked modules' outputs are glued side by side: H = %d blocks of d_h = %d columns make the "
                            "E = %d columns of one token. This copies into a new buffer.", c.H(), dh, c.E())};
            return {"Concatenate heads (contiguous + view)", "context.contiguous().view(B, L, E)",
                    fmt(".contiguous() copies the transposed numbers into a fresh buffer in row order; only then can "
                        ".view() merge (H = %d, d_h = %d) into E = %d. This is the one copy in the whole head shuffle.",
                        c.H(), dh, c.E())};
        }
        case StepId::Out:
            return {"Output projection", "out = concat W_o^T + b_o",
                "A last linear layer mixes the heads: until now each head's columns were computed independently, and "
                "W_o lets every output feature draw on all of them. The result has the input's shape, (B, L, E)."};
    }
    return {step_name(id), "", ""};  // unreachable for a valid StepId: -Wswitch guards the cases
}

std::string copy_badge(StepId id, const AttentionConfig& c) {
    if (id != StepId::Concat) return "";
    return c.variant == Variant::Stacked ? "a copy: torch.cat writes a new buffer"
                                         : "a copy: .contiguous() writes a new buffer";
}

namespace {

// One score of a (B, H, L, S) tensor, whatever its strides.
float score_at(const Tensor& t, int b, int h, int i, int j) { return t.at({b, h, i, j}); }

float max_softmax_weight(const std::vector<float>& row) {
    float mx = -INFINITY;
    for (float x : row) mx = std::max(mx, x);
    if (!std::isfinite(mx)) return 0.0f;
    double sum = 0.0;
    for (float x : row) sum += std::isfinite(x) ? std::exp(static_cast<double>(x - mx)) : 0.0;
    return static_cast<float>(1.0 / sum);  // the max element contributes exp(0) = 1
}

}  // namespace

ScalingEffect scaling_effect(const Trace& trace, int batch_item, int head, int row) {
    ScalingEffect e;
    const Step* scores = trace.find(StepId::AttnScores);
    const Step* weights = trace.find(StepId::AttnWeights);
    if (!scores || !weights || scores->tensor.rank() != 4) return e;
    const Tensor& t = scores->tensor;
    if (batch_item < 0 || head < 0 || row < 0 || batch_item >= t.dim(0) || head >= t.dim(1) || row >= t.dim(2)) return e;
    const int S = static_cast<int>(t.dim(3));
    const float scale = 1.0f / std::sqrt(static_cast<float>(std::max(1, trace.config.head_dim())));
    // The mask applies to both versions: read which keys survived from the scaled+masked input of the softmax.
    const Step* masked = weights->has_primary_source() ? trace.find(weights->primary_source()) : nullptr;
    std::vector<float> unscaled(static_cast<size_t>(S)), scaled(static_cast<size_t>(S));
    for (int j = 0; j < S; ++j) {
        const float s = score_at(t, batch_item, head, row, j);
        const bool allowed = !masked || std::isfinite(masked->tensor.at({batch_item, head, row, j}));
        unscaled[static_cast<size_t>(j)] = allowed ? s : -INFINITY;
        scaled[static_cast<size_t>(j)] = allowed ? s * scale : -INFINITY;
        if (allowed) e.largest_score = std::max(e.largest_score, std::fabs(s));
    }
    e.max_weight_scaled = max_softmax_weight(scaled);
    e.max_weight_unscaled = max_softmax_weight(unscaled);
    e.valid = true;
    return e;
}

std::string describe_scaling_effect(const ScalingEffect& e, int head_dim) {
    if (!e.valid) return "";
    std::string text = fmt("In this row the largest score is %.2f. Its largest softmax weight is %.2f after dividing by "
                           "sqrt(%d), and would be %.2f without. ",
                           e.largest_score, e.max_weight_scaled, head_dim, e.max_weight_unscaled);
    if (e.max_weight_unscaled < 0.5f)
        text += "Both are far from one-hot: with scores this small the division changes little here.";
    else if (e.max_weight_unscaled > 0.9f)
        text += "Without the division this row would be nearly one-hot.";
    else
        text += "The division spreads this row's attention more evenly.";
    return text;
}

std::string fully_masked_row_note(const Trace& trace, int batch_item, int head, int row) {
    const int H = trace.config.H(), L = trace.config.L();
    if (batch_item < 0 || head < 0 || row < 0 || head >= H || row >= L) return "";
    const size_t flag = (static_cast<size_t>(batch_item) * static_cast<size_t>(H) + static_cast<size_t>(head)) *
                            static_cast<size_t>(L) + static_cast<size_t>(row);
    if (flag >= trace.fully_masked_rows.size() || trace.fully_masked_rows[flag] == 0) return "";
    return fmt("Query row %d has every key masked: each score is -inf, so softmax would compute 0/0 = NaN. "
               "The row is set to all zeros instead (and flagged), so this query takes nothing from the values and "
               "its context row is the zero vector.",
               row);
}

}  // namespace attn
