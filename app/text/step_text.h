// The words of each step: title, formula and explanation, produced at display time
// from the step's id and the configuration, in the catalogue's language. The trace
// holds numbers only, so switching language needs no recompute.
#pragma once

#include <optional>
#include <string>

#include "app/text/languages.h"
#include "core/config.h"
#include "core/step_id.h"
#include "core/step_text.h"
#include "core/trace.h"
#include "core/vocabulary.h"

namespace attn::text {

struct StepText {
    std::string title;        // "Scores: Q K^T per head"
    std::string formula;      // "scores[b,h] = Q[b,h] K[b,h]^T"
    std::string explanation;  // a few plain sentences quoting the configuration's sizes
};

// The key of a text that names what one token of a trained model is: `word_key` for a
// word-level model (tiny-lm), `character_key` for a character-level one (tiny-lm-zh).
inline const char* token_unit_key(TokenUnit unit, const char* word_key, const char* character_key) {
    return unit == TokenUnit::Character ? character_key : word_key;
}

// Text for step `id` under `config` (the variant and mask change some of it; `unit`, what
// one token of the model is, changes the tokens and next-token steps).
StepText describe_step(StepId id, const AttentionConfig& config, const Catalogue& catalogue = active(),
                       TokenUnit unit = TokenUnit::Word);
// Only the title (the timeline and the status line need no more).
std::string step_title(StepId id, const AttentionConfig& config, const Catalogue& catalogue = active(),
                       TokenUnit unit = TokenUnit::Word);

// The same for a step of a trace (the views' usual entry point): its configuration and,
// for a trained model, its token unit.
StepText describe_step(const Step& step, const Trace& trace, const Catalogue& catalogue = active());
std::string step_title(const Step& step, const Trace& trace, const Catalogue& catalogue = active());

// A trained model's norm by name ("RMSNorm", from its card), in the catalogue's language;
// without a model (none), the words for either (model.norm.per_card).
std::string norm_name(std::optional<NormKind> norm, const Catalogue& catalogue = active());

// What a step that is not a view does to storage ("a copy: torch.cat writes a new
// buffer" for the stacked concat); "" for other steps.
std::string copy_badge(StepId id, const AttentionConfig& config, const Catalogue& catalogue = active());
std::string copy_badge(const Step& step, const AttentionConfig& config, const Catalogue& catalogue = active());

// For a recipe whose code copies the heads at another step than AttnViz's trace
// (core/recipe.h, HeadJoinCode): on context_split and concat, what the code does there
// ("this recipe's code: .contiguous() copies here ..."); "" otherwise.
std::string code_copy_note(StepId id, const AttentionConfig& config, const Catalogue& catalogue = active());

// A sentence on what dividing by sqrt(d_h) changed in one row (see core scaling_effect).
std::string describe_scaling_effect(const ScalingEffect& effect, int head_dim, const Catalogue& catalogue = active());

// For query row `row` of `head` in `batch_item`: "" for an ordinary row; when the trace
// flags the row as fully masked, why its weights are all zero (not NaN).
std::string fully_masked_row_note(const Trace& trace, int batch_item, int head, int row,
                                  const Catalogue& catalogue = active());

}  // namespace attn::text
