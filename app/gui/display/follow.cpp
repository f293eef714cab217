// cell_lineage: the followed cell's explanation, its operand's, and so on back to where the
// number was made; then every later cell whose explanation names a cell already reached.
#include "app/gui/display/follow.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace attn::gui {
namespace {

using Key = std::pair<StepId, std::vector<int64_t>>;

bool has_operand(const CellAddress& a) { return a.kind == CellAddress::Kind::Step && !a.index.empty(); }

// Given and Parameter cells list where they go in their highlights (the flows): not sources.
bool made_by_nothing(const CellExplanation& e) { return e.rule == CellRule::Given || e.rule == CellRule::Parameter; }

// The lineage as it grows: the first role a cell gets is its role.
struct Walk {
    const Trace& trace;
    std::map<StepId, std::vector<LineageCell>> cells;
    std::set<Key> seen;
    bool add(StepId step, const std::vector<int64_t>& index, LineageRole role) {
        if (!seen.insert({step, index}).second) return false;
        cells[step].push_back({index, role});
        return true;
    }
};

// Backwards. The chain (the followed cell, the operand it was computed from, that one's
// operand, ...) keeps the same number: each link is Same, and the cells its explanation
// highlights are its sources. A source is followed back only through the number it
// carries (its operand: a score's q row back through q_heads to q), not through what made it.
void walk_back(Walk& w, const CellAddress& start) {
    std::deque<std::pair<CellAddress, bool>> todo{{start, true}};  // (cell, on the chain)
    while (!todo.empty()) {
        const auto [cell, chain] = todo.front();
        todo.pop_front();
        const CellExplanation e = explain_cell(w.trace, cell);
        if (!e.valid || made_by_nothing(e)) continue;
        if (has_operand(e.operand) && w.add(e.operand.step, e.operand.index, chain ? LineageRole::Same : LineageRole::Source))
            todo.push_back({e.operand, chain});
        if (!chain) continue;
        for (const StepCells& h : e.highlights)
            for (const std::vector<int64_t>& index : h.cells)
                if (w.add(h.step, index, LineageRole::Source)) todo.push_back({CellAddress::of_step(h.step, index), false});
    }
}

void for_each_index(const std::vector<int64_t>& shape, const std::function<void(const std::vector<int64_t>&)>& visit) {
    for (int64_t extent : shape)
        if (extent <= 0) return;
    std::vector<int64_t> index(shape.size(), 0);
    while (true) {
        visit(index);
        size_t d = shape.size();
        while (d > 0 && ++index[d - 1] == shape[d - 1]) index[--d] = 0;
        if (d == 0) return;
    }
}

// What a later cell is to the lineage, from its explanation: the followed number carried
// on (its operand is a Same cell), a cell the number goes into (its operand, second
// summand or, for a sum of terms, a highlighted cell was reached), or nothing.
std::optional<LineageRole> forward_role(const CellExplanation& e, const std::set<Key>& same, const std::set<Key>& reached) {
    if (!e.valid || made_by_nothing(e)) return std::nullopt;
    if (has_operand(e.operand)) {
        if (same.count({e.operand.step, e.operand.index})) return LineageRole::Same;
        if (reached.count({e.operand.step, e.operand.index})) return LineageRole::Feeds;
        if (has_operand(e.operand2) && reached.count({e.operand2.step, e.operand2.index})) return LineageRole::Feeds;
        return std::nullopt;  // one operand (a softmax's own score): the rest of its row only normalises it
    }
    for (const StepCells& h : e.highlights)
        for (const std::vector<int64_t>& index : h.cells)
            if (reached.count({h.step, index})) return LineageRole::Feeds;
    return std::nullopt;
}

// Forwards: every step after the followed one that reads a step already reached, cell by cell.
void walk_forward(Walk& w, const CellAddress& start, const CellExplanation& first, bool& cut_short) {
    std::set<Key> same, reached;
    std::set<StepId> touched;
    if (start.kind == CellAddress::Kind::Step) {
        same.insert({start.step, start.index});
        reached.insert({start.step, start.index});
        touched.insert(start.step);
    }
    if (made_by_nothing(first))  // an input or a weight: the cells reading it are listed
        for (const StepCells& f : first.flows)
            for (const std::vector<int64_t>& index : f.cells) {
                w.add(f.step, index, LineageRole::Feeds);
                reached.insert({f.step, index});
                touched.insert(f.step);
            }
    const int from = start.kind == CellAddress::Kind::Step ? w.trace.index_of(start.step) + 1 : 0;
    for (size_t i = static_cast<size_t>(std::max(0, from)); i < w.trace.steps.size(); ++i) {
        const Step& step = w.trace.steps[i];
        const bool reads = std::any_of(step.sources.begin(), step.sources.end(), [&](StepId s) { return touched.count(s) > 0; });
        if (!reads) continue;
        if (step.tensor.numel() > kMaxLineageScan) {
            cut_short = true;
            return;
        }
        for_each_index(step.tensor.shape(), [&](const std::vector<int64_t>& index) {
            if (w.seen.count({step.id, index})) return;
            const std::optional<LineageRole> role = forward_role(explain_cell(w.trace, CellAddress::of_step(step.id, index)), same, reached);
            if (!role) return;
            w.add(step.id, index, *role);
            if (*role == LineageRole::Same) same.insert({step.id, index});
            reached.insert({step.id, index});
            touched.insert(step.id);
        });
    }
}

}  // namespace

const LineageStep* Lineage::find(StepId step) const {
    for (const LineageStep& s : steps)
        if (s.step == step) return &s;
    return nullptr;
}

Lineage cell_lineage(const Trace& trace, const CellAddress& followed) {
    Lineage lineage;
    lineage.followed = followed;
    const CellExplanation first = explain_cell(trace, followed);
    if (!first.valid) return lineage;
    Walk walk{trace, {}, {}};
    if (followed.kind == CellAddress::Kind::Step) walk.add(followed.step, followed.index, LineageRole::Same);
    walk_back(walk, followed);
    walk_forward(walk, followed, first, lineage.cut_short);
    for (const Step& step : trace.steps) {
        auto found = walk.cells.find(step.id);
        if (found != walk.cells.end()) lineage.steps.push_back({step.id, std::move(found->second)});
    }
    return lineage;
}

std::vector<FollowStop> follow_strip(const Trace& trace, const Lineage& lineage) {
    std::vector<FollowStop> stops;
    int last_same = -1;  // the last step holding the number; the steps after it are what it feeds
    for (size_t i = 0; i < lineage.steps.size(); ++i)
        for (const LineageCell& c : lineage.steps[i].cells)
            if (c.role == LineageRole::Same) last_same = static_cast<int>(i);
    for (size_t i = 0; i < lineage.steps.size(); ++i) {
        const LineageStep& s = lineage.steps[i];
        FollowStop stop;
        stop.step = s.step;
        const auto same = std::find_if(s.cells.begin(), s.cells.end(), [](const LineageCell& c) { return c.role == LineageRole::Same; });
        if (same != s.cells.end()) {
            stop.value = value_at_cell(trace, CellAddress::of_step(s.step, same->index));
            stops.push_back(stop);
            continue;
        }
        if (static_cast<int>(i) < last_same) continue;  // the sources are on the canvas, not in the strip
        stop.same = false;
        stop.cells = std::count_if(s.cells.begin(), s.cells.end(), [](const LineageCell& c) { return c.role == LineageRole::Feeds; });
        if (stop.cells > 0) stops.push_back(stop);
    }
    return stops;
}

bool panel_cell(const StepDisplay& sd, const std::vector<int64_t>& index, PanelCellPos& out) {
    for (size_t p = 0; p < sd.panels.size(); ++p) {
        const Panel& panel = sd.panels[p];
        if (panel.origin.size() != index.size()) continue;
        bool inside = true;
        int row = 0, col = 0;
        for (size_t d = 0; d < index.size() && inside; ++d) {
            const int64_t offset = index[d] - panel.origin[d];
            if (static_cast<int>(d) == panel.row_dim) row = static_cast<int>(offset);
            else if (static_cast<int>(d) == panel.col_dim) col = static_cast<int>(offset);
            else inside = offset == 0;
        }
        if (!inside || row < 0 || col < 0 || row >= panel.rows || col >= std::max(1, panel.cols)) continue;
        out = PanelCellPos{static_cast<int>(p), row, col};
        return true;
    }
    return false;
}

}  // namespace attn::gui
