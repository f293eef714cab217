#include "core/recipe.h"

#include <algorithm>

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
const char* const kScratchArticle = "Day 15. Multi-head Attention : 從做 LLM 中看多頭注意力";
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
    r.description = "Hugging Face LlamaAttention: no biases, RoPE (half split), causal, softmax in float32";
    r.article = kLlamaArticle;
    r.special =
        "Four bias-free projections (q, k, v, o).\n"
        "Rotary position embedding turns q and k after the head split (rotate_half pairing).\n"
        "The causal mask is added to the scaled scores as the float32 minimum.\n"
        "Try --num-kv-heads 1 for multi-query or --dtype bfloat16.";
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
    r.description = "LLM-from-scratch MultiHeadAttentionStack/Wrapper: H causal heads side by side, outputs concatenated";
    r.article = kScratchArticle;
    r.special =
        "Each head is its own CausalAttention module with weights nn.Parameter(torch.rand(d_in, d_out)).\n"
        "The heads run one after the other and torch.cat joins their outputs: no output projection.\n"
        "The mask is applied to the raw scores, then they are divided by sqrt(d_out).\n"
        "--seed 123 gives the tensor the article prints.";
    r.config = scratch_base("scratch-stacked");
    r.config.variant = Variant::Stacked;
    r.config.bias = false;
    r.config.no_out_proj = true;
    r.module = TorchModuleKind::RandParametersPerHead;
    r.example_input = "your-journey";
    return r;
}

Recipe scratch_mha() {
    Recipe r;
    r.name = "scratch-mha";
    r.torch_class = "ScratchMha";
    r.description = "LLM-from-scratch MultiHeadAttention: one projection per Q/K/V split into heads by view + transpose";
    r.article = kScratchArticle;
    r.special =
        "Wq, Wk, Wv without bias (qkv_bias=False), then Wo with bias: nn.Linear in that order.\n"
        "q.view(b, n, h, d).transpose(1, 2) makes the heads; one batched matmul does them all.\n"
        "The causal mask goes on the unscaled scores; dropout acts on the weights.\n"
        "--seed 123 gives the tensor the article prints.";
    r.config = scratch_base("scratch-mha");
    r.config.no_qkv_bias = true;
    r.module = TorchModuleKind::SeparateLinears;
    r.example_input = "your-journey";
    return r;
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
            r.description = "interview level 1: single head straight from the formula, scaled by sqrt(hidden_dim), no output projection";
            r.special =
                "Three nn.Linear(hidden_dim, hidden_dim) with bias.\n"
                "softmax(Q K^T / sqrt(hidden_dim)) V and nothing more: no mask, no dropout, no output projection.\n"
                "The article draws X = torch.rand(3, 2, 4) before building the module.";
            r.config = selfatt_base("selfatt-v1", 2, 4);
            r.config.no_out_proj = true;
            break;
        case 2:
            r.name = "selfatt-v2";
            r.description = "interview level 2: one fused nn.Linear(dim, 3*dim) split into Q, K, V, plus an output projection";
            r.special =
                "A single projection computes Q, K and V at once; torch.split cuts its output in three.\n"
                "An output projection follows the weighted sum.\n"
                "The article draws X = torch.rand(3, 2, 4) before building the module.";
            r.config = selfatt_base("selfatt-v2", 2, 4);
            r.config.variant = Variant::Fused;
            r.module = TorchModuleKind::FusedLinear;
            break;
        case 3:
        case 4:
            r.name = level == 3 ? "selfatt-v3" : "selfatt-v4";
            r.description = level == 3
                                ? "interview level 3: fused QKV, padding mask filled with -1e20, dropout 0.1 after the softmax"
                                : "interview level 4: separate q/k/v projections, -1e20 padding mask, dropout 0.1, output projection";
            r.special = std::string(level == 3 ? "The fused projection of level 2, with the details an interviewer asks about:\n"
                                               : "Level 3 written with three separate projections, as most code bases do:\n") +
                        "a (B, L, S) 0/1 mask from sequence lengths 3, 2, 1 writes -1e20 into the scaled scores,\n"
                        "dropout 0.1 (train mode) acts on the attention weights, then the output projection.\n"
                        "The article draws X = torch.rand(3, 4, 2) before building the module.";
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
    r.description = "interview multi-head level: q/k/v/o nn.Linear, a (B, H, L, S) 0/1 mask filled with -1e20";
    r.article = kInterviewArticle;
    r.special =
        "hidden_dim 128 split into 8 heads of 16; scores scaled by sqrt(head_dim), not sqrt(hidden_dim).\n"
        "The mask is a (B, S) 0/1 pattern expanded to (B, H, L, S); item 2 masks every key, so its\n"
        "rows become uniform under the -1e20 fill. A dropout is constructed but never applied.\n"
        "The article draws X = torch.rand(3, 2, 128) before building the module.";
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
    r.description = "nn.MultiheadAttention(batch_first=True): packed in_proj, zero biases, query length L != key length S";
    r.article = kTorchMhaArticle;
    r.special =
        "Queries (B, L, E) attend to keys and values of length S; --kdim / --vdim give them their own widths\n"
        "(then q_proj_weight, k_proj_weight, v_proj_weight replace the packed in_proj_weight).\n"
        "Its own init: xavier-uniform in_proj, zero in_proj and out_proj biases.\n"
        "Inputs are torch.randn, drawn after the module.";
    r.config = base("torch-mha", 2, 4, 6, 2);
    r.config.kv_len = 5;
    r.config.cross_attention = true;
    r.module = TorchModuleKind::MultiheadAttention;
    r.input_draw = InputDraw::Randn;
    return r;
}

}  // namespace

const std::vector<Recipe>& recipes() {
    static const std::vector<Recipe> all = {llama(),     scratch_stacked(), scratch_mha(),   selfatt(1), selfatt(2),
                                            selfatt(3),  selfatt(4),        interview_mha(), torch_mha()};
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
    // The marker lets a later call (new B or S) tell its own mask from a user's file.
    const std::string marker = "(" + recipe->name + " key pattern)";
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
