// Where things go on the canvas: panel rectangles, cell sizes, small-multiple grids,
// and the reverse question, which cell is under the mouse. Pure geometry, no ImGui.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/display/display_model.h"

namespace attn::gui {

struct Rect {
    float x = 0, y = 0, w = 0, h = 0;
    bool contains(float px, float py) const { return px >= x && py >= y && px < x + w && py < y + h; }
    float right() const { return x + w; }
    float bottom() const { return y + h; }
};

// Linear blend of two rectangles (t = 0 -> a, 1 -> b).
Rect lerp_rect(const Rect& a, const Rect& b, float t);

// Sizes in pixels (already multiplied by the UI scale).
struct LayoutStyle {
    float gap = 14;          // between small multiples
    float group_gap = 8;     // between head column groups
    float max_cell = 56;     // cells never grow beyond this
    float min_row = 18;      // a row is allowed this tall (room for a token) when space allows
    float header = 20;       // head label / colour bar above a panel
    float col_header = 16;   // column indices above a panel
    float row_gutter = 64;   // token labels left of the panels
    // Tall heads-first tensors such as (H, L, d_h) stack vertically (like NumPy prints
    // them) while cells stay at least this big; otherwise the largest cells win.
    float comfortable_cell = 28;
};

// Cell width and height for rows x cols cells inside w x h: square when possible,
// but a tiny axis does not squash the other below min_row (L=6, E=512 stays readable).
struct CellSize {
    float w = 0, h = 0;
};
CellSize fit_cells(int rows, int cols, float w, float h, const LayoutStyle& style);

struct PanelPlace {
    Rect rect;         // the cells only (no header)
    float cell_w = 0, cell_h = 0;
};

struct StepLayout {
    std::vector<PanelPlace> panels;  // one per Panel, same order
    Rect bounds;                     // everything, labels included
    int grid_cols = 1;               // panels per row: Grid columns, or column groups per band
};

// Places the panels of one step inside `area` (labels and headers included).
// `sizes` are (rows, cols) per panel.
StepLayout layout_step(Arrangement arrangement, bool joined, const std::vector<std::pair<int, int>>& sizes,
                       const Rect& area, const LayoutStyle& style);

// Columns of a small-multiple grid of `count` panels of (rows, cols) cells that gives the
// largest cells inside w x h: the longest short side first (a row taller than wide does not
// make a sliver cell "large"), then the largest area.
int best_grid_columns(int count, int rows, int cols, float w, float h, const LayoutStyle& style);

// Column groups per band: non-joined column groups (q_split's heads) wrap into bands,
// each with its own row labels, when that gives larger cells (32 heads of 2 columns on a
// 1920 px screen: three bands, not one row of slivers). Joined groups and single panels
// stay in one band (returns the panel count).
int column_groups_per_band(Arrangement arrangement, bool joined, const std::vector<std::pair<int, int>>& sizes, float w,
                           float h, const LayoutStyle& style);

struct CellHit {
    int panel = -1;  // -1: nothing under the point
    int row = 0, col = 0;
};
// The logical cell under (px, py).
CellHit hit_test(const StepLayout& layout, const std::vector<std::pair<int, int>>& sizes, float px, float py);

// How many optional bands around a picture to fold: `cell_after[k]` is the picture's cell
// size with the first k bands folded (k = 0 .. bands). The fewest that reach `wanted`;
// when none does, the fewest that come within 10% of folding them all (a band is not
// folded for a gain nobody sees).
int bands_to_fold(const std::vector<float>& cell_after, float wanted);

// The canvas split into a column of source tensors (left) and the result (right).
struct CanvasSplit {
    Rect sources;  // w == 0 when there are no sources to show
    Rect result;
};
// The sources get 30% of the width, less when the result is a grid of many small
// multiples (16 heads), so a source panel is not four times the size of a thumbnail.
// `result_wants_w` > 0 (one enlarged head): the width the result would fill at the
// canvas's full height; the sources then give up width (down to 15%) until it has it.
CanvasSplit split_canvas(const Rect& canvas, int source_count, float gap, int result_panels = 1, float result_wants_w = 0.0f);

// Side panels of the normal layout in pixels, from the saved sizes (font heights and a
// fraction): each at least ten font heights and at most 30% of the window, both shrunk
// in proportion so the canvas keeps half the width. When even the minimums do not fit,
// the controls fold into a narrow tab (left_collapsed) and open over the canvas.
struct SidePanels {
    float left = 0, right = 0;    // widths (left: the tab's width when collapsed)
    float explain_h = 0;          // height of the explanation above the inspector
    bool left_collapsed = false;  // the controls are a tab, not a column
};
SidePanels side_panels(float display_w, float column_h, float font_size, float left_em, float right_em,
                       float explain_fraction);
// Width of the folded controls tab.
float collapsed_tab_width(float font_size);

// The rectangles of the normal layout's dock slots (views/view_registry.h), in pixels:
// a column on each side, the canvas between them with the timeline under it, the right
// column split into explanation and inspector, the status line along the bottom edge.
// Splitter bars `bar` wide sit in the gaps. When the controls fold (side.left_collapsed),
// `tab` is the narrow tab and `left` the controls opened over the canvas beside it.
struct DockRects {
    SidePanels side;
    Rect left, center, bottom, above_bottom, right_top, right_bottom, status, tab;
};
// `top`: below the menu bar; `bottom_h`: the timeline's height; `status_h`: the status
// line's; the saved panel sizes as in side_panels().
DockRects dock_rects(float display_w, float display_h, float top, float font_size, float bottom_h, float status_h,
                     float bar, float left_em, float right_em, float explain_fraction);

// The centre slot shared by the canvas and, when shown, the code panel (BesideCanvas):
// the code goes right of the canvas when ~72 columns of code (35 font heights) fit in at
// most 55% of its width (1920x1080), else under it in 45% of its height (1280x800, a
// 1024x768 projector), so code lines are not cut. `bar`: the gap between them.
struct CenterSplit {
    Rect canvas, code;  // code.w == 0: the code panel is not shown
};
CenterSplit split_center(const Rect& center, bool code_shown, float font_size, float bar);
// While a lesson is being made, its slide list takes a column left of the canvas: 13 font
// heights, at most a quarter of the width. list.w == 0: not shown.
struct SlideListSplit {
    Rect list, rest;
};
SlideListSplit split_slide_list(const Rect& center, bool shown, float font_size, float bar);

// The first window's place: the saved size, shrunk to the monitor's work area and centred
// in it (a 1024x768 projector must not get a 1440x900 window with its edges off-screen).
Rect fit_window(int want_w, int want_h, const Rect& work_area);

// How a row or column of axis labels is drawn: every label when it can be (in a smaller
// font, or shortened to its first characters with the full text in a tooltip); only
// when even the smallest font cannot fit does it skip to every `every`-th label.
struct LabelFit {
    float font_px = 0;  // font size to draw with
    int max_chars = 0;  // labels longer than this are shortened
    int every = 1;      // 1: every label is drawn
};
// 1, 2, 5, 10, 20, 50, ...: the smallest such stride of at least `every` (index labels
// that skip read 0 5 10, not 0 3 6).
int nice_stride(int every);
// Stacked labels (row labels, one above the other): `cell` is the row height.
LabelFit fit_stacked_labels(float cell, float font_px, float min_font_px, int longest_chars);
// Side-by-side labels (column labels): `cell` is the column width; `char_w` the width of
// one character per font pixel (~0.6); `min_chars` the shortest useful abbreviation
// (indices must keep all their digits: pass longest_chars).
LabelFit fit_side_labels(float cell, float font_px, float min_font_px, float char_w, int longest_chars, int min_chars);

// The numbers under a colour bar from x to x + w: the low end's left-aligned at x, the high
// end's right-aligned at x + w, and "0" centred for a diverging scale (`zero`). Nothing is
// drawn over anything else (`gap` pixels apart at least): the 0 goes first, then the ends
// lose significant digits (4, 3, 2), and when even that does not fit, only the high end is
// left. `texts(d)` gives the (low, high) texts at d significant digits; `width_of` measures.
struct LegendTick {
    std::string text;
    float x = 0;  // left edge
};
std::vector<LegendTick> place_legend_ticks(const std::function<std::pair<std::string, std::string>(int)>& texts, bool zero,
                                           float x, float w, float gap, const std::function<float(const std::string&)>& width_of);

// Step tabs in one row: the most detailed level of labels (0 = "5 q_split (view)",
// 1 = "5 q_split", 2 = "5") at which every tab fits into `avail`; the current tab is
// always counted in full. Returns the last level when none fits (the row then scrolls).
int step_tab_detail(const std::vector<std::vector<float>>& widths_by_level, int current, float spacing, float avail);

}  // namespace attn::gui
