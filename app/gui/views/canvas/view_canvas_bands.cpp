// The canvas's plan before anything is drawn: how the result and its sources share the
// width (split_result), which bands fold away (plan_bands) and the result's cells under them.
#include "app/gui/views/canvas/canvas_painter.h"

#include <algorithm>
#include <vector>

#include "app/gui/display/layout.h"
#include "app/gui/views/canvas/view_canvas_focus.h"
#include "app/gui/views/canvas/view_canvas_notes.h"
#include "app/gui/views/canvas/view_canvas_paint.h"
#include "app/gui/views/canvas/view_canvas_rotation.h"
#include "app/gui/views/canvas/view_storage.h"

namespace attn::gui {


// The result and its sources side by side (the sources only when asked and there is room).
// `beside_w`: what the result keeps at its right (the "how peaked" column).
CanvasSplit split_result(const Painter& p, const CanvasUi& ui, const Rect& body, bool sources, float beside_w) {
    const Step& step = p.step(p.f->step);
    const StepDisplay& sd = p.display(p.f->step);
    const int source_count = sources && motion_for(step.kind).show_sources ? static_cast<int>(step.sources.size()) : 0;
    const bool enlarged = sd.arrangement == Arrangement::Grid && ui.enlarged_head >= 0;
    const int result_panels = sd.arrangement == Arrangement::Grid && !enlarged ? static_cast<int>(sd.panels.size()) : 1;
    // One enlarged head of (L, S) square cells at the full height (less its head bar and
    // key labels), with its row labels and the column beside it.
    float wants_w = 0.0f;
    if (enlarged && !sd.panels.empty() && sd.panels.front().rows > 0) {
        const Panel& pn = sd.panels.front();
        const float cells_h = std::max(0.0f, body.h - p.style.header - p.style.col_header);
        wants_w = cells_h * static_cast<float>(pn.cols) / static_cast<float>(pn.rows) + p.style.row_gutter + beside_w;
    }
    const int shown_sources = body.w > 380.0f * p.f->scale ? source_count : 0;
    const float gap = 24.0f * p.f->scale;
    if (enlarged || result_panels <= 1 || shown_sources == 0)
        return split_canvas(body, shown_sources, gap, result_panels, wants_w);
    // A grid of heads: the sources give up width (down to 25%, where their captions still fit) while that makes the heads
    // cells larger, rather than leave the canvas's lower part empty (4 heads on 4:3).
    const std::vector<int> visible = visible_panels(sd, ui);
    const auto grid_cell = [&](const CanvasSplit& split) {
        Rect area = split.result;
        area.w -= beside_w;
        const StepLayout lay = layout_step(Arrangement::Grid, sd.joined, panel_sizes(sd, visible), area, p.style);
        return lay.panels.empty() ? 0.0f : std::min(lay.panels.front().cell_w, lay.panels.front().cell_h);
    };
    CanvasSplit best = split_canvas(body, shown_sources, gap, result_panels);
    float best_cell = grid_cell(best);
    for (int k = 1; k <= 8; ++k) {
        const float sources_w = best.sources.w - (best.sources.w - body.w * 0.25f) * static_cast<float>(k) / 8.0f;
        const CanvasSplit narrower = split_canvas(body, shown_sources, gap, result_panels, body.w - gap - sources_w);
        const float cell = grid_cell(narrower);
        if (cell > best_cell * 1.02f) best = narrower, best_cell = cell;
    }
    return best;
}

namespace {

// The bands around the picture when the first `folded` of them (in kFoldOrder) fold away.
enum class Band { Strip, Paint, Focus, Rotation, Sources, Notes, ConfigNotes, Count };
constexpr Band kFoldOrder[] = {Band::Strip, Band::Paint, Band::Focus, Band::Rotation, Band::Sources, Band::Notes, Band::ConfigNotes};

CanvasBands bands_with(const Painter& p, Rect body, float legend_h, int folded) {
    const auto kept = [&](Band b) {
        for (int i = 0; i < folded; ++i)
            if (kFoldOrder[i] == b) return false;
        return true;
    };
    const float s = p.f->scale;
    const StepDisplay& sd = p.display(p.f->step);
    CanvasBands out;
    const float roomy = 8.0f * p.small_size();
    // The mask painter's toggle and help, on score and weight steps.
    out.paint_h = kept(Band::Paint) && body.h > roomy ? paint_bar_height(p) : 0.0f;
    body.y += out.paint_h;
    body.h -= out.paint_h;
    const float strip_h = 2.0f * p.small_size() + 26.0f * s;
    out.strip = kept(Band::Strip) && p.f->show_storage && body.h > 6.0f * strip_h;
    out.strip_h = storage_strip_height(p, body.w);
    // A little air between the heatmaps and the strip's caption.
    body.h -= (out.strip ? out.strip_h + 6.0f * s : 0.0f) + legend_h;
    // Weight steps: how peaked each head is, in numbers, under the legend.
    const bool room = body.h > roomy;
    out.focus_h = kept(Band::Focus) && room ? focus_summary_height(p, sd, body.w) : 0.0f;
    out.notes_h = kept(Band::Notes) && room ? notes_height(p, sd, body.w) : 0.0f;
    // What the configuration does here (fully masked rows, key/value groups), worded now.
    if (kept(Band::ConfigNotes) && room) out.more_notes = wrap_notes(p, config_notes(*p.f), body.w);
    out.more_notes_h = config_notes_height(p, out.more_notes);
    // RoPE steps: one head vector's coordinate pairs turning on dials.
    out.rotation_h = kept(Band::Rotation) && body.h > 14.0f * p.small_size() ? rotation_band_height(p, body.w) : 0.0f;
    body.h -= out.focus_h + out.notes_h + out.more_notes_h + out.rotation_h;
    out.body = body;
    out.sources = kept(Band::Sources);
    return out;
}

}  // namespace

// The result's cells with these bands (the focus column beside the grid too).
CellSize result_cell_size(const Painter& p, const CanvasUi& ui, const CanvasBands& bands) {
    const StepDisplay& sd = p.display(p.f->step);
    const float column_w = bands.focus_h > 0.0f ? focus_column_width(p, sd) : 0.0f;
    Rect area = split_result(p, ui, bands.body, bands.sources, column_w).result;
    area.w -= column_w;
    const std::vector<int> visible = visible_panels(sd, ui);
    const StepLayout lay = layout_step(shown_arrangement(sd, visible), sd.joined, panel_sizes(sd, visible), area, p.style);
    return lay.panels.empty() ? CellSize{} : CellSize{lay.panels.front().cell_w, lay.panels.front().cell_h};
}

float result_cell(const Painter& p, const CanvasUi& ui, const CanvasBands& bands) {
    const CellSize c = result_cell_size(p, ui, bands);
    return std::min(c.w, c.h);
}

CanvasBands plan_bands(const Painter& p, const CanvasUi& ui, const Rect& body, float legend_h) {
    if (p.f->bare) return bands_with(p, body, legend_h, static_cast<int>(Band::Count));
    if (!p.f->presentation && !p.f->fold_bands) {
        // Every band, unless they squeeze the picture under 4 lines of height (a 1024x768
        // projector with the code panel under the canvas and a followed cell's strip): then
        // the least needed fold until it has 8 lines, its head bar, key labels and rows.
        const CanvasBands every = bands_with(p, body, legend_h, 0);
        if (every.body.h >= 4.0f * p.small_size()) return every;
        for (int folded = 1; folded < static_cast<int>(Band::Count); ++folded) {
            const CanvasBands fewer = bands_with(p, body, legend_h, folded);
            if (fewer.body.h >= 8.0f * p.small_size()) return fewer;
        }
        return bands_with(p, body, legend_h, static_cast<int>(Band::Count));
    }
    // Presentation: the picture comes first. Bands fold, least needed first, until its
    // cells are within 5% of the largest folding can give them (and hold a number, "-0.00"
    // in the small font): operands and readouts make way for the picture, at any UI scale.
    std::vector<float> cells;
    for (int folded = 0; folded <= static_cast<int>(Band::Count); ++folded) cells.push_back(result_cell(p, ui, bands_with(p, body, legend_h, folded)));
    const float numbers = p.measure(p.f->fonts.small, "-0.00").x + 6.0f * p.f->scale;
    const float wanted = std::max(numbers, 0.95f * *std::max_element(cells.begin(), cells.end()));
    return bands_with(p, body, legend_h, bands_to_fold(cells, wanted));
}

}  // namespace attn::gui
