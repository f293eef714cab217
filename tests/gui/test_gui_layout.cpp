#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>
#include <iterator>
#include <utility>

#include "app/gui/display/layout.h"

using namespace attn::gui;

TEST_CASE("cells are square when both axes have room") {
    LayoutStyle style;
    const CellSize c = fit_cells(4, 4, 400, 200, style);
    CHECK(c.w == doctest::Approx(50.0f));
    CHECK(c.h == doctest::Approx(50.0f));
}

TEST_CASE("a wide matrix keeps readable rows instead of square slivers") {
    LayoutStyle style;
    const CellSize c = fit_cells(6, 512, 900, 600, style);
    CHECK(c.w == doctest::Approx(900.0f / 512.0f));
    CHECK(c.h == doctest::Approx(style.min_row));
}

TEST_CASE("cells never exceed the maximum size") {
    LayoutStyle style;
    const CellSize c = fit_cells(1, 1, 1000, 1000, style);
    CHECK(c.w == style.max_cell);
}

TEST_CASE("column groups sit side by side with gaps, and joined groups touch") {
    LayoutStyle style;
    const std::vector<std::pair<int, int>> sizes = {{4, 3}, {4, 3}};
    const Rect area{0, 0, 800, 400};
    const StepLayout gapped = layout_step(Arrangement::ColumnGroups, false, sizes, area, style);
    const StepLayout joined = layout_step(Arrangement::ColumnGroups, true, sizes, area, style);
    REQUIRE(gapped.panels.size() == 2u);
    CHECK(gapped.panels[1].rect.x - gapped.panels[0].rect.right() == doctest::Approx(style.group_gap));
    CHECK(joined.panels[1].rect.x == doctest::Approx(joined.panels[0].rect.right()));
}

TEST_CASE("small multiples fit inside their area and never overlap") {
    LayoutStyle style;
    const Rect area{10, 20, 1000, 600};
    for (int heads : {1, 2, 3, 5, 8, 16}) {
        const std::vector<std::pair<int, int>> sizes(static_cast<size_t>(heads), {32, 32});
        const StepLayout lay = layout_step(Arrangement::Grid, false, sizes, area, style);
        CAPTURE(heads);
        REQUIRE(lay.panels.size() == static_cast<size_t>(heads));
        for (size_t i = 0; i < lay.panels.size(); ++i) {
            const Rect& r = lay.panels[i].rect;
            CHECK(r.x >= area.x - 0.01f);
            CHECK(r.right() <= area.right() + 0.01f);
            CHECK(r.bottom() <= area.bottom() + 0.01f);
            for (size_t j = i + 1; j < lay.panels.size(); ++j) {
                const Rect& o = lay.panels[j].rect;
                const bool apart = r.right() <= o.x + 0.01f || o.right() <= r.x + 0.01f || r.bottom() <= o.y + 0.01f ||
                                   o.bottom() <= r.y + 0.01f;
                CHECK(apart);
            }
        }
    }
}

TEST_CASE("the grid picks the column count with the biggest cells") {
    LayoutStyle style;
    style.comfortable_cell = 1000.0f;  // no preference for stacking
    CHECK(best_grid_columns(4, 10, 10, 1000, 250, style) == 4);
    CHECK(best_grid_columns(4, 10, 10, 250, 1000, style) == 1);
}

TEST_CASE("hit testing finds the cell under the mouse and nothing between panels") {
    LayoutStyle style;
    const std::vector<std::pair<int, int>> sizes = {{4, 3}, {4, 3}};
    const StepLayout lay = layout_step(Arrangement::ColumnGroups, false, sizes, Rect{0, 0, 800, 400}, style);
    const PanelPlace& second = lay.panels[1];
    const CellHit hit = hit_test(lay, sizes, second.rect.x + second.cell_w * 2.5f, second.rect.y + second.cell_h * 1.5f);
    CHECK(hit.panel == 1);
    CHECK(hit.row == 1);
    CHECK(hit.col == 2);
    const float between = lay.panels[0].rect.right() + style.group_gap * 0.5f;
    CHECK(hit_test(lay, sizes, between, second.rect.y + 1.0f).panel == -1);
}

TEST_CASE("rectangles blend linearly") {
    const Rect r = lerp_rect(Rect{0, 0, 10, 10}, Rect{10, 20, 30, 40}, 0.5f);
    CHECK(r.x == 5.0f);
    CHECK(r.y == 10.0f);
    CHECK(r.w == 20.0f);
    CHECK(r.h == 25.0f);
}

TEST_CASE("the canvas gives sources a column only when there are sources") {
    const Rect canvas{0, 0, 1000, 500};
    CHECK(split_canvas(canvas, 0, 10).sources.w == 0.0f);
    const CanvasSplit two = split_canvas(canvas, 2, 10);
    CHECK(two.sources.w > 0.0f);
    CHECK(two.result.x >= two.sources.right());
}

TEST_CASE("a big square map keeps square cells even when one axis has room") {
    LayoutStyle style;
    const CellSize c = fit_cells(1024, 1024, 300, 600, style);
    CHECK(c.w == doctest::Approx(c.h));
}

TEST_CASE("side panels follow their saved sizes but always leave the canvas room") {
    SUBCASE("saved sizes are used when they fit") {
        const SidePanels p = side_panels(1920, 1000, 16, 20, 22, 0.58f);
        CHECK(p.left == doctest::Approx(320.0f));
        CHECK(p.right == doctest::Approx(352.0f));
        CHECK(p.explain_h == doctest::Approx(580.0f));
    }
    SUBCASE("huge panels share half the window between them") {
        const SidePanels p = side_panels(1000, 800, 16, 60, 60, 0.99f);
        CHECK(p.left == doctest::Approx(250.0f));
        CHECK(p.right == doctest::Approx(250.0f));
        CHECK(p.explain_h <= 800.0f - 16.0f * 6.0f);
    }
    SUBCASE("tiny panels keep ten font heights") {
        const SidePanels p = side_panels(1920, 800, 20, 1, 1, 0.0f);
        CHECK(p.left == doctest::Approx(200.0f));
        CHECK(p.right == doctest::Approx(200.0f));
        CHECK(p.explain_h == doctest::Approx(120.0f));
    }
}

TEST_CASE("at 1024x768 the canvas gets half the width and both side panels stay usable") {
    for (const float font : {16.0f, 22.0f}) {  // UI scale 1 and 1.39
        CAPTURE(font);
        const SidePanels p = side_panels(1024, 740, font, 20, 22, 0.45f);
        // At UI scale 1 both columns stay; at 1.39 the controls would get under 12 font
        // heights, so they fold into a tab and the canvas gets the room.
        CHECK(p.left_collapsed == (font > 20.0f));
        if (!p.left_collapsed) {
            CHECK(p.left >= font * 12.0f);
            // The user's proportions survive the shrinking.
            CHECK(p.right / p.left == doctest::Approx(22.0f / 20.0f).epsilon(0.01));
        }
        CHECK(p.right >= font * 10.0f);
        CHECK(1024.0f - p.left - p.right >= 512.0f);
        CHECK(p.explain_h > 0.0f);
        CHECK(p.explain_h < 740.0f);
    }
}

TEST_CASE("a window too narrow for both side panels folds the controls into a tab") {
    const SidePanels p = side_panels(600, 480, 16, 20, 22, 0.45f);
    CHECK(p.left_collapsed);
    CHECK(p.left == doctest::Approx(collapsed_tab_width(16)));
    CHECK(p.right >= 160.0f);
    CHECK(600.0f - p.left - p.right >= 300.0f);
    SUBCASE("every size down to tiny gives positive panels") {
        for (float w = 1920.0f; w >= 200.0f; w -= 37.0f) {
            CAPTURE(w);
            const SidePanels q = side_panels(w, 300, 16, 20, 22, 0.45f);
            CHECK(q.left > 0.0f);
            CHECK(q.right > 0.0f);
            CHECK(w - q.left - q.right > 0.0f);
        }
    }
}

TEST_CASE("the first window fits the monitor's work area") {
    SUBCASE("a 1440x900 default on a 1024x768 projector is shrunk and placed inside") {
        const Rect r = fit_window(1440, 900, Rect{0, 0, 1024, 768});
        CHECK(r.w == 1024.0f);
        CHECK(r.h == 768.0f);
        CHECK(r.x == 0.0f);
        CHECK(r.y == 0.0f);
    }
    SUBCASE("a work area that leaves room for a panel is respected") {
        const Rect r = fit_window(1440, 900, Rect{0, 32, 1280, 688});
        CHECK(r.y >= 32.0f);
        CHECK(r.bottom() <= 720.0f);
        CHECK(r.right() <= 1280.0f);
    }
    SUBCASE("a size that fits is kept and centred") {
        const Rect r = fit_window(800, 600, Rect{0, 0, 1920, 1080});
        CHECK(r.w == 800.0f);
        CHECK(r.h == 600.0f);
        CHECK(r.x == 560.0f);
    }
    SUBCASE("no monitor information: the saved size as it is") {
        const Rect r = fit_window(1440, 900, Rect{});
        CHECK(r.w == 1440.0f);
    }
}

TEST_CASE("row labels shrink their font before they skip a token") {
    SUBCASE("rows tall enough: the normal font, every row") {
        const LabelFit f = fit_stacked_labels(24, 18, 12, 5);
        CHECK(f.font_px == 18.0f);
        CHECK(f.every == 1);
    }
    SUBCASE("16 px rows in presentation mode (18 px font): a smaller font, still every row") {
        const LabelFit f = fit_stacked_labels(16, 18, 12, 5);
        CHECK(f.every == 1);
        CHECK(f.font_px * 1.05f <= 16.0f + 1e-3f);
        CHECK(f.font_px >= 12.0f);
    }
    SUBCASE("rows far below the smallest font: every k-th, and the labels do not overlap") {
        const LabelFit f = fit_stacked_labels(3, 12, 9, 5);
        CHECK(f.every > 1);
        CHECK(static_cast<float>(f.every) * 3.0f >= f.font_px * 1.05f - 1e-3f);
    }
}

TEST_CASE("column labels shrink, then abbreviate, and skip only as a last resort") {
    const float char_w = 0.6f;
    SUBCASE("wide columns: whole words in the normal font") {
        const LabelFit f = fit_side_labels(80, 18, 12, char_w, 5, 2);
        CHECK(f.font_px == 18.0f);
        CHECK(f.max_chars == 5);
        CHECK(f.every == 1);
    }
    SUBCASE("40 px columns and 5-letter tokens: every token drawn, and each fits its column") {
        const LabelFit f = fit_side_labels(40, 18, 12, char_w, 5, 2);
        CHECK(f.every == 1);
        CHECK(f.font_px * char_w * static_cast<float>(f.max_chars) + 2.0f <= 40.0f + 1e-3f);
    }
    SUBCASE("indices keep all their digits, so narrow columns skip some") {
        const LabelFit f = fit_side_labels(4, 12, 9, char_w, 2, 2);
        CHECK(f.max_chars == 2);
        CHECK(f.every > 1);
        CHECK(static_cast<float>(f.every) * 4.0f >= f.font_px * char_w * 2.0f + 2.0f - 1e-3f);
    }
    SUBCASE("when labels must be skipped anyway they stay whole") {
        const LabelFit f = fit_side_labels(5, 12, 9, char_w, 3, 3);
        CHECK(f.every > 1);
        CHECK(f.max_chars == 3);
    }
    SUBCASE("every fit at any width is drawable: labels never overlap") {
        for (float cell = 2.0f; cell < 120.0f; cell += 3.0f) {
            CAPTURE(cell);
            const LabelFit f = fit_side_labels(cell, 16, 11, char_w, 7, 2);
            CHECK(f.every >= 1);
            CHECK(f.max_chars >= 2);
            CHECK(static_cast<float>(f.every) * cell >= f.font_px * char_w * static_cast<float>(f.max_chars) + 2.0f - 1e-3f);
        }
    }
}

TEST_CASE("step tabs drop detail until all 17 fit, and the current one keeps its name") {
    std::vector<std::vector<float>> widths(3, std::vector<float>(17));
    for (int i = 0; i < 17; ++i) {
        widths[0][static_cast<size_t>(i)] = 120.0f;  // "5 q_split (view)"
        widths[1][static_cast<size_t>(i)] = 70.0f;   // "5 q_split"
        widths[2][static_cast<size_t>(i)] = 20.0f;   // "5"
    }
    CHECK(step_tab_detail(widths, 4, 4.0f, 1400.0f) == 1);
    CHECK(step_tab_detail(widths, 4, 4.0f, 17.0f * 124.0f) == 0);
    // A 1024x768 projector's ~520 px canvas: numbers, plus the current tab in full.
    CHECK(step_tab_detail(widths, 4, 4.0f, 520.0f) == 2);
    CHECK(step_tab_detail(widths, 4, 4.0f, 503.0f) == 2);
    CHECK(step_tab_detail(widths, 4, 4.0f, 100.0f) == 2);  // nothing fits: scroll at the last level
}

TEST_CASE("index labels that must skip use round strides") {
    CHECK(nice_stride(1) == 1);
    CHECK(nice_stride(3) == 5);
    CHECK(nice_stride(6) == 10);
    CHECK(nice_stride(11) == 20);
    CHECK(nice_stride(21) == 50);
}

TEST_CASE("a grid of 16 heads is not dwarfed by the source panel beside it") {
    const Rect canvas{0, 0, 988, 400};
    const CanvasSplit few = split_canvas(canvas, 1, 10, 2);
    const CanvasSplit many = split_canvas(canvas, 1, 10, 16);
    CHECK(few.sources.w == doctest::Approx(std::floor(988.0f * 0.3f)));
    CHECK(many.sources.w < few.sources.w * 0.6f);
    CHECK(many.sources.w >= 988.0f * 0.15f - 1.0f);
    // The thumbnails' cells come within a factor of two of the source's (8x8 maps).
    LayoutStyle style;
    const std::vector<std::pair<int, int>> sizes(16, {8, 8});
    const StepLayout grid = layout_step(Arrangement::Grid, false, sizes, many.result, style);
    const StepLayout source = layout_step(Arrangement::Single, false, {{8, 8}}, many.sources, style);
    CHECK(source.panels[0].cell_w <= 2.0f * grid.panels[0].cell_w);
}

namespace {
bool overlap(const Rect& a, const Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}
}  // namespace

TEST_CASE("the dock slots tile the window without overlapping, at projector and desktop sizes") {
    const float font = 16.0f, top = 22.0f, timeline = 70.0f, status = 26.0f, bar = 5.0f;
    for (const auto& [w, h] : {std::pair<float, float>{1920, 1080}, {1024, 768}, {1280, 800}}) {
        CAPTURE(w);
        const DockRects d = dock_rects(w, h, top, font, timeline, status, bar, 20, 22, 0.45f);
        REQUIRE_FALSE(d.side.left_collapsed);
        const Rect panels[] = {d.left, d.center, d.bottom, d.right_top, d.right_bottom, d.status};
        float area = 0.0f;
        for (size_t i = 0; i < std::size(panels); ++i) {
            CAPTURE(i);
            const Rect& r = panels[i];
            CHECK(r.w > 0.0f);
            CHECK(r.h > 0.0f);
            CHECK(r.x >= 0.0f);
            CHECK(r.y >= top - (i == 5 ? h : 0.0f));
            CHECK(r.right() <= w + 0.5f);
            CHECK(r.bottom() <= h + 0.5f);
            for (size_t j = i + 1; j < std::size(panels); ++j) CHECK_FALSE(overlap(r, panels[j]));
            area += r.w * r.h;
        }
        // Only the menu bar and the splitter gaps are left uncovered.
        const float gaps = w * top + bar * 2.0f * (h - top - status) + bar * d.right_top.w;
        CHECK(area + gaps == doctest::Approx(w * h).epsilon(0.001));
        CHECK(d.center.w >= w * 0.5f - 2.0f * bar - 1.0f);
        CHECK(d.bottom.y == doctest::Approx(d.center.bottom()));
        CHECK(d.status.y == doctest::Approx(h - status));
    }
}

TEST_CASE("the code panel shares the centre slot: beside the canvas when 35 font heights fit, else under it") {
    const float font = 16.0f, bar = 5.0f;
    const Rect wide{300, 22, 1200, 900}, narrow{200, 22, 600, 600};
    SUBCASE("hidden: the canvas keeps the whole slot") {
        const CenterSplit s = split_center(wide, false, font, bar);
        CHECK(s.code.w == 0.0f);
        CHECK(s.canvas.w == wide.w);
        CHECK(s.canvas.h == wide.h);
    }
    for (const Rect& center : {wide, narrow}) {
        CAPTURE(center.w);
        const CenterSplit s = split_center(center, true, font, bar);
        const bool beside = center.w * 0.55f >= font * 35.0f;
        CHECK(beside == (center.w == wide.w));
        CHECK_FALSE(overlap(s.canvas, s.code));
        CHECK(s.code.w > 0.0f);
        CHECK(s.code.h > 0.0f);
        // Canvas, gap and code cover the slot exactly, side by side or one above the other.
        if (beside) {
            CHECK(s.code.w >= font * 35.0f);
            CHECK(s.canvas.w + bar + s.code.w == doctest::Approx(center.w));
            CHECK(s.code.h == center.h);
            CHECK(s.code.x == doctest::Approx(s.canvas.right() + bar));
        } else {
            CHECK(s.code.h == doctest::Approx(std::floor(center.h * 0.45f)));
            CHECK(s.canvas.h + bar + s.code.h == doctest::Approx(center.h));
            CHECK(s.code.w == center.w);
            CHECK(s.code.y == doctest::Approx(s.canvas.bottom() + bar));
        }
    }
}

TEST_CASE("folded controls open over the canvas beside their tab") {
    const DockRects d = dock_rects(600, 500, 22, 16, 70, 26, 5, 20, 22, 0.45f);
    REQUIRE(d.side.left_collapsed);
    CHECK(d.tab.x == 0.0f);
    CHECK(d.left.x == doctest::Approx(d.tab.right()));
    CHECK(overlap(d.left, d.center));  // on top of the canvas, by design
    CHECK(d.center.w >= 300.0f - 16.0f);
}

TEST_CASE("bands around the picture fold only as far as the picture needs") {
    // Cell side with 0, 1, 2, 3 bands folded.
    CHECK(bands_to_fold({40, 44, 50, 52}, 30) == 0);  // big enough already: nothing folds
    CHECK(bands_to_fold({20, 24, 30, 36}, 30) == 2);  // the fewest that reach the wanted size
    // Out of reach: fold until within 10% of folding everything, not for a last 2%.
    CHECK(bands_to_fold({10, 12, 19, 19.5f}, 30) == 2);
    CHECK(bands_to_fold({}, 30) == 0);
}

// Issue 28 item 23: an enlarged head beside its operands stayed ~180 px wide with 40% of
// the canvas empty below it.
TEST_CASE("an enlarged head that would be width-bound takes width from its operands, down to 15%") {
    const Rect canvas{0, 0, 490, 420};
    const CanvasSplit usual = split_canvas(canvas, 1, 24, 1);
    CHECK(usual.sources.w == doctest::Approx(std::floor(490.0f * 0.3f)));
    // The head at the full height wants 400 px: the operands keep only their minimum.
    const CanvasSplit narrow = split_canvas(canvas, 1, 24, 1, 400.0f);
    CHECK(narrow.sources.w == doctest::Approx(std::floor(490.0f * 0.15f)));
    CHECK(narrow.result.w > usual.result.w);
    CHECK(narrow.result.x >= narrow.sources.right());
    // One that wants 350 px gets exactly that.
    const CanvasSplit fitted = split_canvas(canvas, 1, 24, 1, 350.0f);
    CHECK(fitted.result.w == doctest::Approx(350.0f).epsilon(0.01));
    // A height-bound head (it wants less than 70%) leaves the operands their 30%.
    CHECK(split_canvas(canvas, 1, 24, 1, 200.0f).sources.w == doctest::Approx(usual.sources.w));
}

TEST_CASE("a grid is chosen by its cells' short side, not by their area") {
    // tiny-lm's four 11 x 11 heads at 1024x768: one column gave 16 x 4.6 px cells (the
    // row height stretched to min_row made the area look largest), 2 x 2 gives squares.
    LayoutStyle style;  // as the canvas sets it up at UI scale 1
    style.gap = 16;
    style.min_row = 16;
    style.header = 21;
    style.col_header = 16;
    const auto cell_of = [&](int gc, float w, float h) {
        const int gr = (4 + gc - 1) / gc;
        return fit_cells(11, 11, (w - style.gap * static_cast<float>(gc - 1)) / static_cast<float>(gc),
                         (h - style.gap * static_cast<float>(gr - 1)) / static_cast<float>(gr) - style.header - style.col_header, style);
    };
    for (const float w : {195.0f, 180.0f}) {  // without and with the focus column beside the grid
        CAPTURE(w);
        const int gc = best_grid_columns(4, 11, 11, w, 398.0f, style);
        const CellSize chosen = cell_of(gc, w, 398.0f);
        for (int other = 1; other <= 4; ++other) {
            const CellSize c = cell_of(other, w, 398.0f);
            CHECK(std::min(chosen.w, chosen.h) >= std::min(c.w, c.h) - 1e-3f);
        }
        CHECK(gc == 2);
    }
}

TEST_CASE("column groups wrap into bands when that gives larger cells, each band with its row labels") {
    LayoutStyle style;
    const Rect area{0, 0, 1800, 800};
    const std::vector<std::pair<int, int>> heads(32, {4, 2});  // -L 4 -E 64 -H 32: q_split
    const int per_band = column_groups_per_band(Arrangement::ColumnGroups, false, heads, area.w - style.row_gutter, area.h, style);
    CHECK(per_band < 32);
    const StepLayout lay = layout_step(Arrangement::ColumnGroups, false, heads, area, style);
    REQUIRE(lay.panels.size() == 32u);
    CHECK(lay.grid_cols == per_band);
    const StepLayout one_band = layout_step(Arrangement::ColumnGroups, true, heads, area, style);  // joined: one band
    CHECK(one_band.grid_cols == 32);
    CHECK(std::min(lay.panels[0].cell_w, lay.panels[0].cell_h) > 1.5f * std::min(one_band.panels[0].cell_w, one_band.panels[0].cell_h));
    for (size_t i = 0; i < lay.panels.size(); ++i) {
        const Rect& r = lay.panels[i].rect;
        CAPTURE(i);
        CHECK(r.right() <= area.right() + 0.01f);
        CHECK(r.bottom() <= area.bottom() + 0.01f);
        // A band starts at the row labels' gutter.
        if (static_cast<int>(i) % lay.grid_cols == 0) CHECK(r.x == doctest::Approx(lay.panels[0].rect.x));
        for (size_t j = i + 1; j < lay.panels.size(); ++j) {
            const Rect& o = lay.panels[j].rect;
            CHECK((r.right() <= o.x + 0.01f || o.right() <= r.x + 0.01f || r.bottom() <= o.y + 0.01f || o.bottom() <= r.y + 0.01f));
        }
    }
}

TEST_CASE("legend ticks never overprint: the 0 goes first, then digits, then the low end") {
    const auto width_of = [](const std::string& s) { return 7.0f * static_cast<float>(s.size()); };
    const auto texts = [](int digits) {
        return digits >= 4 ? std::make_pair(std::string("-0.7045"), std::string("0.7045"))
                           : digits == 3 ? std::make_pair(std::string("-0.704"), std::string("0.704"))
                                         : std::make_pair(std::string("-0.70"), std::string("0.70"));
    };
    const auto apart = [&](const std::vector<LegendTick>& ticks, float gap) {
        for (size_t i = 0; i < ticks.size(); ++i)
            for (size_t j = i + 1; j < ticks.size(); ++j) {
                const float a0 = ticks[i].x, a1 = a0 + width_of(ticks[i].text), b0 = ticks[j].x, b1 = b0 + width_of(ticks[j].text);
                if (!(a1 + gap <= b0 + 1e-3f || b1 + gap <= a0 + 1e-3f)) return false;
            }
        return true;
    };
    SUBCASE("a wide bar keeps all three at four digits") {
        const auto ticks = place_legend_ticks(texts, true, 0, 260, 6, width_of);
        CHECK(ticks.size() == 3u);
        CHECK(ticks[0].text == "-0.7045");
        CHECK(apart(ticks, 6));
    }
    for (const float w : {110.0f, 80.0f, 60.0f, 30.0f}) {
        CAPTURE(w);
        const auto ticks = place_legend_ticks(texts, true, 0, w, 6, width_of);
        CHECK(apart(ticks, 6));
        for (const LegendTick& t : ticks) CHECK((t.x >= -1e-3f && t.x + width_of(t.text) <= w + 1e-3f));
        CHECK_FALSE(ticks.empty());
    }
    CHECK(place_legend_ticks(texts, true, 0, 30, 6, width_of).size() == 1u);  // only the high end is left
}
