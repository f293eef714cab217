// Recipes: named, complete configurations, one per system the source articles teach
// (Hugging Face's LlamaAttention, the LLM-from-scratch modules, the interview article's
// four self-attention levels and its multi-head class, nn.MultiheadAttention).
//
// A recipe is a starting point: the window and every subcommand apply it first and then
// any option the user gave on top (`--recipe scratch-mha -L 4`). With InitKind::Torch
// (the recipes' default) the weights, the drawn inputs and the dropout mask are the ones
// `torch.manual_seed(seed)` and the recipe's PyTorch module give
// (core/torch_replay.h); assets/code/recipe_modules.py holds those modules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/message.h"

namespace attn {

// How a recipe's PyTorch code creates its parameters: the draw order --init torch replays.
enum class TorchModuleKind {
    RandParametersPerHead,  // per head: nn.Parameter(torch.rand(d_in, d_h)) for query, key, value
                            // (one head after the other); then nn.Linear(E, E) if there is an output projection
    SeparateLinears,        // nn.Linear for q, k, v, then the output projection (if any)
    FusedLinear,            // one nn.Linear(d_in, E + 2 H_kv d_h), then the output projection (if any)
    MultiheadAttention,     // nn.MultiheadAttention(E, H, kdim=, vdim=, bias=)
};
const char* to_string(TorchModuleKind kind);

// Where a recipe's PyTorch code makes the one copy that rejoins the heads. AttnViz's
// trace always copies at concat (context_split is a transposed view, then
// contiguous + view); some articles call .contiguous() on the transpose already, and then
// concat is a view in PyTorch. The step texts say where the code differs.
// tests/test_recipe_code.cpp holds each recipe's value to its class in recipe_modules.py.
enum class HeadJoinCode {
    CopyAtConcat,            // context.transpose(1, 2); context.contiguous().view(B, L, E) (or no such lines)
    CopyAtSplitThenView,     // context.transpose(1, 2).contiguous(); context.view(B, L, -1)
    CopyAtSplitThenReshape,  // context.transpose(1, 2).contiguous(); context.reshape(B, L, -1)
};

// Which torch sampler fills inputs the recipe draws.
enum class InputDraw { Rand, Randn };

struct Recipe {
    std::string name;          // "scratch-mha": what --recipe takes
    // The recipe's words are catalogue entries, one per language file (English required,
    // the others fall back to it): "recipe.<name with _>.description" (one line) and
    // ".special" (a few lines for the recipe card: what sets this system apart).
    Message description;
    std::string article;       // the source article's title, as the article names itself (any script)
    // Or, for a system no article teaches, the repository file it follows
    // ("rasbt/LLMs-from-scratch: ch04/03_kv-cache/gpt_with_kv_cache.py"); the card cites it.
    std::string source_file;
    // How the recipe's own code keeps its KV cache, where that differs from k_cache's
    // (B, H_kv, S_t, d_h): a sentence the cache steps' explanation adds. Empty for most.
    Message cache_note;
    Message special;
    AttentionConfig config;    // the complete configuration (recipe and init already set)
    TorchModuleKind module = TorchModuleKind::SeparateLinears;
    std::string torch_class;   // its module in assets/code/recipe_modules.py ("ScratchMha")
    bool inputs_before_module = false;  // the article draws X = torch.rand(...) before building the module
    InputDraw input_draw = InputDraw::Rand;
    HeadJoinCode head_join = HeadJoinCode::CopyAtConcat;
    std::string example_input;          // core/example_input.h name used when its (L, d_in) fits; "" for none
    // Key mask of the article's example, (B0, S0), 1 = a real key; other sizes repeat it
    // (item b, key j read [b % B0][j % S0]). Empty for none.
    std::vector<std::vector<uint8_t>> key_pattern;
};

// Every recipe, in the order `attnviz recipes` lists them.
const std::vector<Recipe>& recipes();
// The recipe called `name`, or null.
const Recipe* find_recipe(const std::string& name);
// How the code of config.recipe rejoins the heads; CopyAtConcat without a (known) recipe.
HeadJoinCode head_join_code(const AttentionConfig& config);
// "llama, scratch-stacked, ...": for messages.
std::string recipe_names();

// "(interview-mha key pattern)": the manifest's mask_file entry (in English, mask_file_path)
// for the mask a recipe's key pattern makes; fit_recipe_masks knows its own mask by it.
Message recipe_mask_label(const Recipe& recipe);

// The parts of a recipe that depend on the final sizes, once B and S are known: its valid
// lengths (while they are still the article's) repeated over the batch and clipped to S,
// and its key pattern as a boolean mask (B, 1, 1, S) (True = masked out) when no mask file
// is set. Does nothing for a configuration without a (known) recipe. Returns a note
// (recipe.note.lengths_clipped) when a length had to be clipped to a shorter S, else an
// empty Message.
Message fit_recipe_masks(AttentionConfig& config);

}  // namespace attn
