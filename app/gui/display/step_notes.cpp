#include "app/gui/display/step_notes.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "app/text/text_join.h"
#include "app/text/token_script.h"
#include "core/model/tokenizer.h"

namespace attn::gui {
namespace {


// The first word (not a special token) that occurs at several positions, and where.
std::pair<std::string, std::vector<int>> repeated_word(const std::vector<std::string>& tokens) {
    std::map<std::string, std::vector<int>> at;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        if (t.empty() || t.front() == '<') continue;
        at[t].push_back(static_cast<int>(i));
    }
    for (size_t i = 0; i < tokens.size(); ++i) {
        const auto it = at.find(tokens[i]);
        if (it != at.end() && it->second.size() > 1) return *it;
    }
    return {};
}

// "1, 4 and 7": the positions listed, the last joined by the catalogue's "and".
std::string positions_text(const std::vector<int>& positions) {
    if (positions.empty()) return "";
    std::vector<std::string> all_but_last;
    for (size_t i = 0; i + 1 < positions.size(); ++i) all_but_last.push_back(std::to_string(positions[i]));
    const std::string list = text::join_list(all_but_last);
    const std::string last = std::to_string(positions.back());
    return list.empty() ? last : text::trf("notes.positions_and", {{"list", list}, {"last", last}});
}

// A token of the model's vocabulary as drawn in the language in use (text/token_script.h).
std::string shown(const Trace& trace, const std::string& token) { return text::shown_token(trace.model.script_forms, token); }

// "next word after 'ran': . 0.93, and 0.02, ..." from row `row` of a (B, L, V) tensor
// (a character-level model's line says "next character").
std::string next_word_line(const Trace& trace, const Tensor& probs, int batch_item, int row) {
    const int vocab = static_cast<int>(probs.dim(2));
    std::vector<float> values(static_cast<size_t>(vocab));
    for (int v = 0; v < vocab; ++v) values[static_cast<size_t>(v)] = probs.at({batch_item, row, v});
    const std::vector<std::string>& words = trace.model.vocabulary;
    const std::vector<std::string>& tokens = trace.model.tokens;
    std::string line = text::trf(text::token_unit_key(trace.model.token_unit, "notes.next_word", "notes.next_character"),
                                 {{"word", row < static_cast<int>(tokens.size()) ? shown(trace, tokens[static_cast<size_t>(row)]) : "?"}});
    for (const auto& [index, p] : top_k(values.data(), vocab, 5)) {
        const std::string word = index < static_cast<int>(words.size()) ? shown(trace, words[static_cast<size_t>(index)]) : std::to_string(index);
        line += "  " + word + " " + text::fixed(p, 2);
    }
    return line;
}

}  // namespace

std::vector<std::pair<int, float>> top_k(const float* probs, int n, int k) {
    std::vector<int> order(static_cast<size_t>(std::max(0, n)));
    std::iota(order.begin(), order.end(), 0);
    const int keep = std::clamp(k, 0, n);
    std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&](int a, int b) {
        return probs[a] > probs[b] || (probs[a] == probs[b] && a < b);
    });
    std::vector<std::pair<int, float>> out;
    for (int i = 0; i < keep; ++i) out.emplace_back(order[static_cast<size_t>(i)], probs[order[static_cast<size_t>(i)]]);
    return out;
}

std::vector<std::string> step_notes(const Trace& trace, int step_index, int batch_item) {
    std::vector<std::string> notes;
    if (!trace.model.present() || step_index < 0 || step_index >= static_cast<int>(trace.steps.size())) return notes;
    const Step& step = trace.steps[static_cast<size_t>(step_index)];
    const auto [word, positions] = repeated_word(trace.model.tokens);
    switch (step_info(step.id).note) {
    case ModelNote::None:
        break;
    case ModelNote::UnknownWords:
        if (!trace.model.unknown_words.empty())
            notes.push_back(text::trf("notes.unknown_words", {{"note", text::render(unknown_words_note(trace.model.unknown_words))}}));
        break;
    case ModelNote::SameRow:
        if (!word.empty())
            notes.push_back(text::trf("notes.same_row", {{"word", shown(trace, word)}, {"positions", positions_text(positions)}}));
        break;
    case ModelNote::SumsDiffer:
        if (!word.empty()) {
            notes.push_back(text::trf("notes.sums_differ", {{"word", shown(trace, word)}, {"positions", positions_text(positions)}}));
            notes.push_back(text::tr("notes.tell_apart"));
        } else {
            notes.push_back(text::tr("notes.own_row"));
        }
        break;
    case ModelNote::Prediction: {
        if (trace.model.kind == "language") {
            const Step* probs = trace.find(StepId::NextTokenProbs);
            if (probs && probs->tensor.rank() == 3 && batch_item < probs->tensor.dim(0)) {
                const int last = static_cast<int>(probs->tensor.dim(1)) - 1;
                notes.push_back(next_word_line(trace, probs->tensor, batch_item, last));
                if (last > 0) notes.push_back(next_word_line(trace, probs->tensor, batch_item, last - 1));
            }
        } else if (!trace.model.predicted_tokens.empty()) {
            std::string tokens;
            for (const std::string& t : trace.model.predicted_tokens) tokens += (tokens.empty() ? "" : " ") + shown(trace, t);
            notes.push_back(text::trf("notes.model_output", {{"tokens", tokens}}));
        }
        // On the shown layer's steps (not the prediction itself): the prediction uses every layer.
        const bool later_layers = trace.model.layers > 1 && trace.model.layer + 1 < trace.model.layers;
        if (later_layers && step_info(step.id).kind != StepKind::Prediction)
            notes.push_back(text::trf("notes.layer_of", {{"layers", trace.model.layers}, {"layer", trace.model.layer}}));
        break;
    }
    }
    return notes;
}

}  // namespace attn::gui
