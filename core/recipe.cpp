#include "core/recipe.h"

#include <algorithm>
#include <utility>

namespace attn {

const char* to_string(TorchModuleKind kind) {
    switch (kind) {
        case TorchModuleKind::RandParametersPerHead: return "rand-parameters-per-head";
        case TorchModuleKind::SeparateLinears: return "separate-linears";
        case TorchModuleKind::FusedLinear: return "fused-linear";
        case TorchModuleKind::MultiheadAttention: return "multihead-attention";
    }
    return "?";
}

namespace {

const char* const kLlamaArticle = "Multi-head Attention";
// The LLM-from-scratch chapter (seeds/001) has no title line: it is named by its two
// sections, the stacked and the weight-split implementation, in its own words.
const char* const kScratchArticle = "多头注意力：堆叠实现与权重分割实现";
const char* const kDay15Article = "Day 15. Multi-head Attention : 從做 LLM 中看多頭注意力";
const char* const kInterviewArticle = "手写 Self-Attention 的四重境界，从 self-attention 到 multi-head self-attention";
const char* const kTorchMhaArticle = "多头注意力机制中的 Q, K, V";

AttentionConfig base(const char* name, int batch, int seq_len, int hidden_dim, int num_heads) {
    AttentionConfig c;
    c.recipe = name;
    c.init = InitKind::Torch;
    c.batch = batch;
    c.seq_len = seq_len;
    c.hidden_dim = hidden_dim;
    c.num_heads = num_heads;
    return c;
}

Recipe llama() {
    Recipe r;
    r.name = "llama";
    r.torch_class = "LlamaAttention";
    r.description = Message("recipe.llama.description");
    r.article = kLlamaArticle;
    r.special = Message("recipe.llama.special");
    r.config = base("llama", 1, 4, 8, 2);
    r.config.bias = false;
    r.config.rope = true;
    r.config.mask = MaskKind::Causal;
    r.config.mask_fill.kind = MaskFillKind::DtypeLowest;
    r.module = TorchModuleKind::SeparateLinears;
    r.head_join = HeadJoinCode::CopyAtSplitThenReshape;
    return r;
}

// The six-token sentence batched twice, 3 -> 2 per head, two heads, causal.
AttentionConfig scratch_base(const char* name) {
    AttentionConfig c = base(name, 2, 6, 4, 2);
    c.input_dim = 3;
    c.mask = MaskKind::Causal;
    c.mask_before_scale = true;
    return c;
}

Recipe scratch_stacked() {
    Recipe r;
    r.name = "scratch-stacked";
    r.torch_class = "ScratchStacked";
    r.description = Message("recipe.scratch_stacked.description");
    r.article = kScratchArticle;
    r.special = Message("recipe.scratch_stacked.special");
    r.config = scratch_base("scratch-stacked");
    r.config.variant = Variant::Stacked;
    r.config.bias = false;
    r.config.no_out_proj = true;
    r.module = TorchModuleKind::RandParametersPerHead;
    r.example_input = "your-journey";
    return r;
}

// The weight-split class (Wq, Wk, Wv without bias, then Wo with bias) on the six-token
// batch, d_out wide.
Recipe weight_split(const char* name, const char* torch_class, const char* article, int d_out, Message description,
                    Message special) {
    Recipe r;
    r.name = name;
    r.torch_class = torch_class;
    r.description = std::move(description);
    r.article = article;
    r.special = std::move(special);
    r.config = scratch_base(name);
    r.config.hidden_dim = d_out;
    r.config.no_qkv_bias = true;
    r.module = TorchModuleKind::SeparateLinears;
    r.example_input = "your-journey";
    return r;
}

// The chapter's run: d_out 4, two heads of 2.
Recipe scratch_mha() {
    return weight_split("scratch-mha", "ScratchMha", kScratchArticle, 4, Message("recipe.scratch_mha.description"),
                        Message("recipe.scratch_mha.special"));
}

// The chapter's class as the book's KV-cache chapter continues it (a repository file, no
// article): the six-token sentence with the prefill of its first three tokens, then
// "with", "one" and "step" one decode step each, the cache in the book's (b, T, H, d_h).
Recipe scratch_kv_cache() {
    Recipe r = weight_split("scratch-kv-cache", "ScratchKvCache", "", 4, Message("recipe.scratch_kv_cache.description"),
                            Message("recipe.scratch_kv_cache.special"));
    r.source_file = "rasbt/LLMs-from-scratch: ch04/03_kv-cache/gpt_with_kv_cache.py";
    r.cache_note = Message("step.cache.scratch_layout");  // its cache is (b, T, H, d_h), before the transpose
    r.config.decode_from = 3;
    return r;
}

// The Day 15 article's run of the same class (its own layer names): d_out = 2, so each
// of the two heads is one number wide.
Recipe day15_mha() {
    return weight_split("day15-mha", "Day15Mha", kDay15Article, 2, Message("recipe.day15_mha.description"),
                        Message("recipe.day15_mha.special"));
}

// The interview article's single-head levels: E = dim, scaled by sqrt(dim).
AttentionConfig selfatt_base(const char* name, int seq_len, int dim) {
    AttentionConfig c = base(name, 3, seq_len, dim, 1);
    c.scale.kind = ScaleKind::Hidden;
    return c;
}

Recipe selfatt(int level) {
    Recipe r;
    r.article = kInterviewArticle;
    r.inputs_before_module = true;  // X = torch.rand(...) comes before net = SelfAttVn(...)
    r.module = TorchModuleKind::SeparateLinears;
    r.torch_class = "SelfAttV" + std::to_string(level);
    switch (level) {
        case 1:
            r.name = "selfatt-v1";
            r.description = Message("recipe.selfatt_v1.description");
            r.special = Message("recipe.selfatt_v1.special");
            r.config = selfatt_base("selfatt-v1", 2, 4);
            r.config.no_out_proj = true;
            break;
        case 2:
            r.name = "selfatt-v2";
            r.description = Message("recipe.selfatt_v2.description");
            r.special = Message("recipe.selfatt_v2.special");
            r.config = selfatt_base("selfatt-v2", 2, 4);
            r.config.variant = Variant::Fused;
            r.module = TorchModuleKind::FusedLinear;
            break;
        case 3:
        case 4:
            r.name = level == 3 ? "selfatt-v3" : "selfatt-v4";
            r.description = level == 3 ? Message("recipe.selfatt_v3.description") : Message("recipe.selfatt_v4.description");
            r.special = level == 3 ? Message("recipe.selfatt_v3.special") : Message("recipe.selfatt_v4.special");
            r.config = selfatt_base(level == 3 ? "selfatt-v3" : "selfatt-v4", 4, 2);
            if (level == 3) {
                r.config.variant = Variant::Fused;
                r.module = TorchModuleKind::FusedLinear;
            }
            r.config.mask = MaskKind::Padding;
            r.config.valid_lengths = {3, 2, 1};
            r.config.mask_fill.kind = MaskFillKind::Negative1e20;
            r.config.dropout = 0.1f;
            break;
        default: break;
    }
    return r;
}

Recipe interview_mha() {
    Recipe r;
    r.name = "interview-mha";
    r.torch_class = "InterviewMha";
    r.description = Message("recipe.interview_mha.description");
    r.article = kInterviewArticle;
    r.special = Message("recipe.interview_mha.special");
    r.config = base("interview-mha", 3, 2, 128, 8);
    r.config.mask_fill.kind = MaskFillKind::Negative1e20;
    r.module = TorchModuleKind::SeparateLinears;
    r.inputs_before_module = true;
    r.key_pattern = {{0, 1}, {0, 0}, {1, 0}};
    r.head_join = HeadJoinCode::CopyAtSplitThenView;
    return r;
}

Recipe torch_mha() {
    Recipe r;
    r.name = "torch-mha";
    r.torch_class = "TorchMha";
    r.description = Message("recipe.torch_mha.description");
    r.article = kTorchMhaArticle;
    r.special = Message("recipe.torch_mha.special");
    r.config = base("torch-mha", 2, 4, 6, 2);
    r.config.kv_len = 5;
    r.config.cross_attention = true;
    r.module = TorchModuleKind::MultiheadAttention;
    r.input_draw = InputDraw::Randn;
    return r;
}

}  // namespace

const std::vector<Recipe>& recipes() {
    static const std::vector<Recipe> all = {llama(),      scratch_stacked(), scratch_mha(), scratch_kv_cache(), day15_mha(),
                                            selfatt(1),   selfatt(2),        selfatt(3),    selfatt(4),         interview_mha(),
                                            torch_mha()};
    return all;
}

const Recipe* find_recipe(const std::string& name) {
    for (const Recipe& r : recipes())
        if (r.name == name) return &r;
    return nullptr;
}

HeadJoinCode head_join_code(const AttentionConfig& config) {
    // The stacked variant joins its heads with torch.cat, whatever the recipe's code.
    const Recipe* recipe = config.recipe.empty() || config.variant == Variant::Stacked ? nullptr : find_recipe(config.recipe);
    return recipe ? recipe->head_join : HeadJoinCode::CopyAtConcat;
}

std::string recipe_names() {
    std::string names;
    for (const Recipe& r : recipes()) names += (names.empty() ? "" : ", ") + r.name;
    return names;
}

Message recipe_mask_label(const Recipe& recipe) { return Message("mask.source.recipe_pattern", {{"recipe", recipe.name}}); }

namespace {

std::string joined(const std::vector<int>& values) {
    std::string text;
    for (int v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
    return text;
}

}  // namespace

Message fit_recipe_masks(AttentionConfig& c) {
    const Recipe* recipe = find_recipe(c.recipe);
    if (recipe == nullptr) return Message();
    const int B = c.batch, S = c.S();
    const std::vector<int>& article_lengths = recipe->config.valid_lengths;
    Message note;
    // Lengths still equal to the article's came from the recipe, not from the user: they
    // follow a new B (cycled) and a new S (clipped), as `--recipe NAME -L 2` promises.
    if (!article_lengths.empty() && c.valid_lengths == article_lengths) {
        c.valid_lengths.clear();
        for (int b = 0; b < B; ++b) c.valid_lengths.push_back(std::min(article_lengths[static_cast<size_t>(b) % article_lengths.size()], S));
        if (*std::max_element(article_lengths.begin(), article_lengths.end()) > S)
            note = Message("recipe.note.lengths_clipped", {{"name", recipe->name}, {"article", joined(article_lengths)},
                                                           {"keys", std::to_string(S)}, {"lengths", joined(c.valid_lengths)}});
    }
    // A generation's prefill still the recipe's follows a shorter L: at least one row is decoded.
    if (recipe->config.decode_from > 0 && c.decode_from == recipe->config.decode_from && c.decode_from > c.L() - 1)
        c.decode_from = std::max(1, c.L() - 1);
    // The marker lets a later call (new B or S) tell its own mask from a user's file.
    const std::string marker = english(recipe_mask_label(*recipe));
    if (!recipe->key_pattern.empty() && (c.mask_file.empty() || c.mask_file_path == marker)) {
        const auto& pattern = recipe->key_pattern;
        std::vector<float> masked;  // (B, 1, 1, S), 1 = masked out
        for (int b = 0; b < B; ++b) {
            const auto& row = pattern[static_cast<size_t>(b) % pattern.size()];
            for (int j = 0; j < S; ++j) masked.push_back(row[static_cast<size_t>(j) % row.size()] ? 0.0f : 1.0f);
        }
        c.mask_file = Tensor::from_values({B, 1, 1, S}, {"B", "H", "L", "S"}, masked);
        c.mask_file_is_boolean = true;
        c.mask_file_path = marker;
    }
    return note;
}

}  // namespace attn
