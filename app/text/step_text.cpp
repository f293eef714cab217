#include "app/text/step_text.h"

#include <optional>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "app/text/message_text.h"
#include "app/text/text_join.h"
#include "core/masked_score.h"
#include "core/ops.h"
#include "core/recipe.h"
#include "core/rope.h"

namespace attn::text {
namespace {

// A key of the step in the catalogue: step.attn_scores.title for (AttnScores, "title").
std::string key_of(StepId id, const char* part) { return std::string("step.") + step_name(id) + "." + part; }


// Q, K or V: the letter of a projection-family step (q, q_split, q_heads, q_rot, ...).
const char* letter_of(StepId id) { return side_letter(step_info(id).side); }

std::string projection_text(StepId id, const AttentionConfig& c, const Catalogue& cat) {
    const char letter = letter_of(id)[0];
    const int in_width = letter == 'K' ? c.key_dim() : letter == 'V' ? c.value_dim() : c.d_in();
    std::string text = cat.format("step.projection.explanation", {{"width", in_width},
                                                                  {"role", cat.text(key_of(id, "role"))},
                                                                  {"letter", letter_of(id)},
                                                                  {"embed", c.E()}});
    if (c.is_cross() && letter != 'Q')
        text = join_sentences(text, cat.format(letter == 'K' ? "step.projection.cross_key" : "step.projection.cross_value", {{"keys", c.S()}}), cat);
    if (c.variant == Variant::Fused) text = join_sentences(text, cat.text("step.projection.fused"), cat);
    return text;
}

std::string split_text(StepId id, const AttentionConfig& c, const Catalogue& cat) {
    // One head: the view only adds a head axis of size 1; there is no "next head".
    return cat.format(c.H() == 1 ? "step.split.one_head.explanation" : "step.split.explanation", {{"embed", c.E()},
                                                 {"heads", c.H()},
                                                 {"head_dim", c.head_dim()},
                                                 {"last_column", c.head_dim() - 1},
                                                 {"letter", letter_of(id)}});
}

std::string heads_text(StepId id, const AttentionConfig& c, const Catalogue& cat) {
    return cat.format("step.heads.explanation", {{"rows", id == StepId::QHeads ? "L" : "S"},
                                                 {"products", c.batch * c.H()},
                                                 {"stride", c.variant == Variant::Fused ? 3 * c.E() : c.E()}});
}

// The stacked variant projects each head by its own module: no view, no transpose.
StepText stacked_heads_text(StepId id, const AttentionConfig& c, const Catalogue& cat) {
    const std::string letter = letter_of(id);
    const std::string lower(1, static_cast<char>(letter[0] - 'A' + 'a'));
    return {cat.format("step.stacked_heads.title", {{"letter", letter}}),
            cat.format("step.stacked_heads.formula", {{"letter", letter}, {"lower", lower}}),
            cat.format("step.stacked_heads.explanation", {{"heads", c.H()}, {"head_dim", c.head_dim()}, {"embed", c.E()}})};
}

std::string plain_key(StepId id, const AttentionConfig& c, const char* part, TokenUnit unit = TokenUnit::Word);

// The fill a boolean mask writes, as the texts quote it: "-inf", "-1e20",
// "finfo(float32).min = -3.403e+38" or the chosen number (in the compute dtype).
std::string fill_text(const AttentionConfig& c, const Catalogue& cat) {
    const MaskFill& fill = c.mask_spec().fill;
    char value[32];
    std::snprintf(value, sizeof value, "%.4g", static_cast<double>(masked_score_fill(fill, c.dtype)));
    switch (fill.kind) {
        case MaskFillKind::NegativeInfinity: return "-inf";
        case MaskFillKind::Negative1e20: return "-1e20";
        case MaskFillKind::DtypeLowest: return cat.format("step.attn_masked.fill_lowest", {{"dtype", to_string(c.dtype)}, {"value", value}});
        case MaskFillKind::Value: break;
    }
    return value;
}

// What the mask step writes and what that does to the softmax: exactly zero weight with
// -inf (a fully masked row is zeros, flagged), zero weight and uniform fully masked rows
// with a fill far below any score (-1e20, finfo.min), a small weight with a nearer number.
std::string masked_text(const AttentionConfig& c, const Catalogue& cat, int keys) {
    const char* why = c.mask == MaskKind::Causal    ? "step.attn_masked.why_causal"
                      : c.mask == MaskKind::Padding ? "step.attn_masked.why_padding"
                                                    : "step.attn_masked.why_other";
    const float value = masked_score_fill(c.mask_spec().fill, c.dtype);
    const char* effect = std::isinf(value)  ? "step.attn_masked.explanation"
                         : value <= -1e4f   ? "step.attn_masked.explanation_finite"
                                            : "step.attn_masked.explanation_value";
    const std::string fill = fill_text(c, cat);
    return join_sentences(cat.format(why, {{"fill", fill}}), cat.format(effect, {{"fill", fill}, {"keys", keys}}), cat);
}

// A recipe whose code calls .contiguous() on the transpose back (core/recipe.h,
// HeadJoinCode) has its own texts for the two steps that rejoin the heads: they say
// where its copy happens and where AttnViz's trace makes it. nullptr otherwise.
const char* head_join_texts(StepId id, const AttentionConfig& c) {
    const HeadJoinCode code = head_join_code(c);
    if (code == HeadJoinCode::CopyAtConcat) return nullptr;
    if (id == StepId::ContextSplit) return "code_copies";
    if (id == StepId::Concat) return code == HeadJoinCode::CopyAtSplitThenView ? "code_view" : "code_reshape";
    return nullptr;
}

// Without a recipe the code shown is the generic module (assets/code/attention_module.py),
// which rejoins the heads with one .reshape() of the transposed, non-contiguous context:
// reshape copies there, as .contiguous().view() would in two calls. A recipe whose
// class copies at concat writes .contiguous().view() and keeps the step's own texts.
bool generic_reshape(StepId id, const AttentionConfig& c) {
    return id == StepId::Concat && c.variant != Variant::Stacked && find_recipe(c.recipe) == nullptr;
}

// The query rows and keys a step's text counts: the whole pass's L and S, or a block's rows
// against the KV cache (a prefill's rows 0 .. P-1; a decode step's one row p, reading keys 0 .. p).
struct TextRows {
    int queries = 0;  // rows of the step's tensors
    int keys = 0;     // keys each row reads (before add_bias_kv / add_zero_attn)
    int first = 0;    // absolute position of the first row
};

TextRows whole_pass_rows(const AttentionConfig& c) { return {c.L(), c.S(), 0}; }

using ModelNorm = std::optional<NormKind>;

// The final norm in the formulas: LN_f, or RMSNorm_f for a model whose card says RMSNorm.
const char* final_norm_symbol(ModelNorm norm) { return norm == NormKind::RmsNorm ? "RMSNorm_f" : "LN_f"; }

std::string explanation(StepId id, const AttentionConfig& c, const Catalogue& cat, TokenUnit unit, const TextRows& rows,
                        ModelNorm model_norm) {
    const std::string norm = norm_name(model_norm, cat);
    const std::string key = key_of(id, "explanation");
    switch (id) {
        case StepId::Tokens: return cat.format(plain_key(id, c, "explanation", unit), {{"tokens", rows.queries}});
        case StepId::TokenEmbedding: return cat.format(key, {{"embed", c.E()}});
        case StepId::PositionEmbedding:
            return cat.format(key, {{"first_position", rows.first}, {"last_position", rows.first + rows.queries - 1}});
        case StepId::NextTokenProbs: return cat.format(plain_key(id, c, "explanation", unit), {{"norm", norm}});
        case StepId::PredictedTokens: return cat.format(key, {{"norm", norm}});
        case StepId::EmbeddingSum: case StepId::LayerInput: case StepId::Residual: return cat.text(key);
        case StepId::Norm: return cat.format(key, {{"embed", c.E()}});
        case StepId::Input:  // the input's own width: d_in, which differs from E in the from-scratch articles
            return cat.format(c.d_in() == c.E() ? key : "step.input.explanation_d_in",
                              {{"tokens", rows.queries}, {"embed", c.E()}, {"d_in", c.d_in()}, {"norm", norm}});
        case StepId::KeyInput: return cat.format(key, {{"keys", c.S()}, {"kdim", c.key_dim()}});
        case StepId::ValueInput: return cat.format(key, {{"keys", c.S()}, {"vdim", c.value_dim()}});
        case StepId::Qkv: return cat.format(key, {{"rows", 3 * c.E()}, {"embed", c.E()}});
        case StepId::Q: case StepId::K: case StepId::V: return projection_text(id, c, cat);
        case StepId::QSplit: case StepId::KSplit: case StepId::VSplit: return split_text(id, c, cat);
        case StepId::QHeads: case StepId::KHeads: case StepId::VHeads: return heads_text(id, c, cat);
        case StepId::AttnScores: return cat.format(key, {{"queries", rows.queries}, {"keys", rows.keys}, {"heads", c.H()}});
        case StepId::RopeCos: case StepId::RopeSin:
            return cat.format(key, {{"first", c.position_offset},
                                    {"last", c.position_offset + c.L() - 1},
                                    {"base", fixed(c.rope_base, 0)},
                                    {"style", to_string(c.rope_style)}});
        case StepId::QRot: case StepId::KRot: return cat.format("step.rot.explanation", {{"letter", letter_of(id)}});
        case StepId::KCache: case StepId::VCache: {
            const std::string cache = cat.format("step.cache.explanation", {{"kv_heads", c.H_kv()}, {"head_dim", c.head_dim()}});
            const Recipe* recipe = find_recipe(c.recipe);  // a recipe whose code keeps another layout says so
            return recipe && !recipe->cache_note.empty() ? join_sentences(cache, render(recipe->cache_note, cat), cat) : cache;
        }
        case StepId::KRepeated: case StepId::VRepeated:
            return cat.format("step.repeated.explanation", {{"kv_heads", c.H_kv()},
                                                            {"heads", c.H()},
                                                            {"group", c.H() / std::max(1, c.H_kv())}});
        case StepId::AttnWeightsAvg:  // with dropout, the mean of the dropped weights, as torch returns
            return c.dropout > 0.0f ? join_sentences(cat.text(key), cat.text("step.attn_weights_avg.after_dropout"), cat) : cat.text(key);
        case StepId::AttnScaled:
            switch (c.scale.kind) {
                case ScaleKind::Hidden:
                    return cat.format("step.attn_scaled.hidden.explanation", {{"embed", c.E()}, {"head_dim", c.head_dim()}});
                case ScaleKind::None: return cat.text("step.attn_scaled.none.explanation");
                case ScaleKind::Value:
                    return cat.format("step.attn_scaled.value.explanation", {{"factor", fixed(c.scale.value, 4)}});
                case ScaleKind::Head: break;
            }
            return cat.format(key, {{"head_dim", c.head_dim()}, {"root", fixed(std::sqrt(static_cast<double>(c.head_dim())), 3)}});
        case StepId::AttnMasked: return masked_text(c, cat, rows.keys + c.S_total() - c.S());
        case StepId::AttnWeights: return cat.text(key);
        case StepId::AttnDropped:
            return cat.format(key, {{"p", fixed(c.dropout, 2)}, {"keep_scale", fixed(dropout_keep_scale(c.dropout), 3)}});
        case StepId::Context: return cat.format(key, {{"head_dim", c.head_dim()}});
        case StepId::ContextSplit: return cat.text(plain_key(id, c, "explanation"));
        case StepId::Concat: {
            // Without an output projection (selfatt-v1) the joined heads are the module's output.
            const std::string joined = cat.format(plain_key(id, c, "explanation"),
                                                  {{"heads", c.H()}, {"head_dim", c.head_dim()}, {"embed", c.E()}});
            return c.no_out_proj ? join_sentences(joined, cat.text("step.concat.no_out_proj"), cat) : joined;
        }
        case StepId::Out: return cat.text(key);
    }
    return "";
}

bool is_stacked_heads(StepId id, const AttentionConfig& c) {
    return c.variant == Variant::Stacked && (id == StepId::QHeads || id == StepId::KHeads || id == StepId::VHeads);
}

// The stacked concat is a torch.cat, not a contiguous copy plus view; a scale other than
// 1/sqrt(d_h) has its own title and formula.
std::string plain_key(StepId id, const AttentionConfig& c, const char* part, TokenUnit unit) {
    // A character-level model (tiny-lm-zh) cuts the sentence into characters and predicts the next one.
    if (unit == TokenUnit::Character && (id == StepId::Tokens || id == StepId::NextTokenProbs))
        return key_of(id, "characters") + "." + part;
    if (id == StepId::Concat && c.variant == Variant::Stacked) return std::string("step.concat.stacked.") + part;
    if (const char* texts = head_join_texts(id, c)) return key_of(id, texts) + "." + part;
    if (generic_reshape(id, c)) return std::string("step.concat.reshape.") + part;
    if (id == StepId::AttnScaled && c.scale.kind != ScaleKind::Head)
        return std::string("step.attn_scaled.") + (c.scale.kind == ScaleKind::Hidden ? "hidden" :
                                                   c.scale.kind == ScaleKind::None   ? "none" : "value") + "." + part;
    // A projection without bias (Llama, the from-scratch modules with qkv_bias=False)
    // writes no "+ b" in its formula.
    const bool projection = id == StepId::Q || id == StepId::K || id == StepId::V || id == StepId::Qkv;
    if (std::string_view(part) == "formula" && ((projection && !c.qkv_bias()) || (id == StepId::Out && !c.out_bias())))
        return key_of(id, "formula_no_bias");
    return key_of(id, part);
}

StepText step_words(StepId id, const AttentionConfig& c, const Catalogue& cat, TokenUnit unit, const TextRows& rows,
                    ModelNorm norm) {
    if (is_stacked_heads(id, c)) return stacked_heads_text(id, c, cat);
    // The mask's formula quotes the fill in use (scores[mask] = -1e20); the prediction's, the model's final norm.
    std::string formula;
    if (id == StepId::AttnMasked) formula = cat.format(plain_key(id, c, "formula"), {{"fill", fill_text(c, cat)}});
    else if (id == StepId::NextTokenProbs || id == StepId::PredictedTokens)
        formula = cat.format(plain_key(id, c, "formula", unit), {{"norm_f", final_norm_symbol(norm)}});
    else formula = cat.text(plain_key(id, c, "formula", unit));
    return {cat.text(plain_key(id, c, "title", unit)), formula, explanation(id, c, cat, unit, rows, norm)};
}

}  // namespace

std::string norm_name(std::optional<NormKind> norm, const Catalogue& cat) {
    if (!norm) return cat.text("model.norm.per_card");
    return cat.text(*norm == NormKind::RmsNorm ? "model.norm.rms_norm" : "model.norm.layer_norm");
}

StepText describe_step(StepId id, const AttentionConfig& c, const Catalogue& cat, TokenUnit unit) {
    return step_words(id, c, cat, unit, whole_pass_rows(c), std::nullopt);
}

std::string step_title(StepId id, const AttentionConfig& c, const Catalogue& cat, TokenUnit unit) {
    if (is_stacked_heads(id, c)) return stacked_heads_text(id, c, cat).title;
    return cat.text(plain_key(id, c, "title", unit));
}

// A block against the KV cache (a prefill or a decode step) holds the RoPE angles of its own
// rows only, at their absolute positions: the table's explanation names those positions,
// never 0 .. L-1 (the cached keys were turned at theirs when they were appended).
static std::string block_rope_text(StepId id, const Trace& trace, const Catalogue& cat) {
    const AttentionConfig& c = trace.config;
    const int first = c.position_offset + trace.block.first, last = first + trace.block.count - 1;
    const char* table = id == StepId::RopeCos ? "cos" : "sin";
    const Params values = {{"table", table}, {"first", first}, {"last", last}, {"position", first}, {"row", trace.block.first},
                        {"base", fixed(c.rope_base, 0)}, {"style", to_string(c.rope_style)}};
    return cat.format(trace.block.count == 1 ? "step.rope_table.decode_explanation" : "step.rope_table.prefill_explanation", values);
}

// Llama's RMSNorm (the model card's norm) has its own title, formula and explanation.
static bool rms_norm_step(StepId id, const Trace& trace) { return id == StepId::Norm && trace.model.norm == NormKind::RmsNorm; }

StepText describe_step(const Step& step, const Trace& trace, const Catalogue& cat) {
    if (rms_norm_step(step.id, trace))
        return {cat.text("step.norm.rms.title"), cat.text("step.norm.rms.formula"),
                cat.format("step.norm.rms.explanation", {{"embed", trace.config.E()}})};
    // A block against the cache counts its own rows and the keys they read, never the whole L.
    const TextRows rows = trace.block.count > 0 ? TextRows{trace.block.count, trace.block.first + trace.block.count, trace.block.first}
                                                : whole_pass_rows(trace.config);
    // A trained model's texts name its norm; plain attention's speak of either.
    const ModelNorm norm = trace.model.present() ? ModelNorm(trace.model.norm) : std::nullopt;
    StepText words = step_words(step.id, trace.config, cat, trace.model.token_unit, rows, norm);
    if ((step.id == StepId::RopeCos || step.id == StepId::RopeSin) && trace.block.count > 0)
        words.explanation = block_rope_text(step.id, trace, cat);
    return words;
}

std::string step_title(const Step& step, const Trace& trace, const Catalogue& cat) {
    if (rms_norm_step(step.id, trace)) return cat.text("step.norm.rms.title");
    return step_title(step.id, trace.config, cat, trace.model.token_unit);
}

std::string copy_badge(StepId id, const AttentionConfig& c, const Catalogue& cat) {
    if (id != StepId::Concat) return "";
    if (head_join_texts(id, c)) return cat.text("step.concat.copy_code_earlier");
    if (generic_reshape(id, c)) return cat.text("step.concat.copy_reshape");
    return cat.text(c.variant == Variant::Stacked ? "step.concat.copy_stacked" : "step.concat.copy_contiguous");
}

std::string code_copy_note(StepId id, const AttentionConfig& c, const Catalogue& cat) {
    const char* texts = head_join_texts(id, c);
    if (!texts) return "";
    return cat.text(id == StepId::ContextSplit ? "storage.code_copies_here" : "storage.code_view_here");
}

std::string copy_badge(const Step& step, const AttentionConfig& c, const Catalogue& cat) { return copy_badge(step.id, c, cat); }

std::string describe_scaling_effect(const ScalingEffect& e, int head_dim, const Catalogue& cat) {
    if (!e.valid) return "";
    const std::string numbers = cat.format("inspector.scaling.numbers", {{"largest", fixed(e.largest_score, 2)},
                                                                         {"scaled", fixed(e.max_weight_scaled, 2)},
                                                                         {"head_dim", head_dim},
                                                                         {"unscaled", fixed(e.max_weight_unscaled, 2)}});
    const char* verdict = e.max_weight_unscaled < 0.5f   ? "inspector.scaling.changes_little"
                          : e.max_weight_unscaled > 0.9f ? "inspector.scaling.nearly_one_hot"
                                                         : "inspector.scaling.spreads";
    return join_sentences(numbers, cat.text(verdict), cat);
}

std::string fully_masked_row_note(const Trace& trace, int batch_item, int head, int row, const Catalogue& cat) {
    if (!is_fully_masked_row(trace, batch_item, head, row)) return "";
    return cat.format("inspector.fully_masked_row", {{"row", row}});
}

}  // namespace attn::text
