// Shared drawing context of the canvas views (view_canvas, view_canvas_anim,
// view_storage). Internal to app/gui/views.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/app_state.h"
#include "app/gui/fonts_theme.h"
#include "app/gui/heatmap_cache.h"
#include "app/gui/layout.h"
#include "app/gui/painted_mask.h"

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
    std::string notice;        // shown after the caption, e.g. why the settings were not applied
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

    const StepDisplay& display(int step) const { return f->model->steps[static_cast<size_t>(step)]; }
    const Step& step(int step) const { return f->trace->steps[static_cast<size_t>(step)]; }
    float font_size() const { return f->fonts.regular ? f->fonts.regular->FontSize : 16.0f; }
    float small_size() const { return f->fonts.small ? f->fonts.small->FontSize : 12.0f; }
    void text(ImFont* font, ImVec2 pos, uint32_t color, const std::string& s) const;
    ImVec2 measure(ImFont* font, const std::string& s) const;
};

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
// Numbers inside cells that are big enough; cells at or after (stop_row, stop_col) are skipped.
void draw_cell_values(const Painter& p, int step, int panel, const Rect& r, float cell_w, float cell_h,
                      int stop_row, int stop_col, float alpha);
// Outline of one cell, row or column of a panel.
void outline_rect(const Painter& p, const Rect& r, float thickness);
Rect cell_rect(const Rect& panel, float cell_w, float cell_h, int row, int col);
// Colour bar with the value range.
void draw_legend(const Painter& p, const StepDisplay& sd, const Rect& r);

}  // namespace attn::gui
