#include "app/gui/display/weight_lines.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attn::gui {

bool draws_weight_lines(StepId id) {
    const StepInfo& info = step_info(id);
    return info.probability() && info.side == StepSide::Map;
}

namespace {

// The (B, H, L, S) mask step of the forward: the scores with -inf where a key is hidden.
const Tensor* mask_scores(const Trace& trace) {
    for (const Step& s : trace.steps)
        if (s.kind == StepKind::Mask && s.tensor.rank() == 4) return &s.tensor;
    return nullptr;
}

// The element (batch, head, query, key) of `t` by its dimension roles (head ignored when
// `t` has none).
struct MapReader {
    const Tensor& t;
    int b = -1, h = -1, l = -1, s = -1;
    explicit MapReader(const Tensor& tensor)
        : t(tensor), b(t.find_dim(DimRole::Batch)), h(t.find_dim(DimRole::Head)), l(t.find_dim(DimRole::QueryPos)),
          s(t.find_dim(DimRole::KeyPos)) {}
    bool ok() const { return !t.empty() && b >= 0 && l >= 0 && s >= 0; }
    int heads() const { return h >= 0 ? static_cast<int>(t.dim(h)) : 0; }
    float at(int64_t batch, int64_t head, int64_t query, int64_t key) const {
        const std::vector<int64_t>& st = t.strides();
        int64_t offset = batch * st[static_cast<size_t>(b)] + query * st[static_cast<size_t>(l)] + key * st[static_cast<size_t>(s)];
        if (h >= 0) offset += head * st[static_cast<size_t>(h)];
        return t.data()[offset];
    }
};

// 1 where the mask hid key k from query q: in head `head`, or in every head when head < 0.
std::vector<uint8_t> masked_pairs(const Tensor* mask, int batch_item, int head, int queries, int keys) {
    if (!mask) return {};
    const MapReader m(*mask);
    if (!m.ok() || m.heads() == 0 || m.t.dim(m.l) != queries || m.t.dim(m.s) != keys) return {};
    const float neg_inf = -std::numeric_limits<float>::infinity();
    std::vector<uint8_t> out(static_cast<size_t>(queries) * static_cast<size_t>(keys), 0);
    bool any = false;
    for (int q = 0; q < queries; ++q)
        for (int k = 0; k < keys; ++k) {
            bool hidden = true;
            for (int h = head >= 0 ? head : 0; h < (head >= 0 ? head + 1 : m.heads()) && hidden; ++h)
                hidden = m.at(batch_item, h, q, k) == neg_inf;
            out[static_cast<size_t>(q) * static_cast<size_t>(keys) + static_cast<size_t>(k)] = hidden ? 1 : 0;
            any = any || hidden;
        }
    if (!any) out.clear();
    return out;
}

}  // namespace

std::vector<HeadWeights> head_weights(const Trace& trace, int step_index, int batch_item, int head) {
    std::vector<HeadWeights> out;
    if (step_index < 0 || step_index >= static_cast<int>(trace.steps.size())) return out;
    const Step& step = trace.steps[static_cast<size_t>(step_index)];
    if (!draws_weight_lines(step.id)) return out;
    const MapReader w(step.tensor);
    if (!w.ok() || batch_item < 0 || batch_item >= w.t.dim(w.b)) return out;
    const int queries = static_cast<int>(w.t.dim(w.l)), keys = static_cast<int>(w.t.dim(w.s));
    const Tensor* mask = mask_scores(trace);
    // A head mean has no head axis: one entry, masked where every head was.
    const int first = w.heads() == 0 ? -1 : std::max(0, head), last = w.heads() == 0 ? -1 : head >= 0 ? head : w.heads() - 1;
    for (int h = first; h <= last; ++h) {
        if (h >= 0 && h >= w.heads()) break;
        HeadWeights hw;
        hw.head = h;
        hw.queries = queries;
        hw.keys = keys;
        hw.weights.resize(static_cast<size_t>(queries) * static_cast<size_t>(keys));
        for (int q = 0; q < queries; ++q)
            for (int k = 0; k < keys; ++k)
                hw.weights[static_cast<size_t>(q) * static_cast<size_t>(keys) + static_cast<size_t>(k)] = w.at(batch_item, std::max(h, 0), q, k);
        hw.masked = masked_pairs(mask, batch_item, h, queries, keys);
        out.push_back(std::move(hw));
    }
    return out;
}

namespace {

// Centres of `count` tokens spaced `row_h` apart, the column centred in [top, top + h].
std::vector<float> column_centres(int count, float top, float h, float row_h) {
    std::vector<float> y(static_cast<size_t>(std::max(0, count)));
    const float first = top + (h - row_h * static_cast<float>(count)) * 0.5f + row_h * 0.5f;
    for (int i = 0; i < count; ++i) y[static_cast<size_t>(i)] = first + row_h * static_cast<float>(i);
    return y;
}

bool touches(const TokenRef& focus, int query, int key) {
    if (!focus.valid()) return true;
    return focus.side == TokenRef::Side::Query ? focus.index == query : focus.index == key;
}

}  // namespace

TokenColumns token_columns(int queries, int keys, const Rect& area, const WeightLinesStyle& style) {
    TokenColumns c;
    c.area = area;
    // Tokens no further apart than four label heights: a short sentence stays compact.
    const int tallest = std::max({queries, keys, 1});
    c.row_h = std::min(area.h / static_cast<float>(tallest), style.font_px * 4.0f);
    const float side = style.label_w + style.gap + style.number_band;
    const float span = std::min(area.w - 2.0f * side, style.max_span_per_height * c.row_h * static_cast<float>(tallest));
    c.query_x = area.x + (area.w - span) * 0.5f;
    c.key_x = c.query_x + span;
    c.label_band = style.label_w + style.gap;
    c.query_y = column_centres(queries, area.y, area.h, c.row_h);
    c.key_y = column_centres(keys, area.y, area.h, c.row_h);
    c.labels = fit_stacked_labels(c.row_h, style.font_px, style.min_font_px, style.longest_label);
    c.labels.every = nice_stride(c.labels.every);
    return c;
}

std::vector<WeightLine> weight_lines(const std::vector<HeadWeights>& heads, const TokenColumns& columns,
                                     const WeightLinesStyle& style, TokenRef focus) {
    std::vector<WeightLine> lines;
    // Weights are on 0..1; dropout's survivors grow by 1/(1-p) and then set the top.
    float top = 1.0f;
    for (const HeadWeights& hw : heads)
        for (float v : hw.weights)
            if (std::isfinite(v)) top = std::max(top, v);
    // Neighbouring lines must not merge into a band: the widest is under the row spacing.
    const float max_w = std::max(style.min_width, std::min(style.max_width, columns.row_h * 0.6f));
    for (const HeadWeights& hw : heads)
        for (int q = 0; q < hw.queries; ++q)
            for (int k = 0; k < hw.keys; ++k) {
                if (hw.is_masked(q, k) || !touches(focus, q, k)) continue;
                const float v = hw.weight(q, k);
                const float t = std::isfinite(v) ? std::clamp(v / top, 0.0f, 1.0f) : 0.0f;
                lines.push_back(WeightLine{hw.head, q, k, v, style.min_width + (max_w - style.min_width) * t, t});
            }
    std::stable_sort(lines.begin(), lines.end(), [](const WeightLine& a, const WeightLine& b) { return a.alpha < b.alpha; });
    return lines;
}

KeySums key_sums(const std::vector<HeadWeights>& heads, const std::vector<int>& queries) {
    KeySums sums;
    if (heads.empty()) return sums;
    const int keys = heads.front().keys;
    sums.head_mean.assign(static_cast<size_t>(keys), 0.0f);
    for (const HeadWeights& hw : heads) {
        std::vector<float> row(static_cast<size_t>(keys), 0.0f);
        for (int q : queries) {
            if (q < 0 || q >= hw.queries) continue;
            for (int k = 0; k < keys; ++k)
                if (!hw.is_masked(q, k)) row[static_cast<size_t>(k)] += hw.weight(q, k);
        }
        for (int k = 0; k < keys; ++k) sums.head_mean[static_cast<size_t>(k)] += row[static_cast<size_t>(k)] / static_cast<float>(heads.size());
        sums.per_head.push_back(std::move(row));
    }
    return sums;
}

float fan_reach(float progress, int query, int queries) {
    const float start = queries > 1 ? 0.5f * static_cast<float>(query) / static_cast<float>(queries - 1) : 0.0f;
    const float t = std::clamp((progress - start) / 0.5f, 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);  // smoothstep: starts and lands gently
}

TokenRef token_at(const TokenColumns& c, float px, float py) {
    if (!c.area.contains(px, py) || c.row_h <= 0.0f) return {};
    const auto nearest = [&](const std::vector<float>& ys) {
        if (ys.empty()) return -1;
        const int i = static_cast<int>(std::lround((py - ys.front()) / c.row_h));
        return i >= 0 && i < static_cast<int>(ys.size()) ? i : -1;
    };
    TokenRef ref;
    if (px <= c.query_x && px >= c.query_x - c.label_band) ref = TokenRef{TokenRef::Side::Query, nearest(c.query_y)};
    else if (px >= c.key_x && px <= c.key_x + c.label_band) ref = TokenRef{TokenRef::Side::Key, nearest(c.key_y)};
    return ref.valid() ? ref : TokenRef{};
}

std::vector<int> readable_rows(const std::vector<float>& y, const std::vector<float>& priority, float min_gap) {
    std::vector<int> order(y.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return priority[static_cast<size_t>(a)] > priority[static_cast<size_t>(b)];
    });
    std::vector<int> kept;
    for (int i : order) {
        const bool clear = std::all_of(kept.begin(), kept.end(), [&](int k) {
            return std::abs(y[static_cast<size_t>(i)] - y[static_cast<size_t>(k)]) >= min_gap;
        });
        if (clear) kept.push_back(i);
    }
    std::sort(kept.begin(), kept.end());
    return kept;
}

}  // namespace attn::gui
