#include "app/gui/display/next_token_bars.h"

#include <algorithm>
#include <numeric>

namespace attn::gui {

NextTokenBars next_token_bars(const NextTokenChoice& choice, const std::vector<std::string>& vocabulary, int count) {
    NextTokenBars out;
    const int V = static_cast<int>(choice.probs.size());
    out.vocabulary = V;
    if (V == 0) return out;
    for (int i = 0; i < V; ++i) out.kept += choice.kept[static_cast<size_t>(i)] ? 1 : 0;
    std::vector<int> order(static_cast<size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    // Stable: equal probabilities keep the lower id first, as the filters order them.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return choice.probs(a) > choice.probs(b); });
    order.resize(static_cast<size_t>(std::clamp(count, 1, std::max(1, V))));
    if (std::find(order.begin(), order.end(), choice.token) == order.end()) order.back() = choice.token;
    for (int id : order) {
        NextTokenBar bar;
        bar.id = id;
        bar.label = id < static_cast<int>(vocabulary.size()) ? vocabulary[static_cast<size_t>(id)] : std::to_string(id);
        bar.model = choice.probs(id);
        bar.drawn_from = choice.filtered(id);
        bar.kept = choice.kept[static_cast<size_t>(id)] != 0;
        bar.drawn = id == choice.token;
        out.largest = std::max({out.largest, bar.model, bar.drawn_from});
        out.bars.push_back(std::move(bar));
    }
    return out;
}

}  // namespace attn::gui
