// Shared drawing context of the canvas views (view_canvas, view_canvas_anim,
// view_storage). Internal to app/gui/views.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/state/app_state.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/display/layout.h"
#include "app/gui/display/weight_lines.h"
#include "app/gui/edits/painted_mask.h"

namespace attn::gui {

// Panels with more cells than this never print numbers in their cells: formatting and
// drawing that many strings would cost more than a frame, and such cells are too small
// to read anyway. (The canvas and the matrix-product view share this limit.)
constexpr int64_t kMaxCellsWithNumbers = 6000;

// Everything the canvas reads in one frame.
struct CanvasFrame {
    const Trace* trace = nullptr;
    const DisplayModel* model = nullptr;
    HeatmapCache* cache = nullptr;
    int step = 0;
    float progress = 1.0f;
    float scale = 1.0f;        // UI scale
    bool light = false;
    bool show_values = true;
    bool show_storage = true;  // the storage strip under the heatmaps
    bool interactive = true;   // false for snapshots: no hover, no clicks
    bool presentation = false; // presentation mode: the picture first, bands fold away
    bool fold_bands = false;   // bands fold away as in presentation (the heatmap beside the lines)
    WeightsAs weights_as = WeightsAs::Heatmap;  // View > Weights as, on weight steps
    const ModelOverview* overview = nullptr;    // View > Overview's thumbnails (null: not built yet)
    bool show_overview = false;                 // View > Overview is open: the grid replaces the picture
    float type = 1.0f;         // the canvas's type size relative to its fonts' (presentation
                               // shrinks it when a larger UI scale would shrink the picture)
    bool key_beside = false;   // presentation: caption and legend are drawn in the side column
                               // (draw_canvas_key), the canvas holds only the picture and its bands
    std::string notice;        // shown after the caption, e.g. why the settings were not applied
    // Compare mode's columns (view_compare.h): the picture with its caption (after this
    // prefix, "A", "B", "A − B") and legend only; every band around it is folded.
    bool bare = false;
    std::string caption_prefix;
    // Another picture of the same step whose cells print with the same rule (compare mode:
    // A's and B's columns), so one is never bare while the other prints numbers. Null: none.
    struct NumberPeer {
        const Trace* trace = nullptr;
        const DisplayModel* model = nullptr;
        int step = -1;
    };
    NumberPeer number_peer;
    float top_right_reserved = 0;  // width kept free at the caption line's right end (head selector)
    Fonts fonts;
    // The session's painted mask (painted_mask.h), or null where painting is not offered
    // (snapshots, trained models); `paint_blocked` says why painting cannot be used now.
    const PaintedMask* painted = nullptr;
    std::string paint_blocked;
};

struct Painter {
    ImDrawList* dl = nullptr;
    const CanvasFrame* f = nullptr;
    CanvasPalette pal;
    LayoutStyle style;
    // (step, characters per cell) -> decimals, chosen once per frame (cell_number_format).
    mutable std::vector<std::pair<std::pair<int, int>, int>> decimals_memo;
    // step -> (longest "2.9e-3" of its cells, largest |value|), once per frame (cell_number_format).
    mutable std::vector<std::pair<int, std::pair<int, float>>> difference_memo;

    const StepDisplay& display(int step) const { return f->model->steps[static_cast<size_t>(step)]; }
    const Step& step(int step) const { return f->trace->steps[static_cast<size_t>(step)]; }
    float font_size() const { return (f->fonts.regular ? f->fonts.regular->FontSize : 16.0f) * f->type; }
    float small_size() const { return (f->fonts.small ? f->fonts.small->FontSize : 12.0f) * f->type; }
    void text(ImFont* font, ImVec2 pos, uint32_t color, const std::string& s) const;
    ImVec2 measure(ImFont* font, const std::string& s) const;
};

// The bands around the canvas's picture (heights in pixels, 0 when folded or not on this
// step) and the rectangle left for the picture itself.
struct CanvasBands {
    float paint_h = 0;                    // the mask painter's toggle, above the picture
    bool strip = false;                   // the storage strip, at the bottom
    float strip_h = 0;
    float focus_h = 0;                    // "how peaked" readouts (and their column beside the grid)
    float notes_h = 0;                    // the step's notes
    std::vector<std::string> more_notes;  // the configuration's notes, wrapped
    float more_notes_h = 0;
    float rotation_h = 0;                 // RoPE's dials
    bool sources = true;                  // the operands' column beside the result
    Rect body;                            // what is left for the picture
};
// The bands of the step on screen inside `body` (below the caption line); `legend_h`: the
// legend's band when it sits under the picture. In presentation bands fold away, least
// needed first (storage strip, paint toggle, readouts, dials, operands, notes), until the
// picture's cells are big enough for numbers.
CanvasBands plan_bands(const Painter& p, const CanvasUi& ui, const Rect& body, float legend_h);
// The result and its sources side by side (the sources only when asked and there is room);
// `beside_w`: what the result keeps at its right (the "how peaked" column).
CanvasSplit split_result(const Painter& p, const CanvasUi& ui, const Rect& body, bool sources, float beside_w);
// The result's cells with these bands (the focus column beside the grid too), and their short side.
CellSize result_cell_size(const Painter& p, const CanvasUi& ui, const CanvasBands& bands);
float result_cell(const Painter& p, const CanvasUi& ui, const CanvasBands& bands);

// The caption broken into lines no wider than `width`, between its pieces (they are three
// spaces apart: "attn_weights", "(B=1, H=4, ...)", "item 2"), so no piece is cut.
std::vector<std::string> caption_lines(const Painter& p, const std::string& caption, float width);

// The panels of a step actually shown (one when a head is enlarged).
std::vector<int> visible_panels(const StepDisplay& sd, const CanvasUi& ui);
std::vector<std::pair<int, int>> panel_sizes(const StepDisplay& sd, const std::vector<int>& visible);
// Arrangement used for the visible panels (Single when one head is enlarged).
Arrangement shown_arrangement(const StepDisplay& sd, const std::vector<int>& visible);

// A panel's coloured texture over `r`; rows [row0, row1) and cols [col0, col1) of it.
void draw_heatmap(const Painter& p, int step, int panel, const Rect& r, float alpha = 1.0f,
                  float row0 = 0.0f, float row1 = 1.0f, float col0 = 0.0f, float col1 = 1.0f);
// Head colour bar/label above a panel and its frame.
void draw_panel_frame(const Painter& p, const StepDisplay& sd, int panel, const Rect& r, bool grid, float alpha);
// Token or index labels for rows (left of `r`) and columns (above `r`).
void draw_row_labels(const Painter& p, const StepDisplay& sd, const Rect& r, float cell_h);
void draw_col_labels(const Painter& p, const StepDisplay& sd, const Rect& r, float cell_w, int first_col);
// The smallest font labels shrink to before some are skipped.
float min_label_font(const Painter& p);
// Text in the small font drawn or measured at any pixel size (ImGui scales its glyphs).
ImVec2 measure_at(const Painter& p, float size, const std::string& s);
void text_at(const Painter& p, float size, ImVec2 pos, uint32_t color, const std::string& s);
// The same text turned 90 degrees, reading upwards from `origin` (its baseline's start).
void text_standing(const Painter& p, float size, ImVec2 origin, uint32_t color, const std::string& s);
// How the numbers of a step's cells of this size are printed: one rule for every panel
// of the step (fewer decimals first, then smaller type); decimals < 0 when they are
// hidden (cells too small).
struct NumberFormat {
    int decimals = -1;
    int max_chars = 0;
    float font_px = 0;        // the type size: the labels' small font, or smaller to fit
    bool difference = false;  // differences from float32: "2.9e-3"
    // Differences whose plain or "2.9e-3" numbers fit no type size print as whole numbers
    // in units of 10^-scaled ("-48" for -0.48; format_cell_scaled); 0: not scaled.
    int scaled = 0;
    float largest = 0;  // the step's largest |value| (the note's example)
};
// The line the canvas writes under (or beside) a picture about its cells' numbers:
// "numbers hidden" when `format` hides them, the unit of scaled numbers, else "".
std::string cell_numbers_note(const NumberFormat& format);
NumberFormat cell_number_format(const Painter& p, int step, float cell_w, float cell_h);
// Numbers inside cells that are big enough; cells at or after (stop_row, stop_col) are skipped.
void draw_cell_values(const Painter& p, int step, int panel, const Rect& r, float cell_w, float cell_h,
                      int stop_row, int stop_col, float alpha);
// Outline of one cell, row or column of a panel.
void outline_rect(const Painter& p, const Rect& r, float thickness);
Rect cell_rect(const Rect& panel, float cell_w, float cell_h, int row, int col);
// Colour bar `r` with the value range under it and its title above it, wrapped to
// `title_w` (at least the bar's width; legend_title_lines gives the lines, each
// legend_line_h tall, so callers keep room for them); `swatch`: the masked cells' swatch
// left of it too.
void draw_legend(const Painter& p, const StepDisplay& sd, const Rect& r, bool swatch = true, float title_w = 0.0f);
// The legend's title ("probability", "A − B: rounding only (largest 6e-08)", ...).
std::string legend_title(const Painter& p, const StepDisplay& sd);
std::vector<std::string> legend_title_lines(const Painter& p, const StepDisplay& sd, float width);
float legend_line_h(const Painter& p);
// The masked cells' hatched swatch with its words, from `at` (top left), as tall as a
// legend bar of height `bar_h`; nothing when the step has no masked cell.
void draw_masked_swatch(const Painter& p, const StepDisplay& sd, ImVec2 at, float bar_h);
// The legend's words for hatched cells: on masked scores "masked (-1e+20)", the fill in use
// (-inf, -1e20, finfo.min, ...), "masked in both runs" on differences from float32; on
// weights (`scores` false) "masked key (0)".
std::string masked_legend_label(const CanvasFrame& frame, bool scores);

}  // namespace attn::gui
