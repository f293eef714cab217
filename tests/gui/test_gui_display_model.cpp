#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "app/gui/display/display_model.h"
#include "core/attention.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using attn::test_configs::sized;

namespace {

Trace make_trace(int L, int E, int H, MaskKind mask = MaskKind::None, Variant variant = Variant::Split) {
    AttentionConfig c;
    c.seq_len = L;
    c.hidden_dim = E;
    c.num_heads = H;
    c.mask = mask;
    c.variant = variant;
    Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    return std::move(t.value());
}

const StepDisplay& step_of(const DisplayModel& m, const Trace& t, const std::string& name) {
    const int i = t.index_of(parse_step_name(name).value());
    REQUIRE(i >= 0);
    return m.steps[static_cast<size_t>(i)];
}

}  // namespace

TEST_CASE("every step gets a display, heads-first tensors become small multiples") {
    const Trace t = make_trace(5, 6, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    REQUIRE(m.steps.size() == t.steps.size());
    const StepDisplay& scores = step_of(m, t, "attn_scores");
    CHECK(scores.arrangement == Arrangement::Grid);
    CHECK(scores.panels.size() == 2u);
    CHECK(scores.panels[1].head == 1);
    CHECK(scores.row_labels == AxisLabels::QueryTokens);
    CHECK(scores.col_labels == AxisLabels::KeyTokens);
    const StepDisplay& split = step_of(m, t, "q_split");
    CHECK(split.arrangement == Arrangement::ColumnGroups);
    CHECK_FALSE(split.joined);
    const StepDisplay& q = step_of(m, t, "q");
    CHECK(q.arrangement == Arrangement::ColumnGroups);
    CHECK(q.joined);
    CHECK(step_of(m, t, "input").arrangement == Arrangement::Single);
}

TEST_CASE("panel cells read the same numbers as the tensor, even through a transpose") {
    const Trace t = make_trace(4, 6, 3);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const int qi = t.index_of(attn::StepId::QHeads);
    const Step& step = t.steps[static_cast<size_t>(qi)];
    const StepDisplay& sd = m.steps[static_cast<size_t>(qi)];
    REQUIRE(!step.tensor.is_contiguous());
    for (const Panel& p : sd.panels) {
        for (int r = 0; r < p.rows; ++r) {
            for (int c = 0; c < p.cols; ++c) {
                CAPTURE(p.head);
                CAPTURE(r);
                CAPTURE(c);
                CHECK(p.values[static_cast<size_t>(r * p.cols + c)] == step.tensor.at({0, p.head, r, c}));
                CHECK(cell_value(step.tensor, p, r, c) == step.tensor.at({0, p.head, r, c}));
            }
        }
    }
}

TEST_CASE("views share a buffer id and the concatenation gets a new one") {
    const Trace t = make_trace(4, 6, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& q = step_of(m, t, "q");
    const StepDisplay& heads = step_of(m, t, "q_heads");
    CHECK(q.strip.buffer_id == heads.strip.buffer_id);
    CHECK(heads.strip.shares_with == "q");
    CHECK_FALSE(heads.strip.contiguous);
    const StepDisplay& context = step_of(m, t, "context");
    const StepDisplay& concat = step_of(m, t, "concat");
    CHECK(concat.strip.buffer_id != context.strip.buffer_id);
    CHECK(concat.strip.shares_with.empty());
}

TEST_CASE("the storage strip colours a transposed tensor's buffer like the original") {
    const Trace t = make_trace(3, 4, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& split = step_of(m, t, "q_split");
    const StepDisplay& heads = step_of(m, t, "q_heads");
    CHECK(split.strip.bins == heads.strip.bins);
    // (L=3, H=2, d_h=2): heads alternate every 2 floats in the buffer.
    REQUIRE(split.strip.bins.size() == 12u);
    CHECK(split.strip.bins[0] == 0);
    CHECK(split.strip.bins[2] == 1);
    // The transpose reads the buffer in another order: its second row starts 4 floats on.
    REQUIRE(heads.strip.first_positions.size() >= 3u);
    CHECK(heads.strip.first_positions[1] == 1);
    CHECK(heads.strip.first_positions[2] == 4);
}

namespace {

// The strip's bins worked out the other way round: every element of the tensor marks its
// storage position with its head (-2 for a step without heads), positions no element
// reaches stay -1, and a bin sampled at more than one value is mixed (-3), as
// StorageStrip documents.
std::vector<int8_t> strip_bins_by_elements(const Tensor& t, const StorageStrip& strip, int h_dim, int group_dim, int heads, int head_dim) {
    std::vector<int> head_at(static_cast<size_t>(strip.storage_elements), -1);
    std::vector<int64_t> idx(static_cast<size_t>(t.rank()), 0);
    for (int64_t n = 0; n < t.numel(); ++n) {
        int64_t r = n, pos = t.offset();
        for (int d = t.rank() - 1; d >= 0; --d) {
            const auto du = static_cast<size_t>(d);
            idx[du] = r % t.shape()[du];
            r /= t.shape()[du];
            pos += idx[du] * t.strides()[du];
        }
        int h = -2;
        if (h_dim >= 0) h = static_cast<int>(idx[static_cast<size_t>(h_dim)]);
        else if (group_dim >= 0) h = static_cast<int>(idx[static_cast<size_t>(group_dim)] / head_dim % heads);
        head_at[static_cast<size_t>(pos)] = h >= 0 ? std::min(h, 127) : h;
    }
    const auto bins = static_cast<int64_t>(strip.bins.size());
    const int64_t per_bin = std::max<int64_t>(1, strip.storage_elements / bins);
    const int64_t samples = std::min<int64_t>(per_bin, 16);
    std::vector<int8_t> out;
    for (int64_t bin = 0; bin < bins; ++bin) {
        const int64_t begin = bin * strip.storage_elements / bins;
        int value = head_at[static_cast<size_t>(begin)];
        for (int64_t k = 1; k < samples; ++k)
            if (head_at[static_cast<size_t>(begin + per_bin * k / samples)] != value) value = -3;
        out.push_back(static_cast<int8_t>(value));
    }
    return out;
}

}  // namespace

TEST_CASE("every step's storage strip matches its elements' heads, contiguous, viewed, transposed or sliced") {
    for (Variant v : {Variant::Split, Variant::Fused, Variant::Stacked}) {
        for (const std::array<int, 3>& size : {std::array<int, 3>{3, 4, 2}, std::array<int, 3>{40, 32, 4}}) {
            const Trace t = make_trace(size[0], size[1], size[2], MaskKind::Causal, v);
            const DisplayModel m = build_display_model(t, {}, {}, 0);
            for (size_t i = 0; i < t.steps.size(); ++i) {
                const Tensor& tensor = t.steps[i].tensor;
                const StepDisplay& sd = m.steps[i];
                if (tensor.empty() || tensor.rank() == 0 || sd.strip.bins.empty()) continue;
                CAPTURE(to_string(v));
                CAPTURE(size[0]);
                CAPTURE(t.steps[i].name());
                const int h_dim = tensor.find_dim(DimRole::Head);
                const bool grouped = h_dim < 0 && sd.arrangement == Arrangement::ColumnGroups;
                const int group_dim = grouped ? tensor.rank() - 1 : -1;
                CHECK(sd.strip.bins == strip_bins_by_elements(tensor, sd.strip, h_dim, group_dim, m.heads, m.head_dim));
            }
        }
    }
}

TEST_CASE("probabilities use the sequential colormap and signed values a symmetric range") {
    const Trace t = make_trace(4, 4, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& w = step_of(m, t, "attn_weights");
    CHECK(w.colormap == ColormapKind::Sequential);
    CHECK(w.vmin == 0.0f);
    const StepDisplay& s = step_of(m, t, "attn_scores");
    CHECK(s.colormap == ColormapKind::Diverging);
    CHECK(s.vmin == -s.vmax);
}

TEST_CASE("a finite mask fill (-1e20, finfo.min) does not stretch the scores' colour scale") {
    for (const char* fill : {"-1e20", "min"}) {
        for (bool mask_first : {false, true}) {
            CAPTURE(fill);
            CAPTURE(mask_first);
            AttentionConfig c = sized(5, 4, 2);
            c.mask = MaskKind::Causal;
            c.mask_fill = parse_mask_fill(fill).value();
            c.mask_before_scale = mask_first;  // then the scaled step holds fill * 1/sqrt(d_h)
            Result<Trace> t = run_attention(c);
            REQUIRE(t.ok());
            const DisplayModel m = build_display_model(t.value(), {}, {}, 0);
            for (const char* name : {"attn_scores", "attn_scaled", "attn_masked"}) {
                CAPTURE(name);
                const StepDisplay& sd = step_of(m, t.value(), name);
                CHECK(sd.vmax < 100.0f);  // the scores' own size, not 1e20
                CHECK(sd.vmax > 0.0f);
            }
        }
    }
}

TEST_CASE("dropout survivors and their source share one probability scale that starts at 0..1") {
    AttentionConfig c = sized(6, 6, 2);
    c.dropout = 0.3f;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    const DisplayModel m = build_display_model(t.value(), {}, {}, 0);
    const StepDisplay& weights = step_of(m, t.value(), "attn_weights");
    const StepDisplay& dropped = step_of(m, t.value(), "attn_dropped");
    // Before: weights on 0..max(weights) and survivors on 0..max(survivors): the 1/(1-p)
    // rescale was invisible. Now one scale, at least 0..1.
    CHECK(weights.vmin == 0.0f);
    CHECK(weights.vmax == dropped.vmax);
    CHECK(weights.vmax >= 1.0f);
    CHECK(dropped.vmax >= dropped.data_max);
}

TEST_CASE("a step that moves or rescales values shares its source's symmetric scale") {
    const Trace t = make_trace(5, 6, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& q = step_of(m, t, "q");
    CHECK(step_of(m, t, "q_split").vmax == q.vmax);
    CHECK(step_of(m, t, "q_heads").vmax == q.vmax);
    const StepDisplay& scores = step_of(m, t, "attn_scores");
    const StepDisplay& scaled = step_of(m, t, "attn_scaled");
    CHECK(scaled.vmax == scores.vmax);
    CHECK(scaled.vmin == -scaled.vmax);
    const auto extent = [](const StepDisplay& sd) { return std::max(std::fabs(sd.data_min), std::fabs(sd.data_max)); };
    CHECK(extent(scaled) < extent(scores));  // the shrink shows as paler colours
    const StepDisplay& v = step_of(m, t, "v_heads");
    CHECK(step_of(m, t, "context").vmax == v.vmax);
    CHECK(step_of(m, t, "context").vmax >= step_of(m, t, "context").data_max);
}

TEST_CASE("masked cells are counted for the causal mask") {
    const Trace t = make_trace(4, 4, 2, MaskKind::Causal);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    // 6 masked cells above the diagonal of a 4x4 map, in each of 2 heads.
    CHECK(step_of(m, t, "attn_masked").masked_cells == 12);
}

TEST_CASE("big maps are pooled keeping the strongest value, and -inf only when all are") {
    const float ninf = -INFINITY;
    // 2 x 4 -> 1 x 2: blocks {1, -5, 0, 0} and {2, 0, 3, 0}.
    const std::vector<float> v = {1, -5, 2, 0, 0, 0, 3, 0};
    const std::vector<float> out = pool_max_abs(v, 2, 4, 1, 2);
    REQUIRE(out.size() == 2u);
    CHECK(out[0] == -5.0f);
    CHECK(out[1] == 3.0f);
    const std::vector<float> masked = {ninf, ninf, ninf, 0.5f};
    const std::vector<float> m = pool_max_abs(masked, 2, 2, 1, 1);
    CHECK(m[0] == 0.5f);
    const std::vector<float> all = {ninf, ninf};
    CHECK(std::isinf(pool_max_abs(all, 1, 2, 1, 1)[0]));
}

TEST_CASE("pooling hands each row over once and pools the same as without, finite or not") {
    // 6 x 8 from a 10-wide buffer (a strided view): whole blocks (-> 3 x 4), a -inf and a
    // NaN in one block (the general way after the fast one), and blocks that do not divide (-> 4 x 3).
    std::vector<float> buffer(60);
    for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = std::sin(static_cast<float>(i) * 1.7f) * static_cast<float>(i % 7);
    std::vector<float> with_marks = buffer;
    with_marks[23] = -INFINITY;
    with_marks[44] = NAN;
    for (const std::vector<float>* values : {&buffer, &with_marks}) {
        for (const std::array<int, 2>& out : {std::array<int, 2>{3, 4}, std::array<int, 2>{4, 3}}) {
            std::vector<const float*> rows_read;
            const std::vector<float> pooled = pool_max_abs(values->data(), 10, 6, 8, out[0], out[1],
                                                           [&](const float* row, int cols) {
                                                               CHECK(cols == 8);
                                                               rows_read.push_back(row);
                                                           });
            std::vector<float> copy;  // the slice, row-major, pooled the plain way
            for (int r = 0; r < 6; ++r) copy.insert(copy.end(), values->begin() + r * 10, values->begin() + r * 10 + 8);
            const std::vector<float> plain = pool_max_abs(copy, 6, 8, out[0], out[1]);
            REQUIRE(pooled.size() == plain.size());
            for (size_t i = 0; i < plain.size(); ++i) {
                CAPTURE(i);
                CHECK((pooled[i] == plain[i] || (std::isnan(pooled[i]) && std::isnan(plain[i]))));
            }
            REQUIRE(rows_read.size() == 6u);
            for (int r = 0; r < 6; ++r) CHECK(rows_read[static_cast<size_t>(r)] == values->data() + r * 10);
        }
    }
}

TEST_CASE("a large trace is reduced to display resolution") {
    const Trace t = make_trace(300, 16, 4);
    const DisplayModel m = build_display_model(t, {}, {}, 0, 128);
    const StepDisplay& s = step_of(m, t, "attn_scores");
    for (const Panel& p : s.panels) {
        CHECK(p.rows == 300);
        CHECK(p.tex_rows <= 128);
        CHECK(p.values.size() == static_cast<size_t>(p.tex_rows) * p.tex_cols);
    }
}

TEST_CASE("fused and stacked variants get displays too") {
    for (Variant v : {Variant::Fused, Variant::Stacked}) {
        const Trace t = make_trace(3, 6, 3, MaskKind::None, v);
        const DisplayModel m = build_display_model(t, {}, {}, 0);
        CAPTURE(to_string(v));
        REQUIRE(m.steps.size() == t.steps.size());
        for (const StepDisplay& sd : m.steps) CHECK_FALSE(sd.panels.empty());
    }
}

namespace {

void check_same_panels(const std::vector<Panel>& a, const std::vector<Panel>& b) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        CAPTURE(i);
        CHECK(a[i].head == b[i].head);
        CHECK(a[i].label == b[i].label);
        CHECK(a[i].rows == b[i].rows);
        CHECK(a[i].cols == b[i].cols);
        CHECK(a[i].tex_rows == b[i].tex_rows);
        CHECK(a[i].tex_cols == b[i].tex_cols);
        CHECK(a[i].origin == b[i].origin);
        CHECK(a[i].row_dim == b[i].row_dim);
        CHECK(a[i].col_dim == b[i].col_dim);
        CHECK(a[i].values == b[i].values);  // bit for bit (+-inf marks included)
    }
}

// Every field a view reads.
void check_same_display(const StepDisplay& a, const StepDisplay& b) {
    CHECK(a.built == b.built);
    CHECK(a.arrangement == b.arrangement);
    CHECK(a.joined == b.joined);
    CHECK(a.row_name == b.row_name);
    CHECK(a.col_name == b.col_name);
    CHECK(a.row_labels == b.row_labels);
    CHECK(a.col_labels == b.col_labels);
    CHECK(a.colormap == b.colormap);
    CHECK(a.vmin == b.vmin);
    CHECK(a.vmax == b.vmax);
    CHECK(a.data_min == b.data_min);
    CHECK(a.data_max == b.data_max);
    CHECK(a.masked_cells == b.masked_cells);
    CHECK(a.masked_zero_cells == b.masked_zero_cells);
    CHECK(a.from_step == b.from_step);
    CHECK(a.weight_vmin == b.weight_vmin);
    CHECK(a.weight_vmax == b.weight_vmax);
    check_same_panels(a.panels, b.panels);
    check_same_panels(a.weight_panels, b.weight_panels);
    check_same_panels(a.bias_panels, b.bias_panels);
    CHECK(a.strip.buffer_id == b.strip.buffer_id);
    CHECK(a.strip.shares_with == b.strip.shares_with);
    CHECK(a.strip.bins == b.strip.bins);
    CHECK(a.strip.first_positions == b.strip.first_positions);
    CHECK(a.strip.storage_elements == b.strip.storage_elements);
}

}  // namespace

TEST_CASE("a model built around one step and completed later equals the model built at once") {
    struct Case {
        const char* what;
        AttentionConfig config;
    };
    std::vector<Case> cases;
    AttentionConfig c = sized(6, 8, 2);
    cases.push_back({"plain", c});
    c.mask = MaskKind::Causal;
    cases.push_back({"causal", c});
    c.dropout = 0.3f;
    c.variant = Variant::Fused;
    cases.push_back({"causal, dropout, fused", c});
    AttentionConfig padded = cases[0].config;
    padded.batch = 2;
    padded.mask = MaskKind::Padding;
    padded.valid_lengths = {6, 3};
    padded.variant = Variant::Stacked;
    cases.push_back({"padding, batch 2, stacked", padded});
    AttentionConfig big = cases[0].config;
    big.seq_len = 150;  // pooled panels
    big.hidden_dim = 32;
    cases.push_back({"pooled", big});
    big.seq_len = 128;  // pooled by whole blocks of 2 x 2
    cases.push_back({"pooled by whole blocks", big});
    for (const Case& k : cases) {
        CAPTURE(k.what);
        Result<Trace> traced = run_attention(k.config);
        REQUIRE_MESSAGE(traced.ok(), traced.error());
        const Trace& t = traced.value();
        const int item = k.config.batch - 1;
        const DisplayModel full = build_display_model(t, {"a"}, {"b"}, item, 64);
        CHECK(full.complete());
        for (int focus = 0; focus < static_cast<int>(t.steps.size()); ++focus) {
            CAPTURE(t.steps[static_cast<size_t>(focus)].name());
            DisplayModel partial = build_display_model(t, {"a"}, {"b"}, item, 64, focus);
            REQUIRE(partial.steps.size() == full.steps.size());
            CHECK(partial.steps[static_cast<size_t>(focus)].built);
            for (StepId source : t.steps[static_cast<size_t>(focus)].sources) {
                CHECK(partial.steps[static_cast<size_t>(t.index_of(source))].built);  // drawn beside it
            }
            for (size_t i = 0; i < full.steps.size(); ++i) {
                CAPTURE(i);
                // Not built yet: nothing to draw. A built step's colour scale is final, and so
                // is that of every step it shares the scale with (read: `ranged`).
                if (!partial.steps[i].built) CHECK(partial.steps[i].panels.empty());
                if (partial.steps[i].built) CHECK(partial.steps[i].ranged);
                if (!partial.steps[i].ranged) continue;
                CHECK(partial.steps[i].vmin == full.steps[i].vmin);
                CHECK(partial.steps[i].vmax == full.steps[i].vmax);
                CHECK(partial.steps[i].data_min == full.steps[i].data_min);
                CHECK(partial.steps[i].data_max == full.steps[i].data_max);
            }
            int cancel_after = 1;  // stop once between steps, then finish
            const bool finished = complete_display_model(t, partial, [&] { return cancel_after-- == 0; });
            CHECK(finished == partial.complete());
            complete_display_model(t, partial);
            REQUIRE(partial.complete());
            for (size_t i = 0; i < full.steps.size(); ++i) {
                CAPTURE(i);
                check_same_display(partial.steps[i], full.steps[i]);
            }
        }
    }
}

TEST_CASE("pooling keeps, per block, the first value of largest magnitude in reading order, with or without masked cells") {
    // A plain reference: every block scanned row by row; a masked (inf) cell counts only
    // when the whole block is masked.
    const auto reference = [](const std::vector<float>& v, int rows, int cols, int out_rows, int out_cols) {
        std::vector<float> out(static_cast<size_t>(out_rows) * out_cols);
        for (int orow = 0; orow < out_rows; ++orow) {
            for (int ocol = 0; ocol < out_cols; ++ocol) {
                bool found = false;
                float best = -INFINITY;
                for (int r = 0; r < rows; ++r) {
                    if (static_cast<int64_t>(r) * out_rows / rows != orow) continue;
                    for (int c = 0; c < cols; ++c) {
                        if (static_cast<int64_t>(c) * out_cols / cols != ocol) continue;
                        const float x = v[static_cast<size_t>(r) * cols + c];
                        if (std::isinf(x)) {
                            if (!found) best = x;
                        } else if (!found || std::fabs(x) > std::fabs(best)) {
                            best = x;
                            found = true;
                        }
                    }
                }
                out[static_cast<size_t>(orow) * out_cols + ocol] = best;
            }
        }
        return out;
    };
    for (const bool masked : {false, true}) {
        for (const auto& [rows, cols, out_rows, out_cols] :
             std::vector<std::array<int, 4>>{{37, 53, 10, 7},   {256, 256, 128, 128}, {255, 250, 128, 128},
                                             {5, 300, 5, 64},  {64, 96, 16, 24},     {40, 12, 10, 12}}) {
            CAPTURE(masked);
            CAPTURE(rows);
            CAPTURE(cols);
            std::vector<float> v(static_cast<size_t>(rows) * cols);
            for (size_t i = 0; i < v.size(); ++i) {
                // Ties of equal magnitude and both signs, so the first-in-order rule matters.
                v[i] = static_cast<float>(static_cast<int>((i * 7919) % 13) - 6);
                if (masked && (i * 31) % 5 == 0) v[i] = (i % 2) ? INFINITY : -INFINITY;
            }
            const std::vector<float> got = pool_max_abs(v, rows, cols, out_rows, out_cols);
            const std::vector<float> want = reference(v, rows, cols, out_rows, out_cols);
            REQUIRE(got.size() == want.size());
            size_t mismatches = 0, first = 0;
            for (size_t i = 0; i < got.size(); ++i) {
                if (!(got[i] == want[i]) || std::signbit(got[i]) != std::signbit(want[i])) {
                    if (mismatches++ == 0) first = i;
                }
            }
            CAPTURE(first);
            CHECK(mismatches == 0);
            // Straight from a wider buffer (a tensor's rows): the same picture.
            const int stride = cols + 5;
            std::vector<float> wide(static_cast<size_t>(rows) * stride, 99.0f);
            for (int r = 0; r < rows; ++r)
                std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(r) * cols, cols, wide.begin() + static_cast<std::ptrdiff_t>(r) * stride);
            const std::vector<float> strided = pool_max_abs(wide.data(), stride, rows, cols, out_rows, out_cols);
            CHECK(strided == got);
        }
    }
}

// Issue 28: a slider change redraws sooner when the model built for the step on screen reads
// only the steps its colours depend on. The attention weights share a scale with the other
// probabilities only; the projections, the output and the context are left for later.
TEST_CASE("a model built for the weights on screen reads only the steps that share their colours") {
    Result<Trace> traced = run_attention(sized(8, 16, 2));
    REQUIRE(traced.ok());
    const Trace& t = traced.value();
    const int weights = t.index_of(StepId::AttnWeights);
    const DisplayModel partial = build_display_model(t, {}, {}, 0, 64, weights);
    for (StepId unread : {StepId::Q, StepId::K, StepId::V, StepId::Context, StepId::Out}) {
        CAPTURE(step_name(unread));
        CHECK_FALSE(partial.steps[static_cast<size_t>(t.index_of(unread))].ranged);
    }
    // What the picture needs: the weights, the scaled scores beside them and the raw scores
    // that share the scaled scores' colour scale.
    for (StepId read : {StepId::AttnWeights, StepId::AttnScaled, StepId::AttnScores}) {
        CAPTURE(step_name(read));
        CHECK(partial.steps[static_cast<size_t>(t.index_of(read))].ranged);
    }
    DisplayModel completed = partial;
    REQUIRE(complete_display_model(t, completed));
    for (const StepDisplay& sd : completed.steps) CHECK(sd.ranged);
}

TEST_CASE("how peaked is read only off probability rows: not after dropout, not off differences from float32") {
    AttentionConfig c = sized(4, 8, 2);
    c.dropout = 0.3f;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    const DisplayModel m = build_display_model(t.value(), {}, {}, 0);
    CHECK_FALSE(step_of(m, t.value(), "attn_weights").focus.empty());
    CHECK(step_of(m, t.value(), "attn_dropped").focus.empty());  // dropout's rows do not sum to 1
    ColourScale difference;
    difference.difference_from_float32 = true;
    const DisplayModel d = build_display_model(t.value(), {}, {}, 0, 512, kAllSteps, difference);
    CHECK(step_of(d, t.value(), "attn_weights").focus.empty());
}

TEST_CASE("ranges read on several threads equal a plain scan of each step") {
    // L = 256 with 8 heads: each (B, H, L, S) step is 2 MiB, so the trace passes the 4 MiB at
    // which read_steps shares the steps out on OpenMP's threads.
    const Trace t = make_trace(256, 64, 8, MaskKind::Causal);
    REQUIRE(t.storage_bytes() >= (std::uint64_t{4} << 20));
    const int weights = t.index_of(StepId::AttnWeights);
    const DisplayModel m = build_display_model(t, {}, {}, 0, 512, weights);
    const int64_t hidden = 8 * 256 * 255 / 2;  // above the diagonal, in every head
    CHECK(step_of(m, t, "attn_masked").masked_cells == hidden);
    CHECK(step_of(m, t, "attn_weights").masked_zero_cells == hidden);
    for (const std::string name : {"attn_scores", "attn_scaled", "attn_weights"}) {
        CAPTURE(name);
        const StepDisplay& sd = step_of(m, t, name);
        REQUIRE(sd.ranged);
        const Tensor& x = t.steps[static_cast<size_t>(sd.step)].tensor;
        REQUIRE(x.is_contiguous());
        float lo = INFINITY, hi = -INFINITY;
        for (int64_t i = 0; i < x.numel(); ++i) {
            const float v = x.data()[x.offset() + i];  // contiguous, batch 1
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        CHECK(sd.data_min == lo);
        CHECK(sd.data_max == hi);
    }
    // Panel by panel, the pixels are those that completing a model fills on this thread,
    // one step after the other (a model built for the output step first).
    DisplayModel serial = build_display_model(t, {}, {}, 0, 512, t.index_of(StepId::Out));
    REQUIRE_FALSE(step_of(serial, t, "attn_weights").built);
    REQUIRE(complete_display_model(t, serial));
    for (const std::string name : {"attn_masked", "attn_weights"}) {  // the weights and the masked scores beside them
        CAPTURE(name);
        const StepDisplay& a = step_of(m, t, name);
        const StepDisplay& b = step_of(serial, t, name);
        REQUIRE(a.panels.size() == b.panels.size());
        for (size_t p = 0; p < a.panels.size(); ++p) CHECK(a.panels[p].values == b.panels[p].values);
        CHECK(a.focus.size() == b.focus.size());
    }
}

TEST_CASE("the weights on screen, read head by head on several threads, equal each head read alone") {
    // No mask: the weights are pooled in place and "how peaked" is read in the same pass,
    // one task per head (fill_panels), while the other thread reads the scores' ranges.
    const Trace t = make_trace(256, 64, 8);
    const int weights = t.index_of(StepId::AttnWeights);
    const DisplayModel m = build_display_model(t, {}, {}, 0, 512, weights);
    const StepDisplay& sd = step_of(m, t, "attn_weights");
    const Tensor& x = t.steps[static_cast<size_t>(sd.step)].tensor;
    const std::vector<HeadFocus> alone = weight_focus(x, nullptr, 0);  // every row, in order, on this thread
    REQUIRE(sd.focus.size() == 8);
    REQUIRE(alone.size() == 8);
    REQUIRE(sd.panels.size() == 8);
    REQUIRE(sd.panels[0].tex_rows < sd.panels[0].rows);  // pooled: "how peaked" is read in the same pass
    for (size_t h = 0; h < alone.size(); ++h) {
        CAPTURE(h);
        CHECK(sd.focus[h].head == static_cast<int>(h));
        CHECK(sd.focus[h].counted_rows == alone[h].counted_rows);
        CHECK(sd.focus[h].mean_max == alone[h].mean_max);
        CHECK(sd.focus[h].mean_entropy == alone[h].mean_entropy);
        // Each head's panel holds that head's pooled map: its largest weight is the head's.
        float head_max = 0;
        for (const RowFocus& row : alone[h].rows) head_max = std::max(head_max, row.max_weight);
        CHECK(*std::max_element(sd.panels[h].values.begin(), sd.panels[h].values.end()) == head_max);
    }
    // The range is every head's together.
    CHECK(sd.data_min == *std::min_element(x.data() + x.offset(), x.data() + x.offset() + x.numel()));
    CHECK(sd.data_max == *std::max_element(x.data() + x.offset(), x.data() + x.offset() + x.numel()));
}
