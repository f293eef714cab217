#include "app/gui/views/canvas/view_canvas_focus.h"
#include "app/gui/views/canvas/view_canvas_notes.h"

#include <algorithm>
#include <string>

#include "app/gui/display/head_groups.h"
#include "app/text/languages.h"
#include "core/text_split.h"

namespace attn::gui {
namespace {


// Entries laid out left to right, wrapping: how many fit on one line.
int per_line(const Painter& p, const StepDisplay& sd, float w, float& entry_w) {
    entry_w = 0;
    for (const HeadFocus& h : sd.focus) entry_w = std::max(entry_w, p.measure(p.f->fonts.small, head_focus_line(h)).x);
    entry_w += 24.0f * p.f->scale;
    return std::max(1, static_cast<int>(w / std::max(1.0f, entry_w)));
}

}  // namespace

float focus_summary_height(const Painter& p, const StepDisplay& sd, float w) {
    if (sd.focus.empty()) return 0.0f;
    float entry_w = 0;
    const int n = per_line(p, sd, w, entry_w);
    const int lines = (static_cast<int>(sd.focus.size()) + n - 1) / n;
    return static_cast<float>(lines + 1) * (p.small_size() + 3.0f * p.f->scale) + 8.0f * p.f->scale;
}

float focus_column_width(const Painter& p, const StepDisplay& sd) {
    if (sd.focus.empty()) return 0.0f;
    return p.measure(p.f->fonts.small, text::trf("focus.column", {{"head", "00"}})).x + 14.0f * p.f->scale;
}

void draw_focus_summary(const Painter& p, const StepDisplay& sd, const Rect& area) {
    if (sd.focus.empty()) return;
    const float line_h = p.small_size() + 3.0f * p.f->scale;
    float y = area.y + 8.0f * p.f->scale;
    std::string title = text::tr("focus.summary_title");
    // Keep the title to the area: long titles are cut (by characters: never inside a
    // Chinese one), never drawn over the legend.
    while (utf8_length(title) > 20 && p.measure(p.f->fonts.small, title).x > area.w)
        title = utf8_prefix(title, utf8_length(title) - 8) + "...";
    p.text(p.f->fonts.small, ImVec2(area.x, y), p.pal.dim_text, title);
    y += line_h;
    float entry_w = 0;
    const int n = per_line(p, sd, area.w, entry_w);
    for (size_t k = 0; k < sd.focus.size(); ++k) {
        const int col = static_cast<int>(k) % n, row = static_cast<int>(k) / n;
        const ImVec2 at(area.x + static_cast<float>(col) * entry_w, y + static_cast<float>(row) * line_h);
        // The head's colour marks whose line it is (the same colour as its panel's title).
        const float sw = p.small_size() * 0.6f;
        p.dl->AddRectFilled(ImVec2(at.x, at.y + sw * 0.4f), ImVec2(at.x + sw, at.y + sw * 1.4f),
                            pack_rgba(step_head_color(p.f->trace->config, p.step(sd.step).id, sd.focus[k].head)));
        p.text(p.f->fonts.small, ImVec2(at.x + sw + 4.0f * p.f->scale, at.y), p.pal.text, head_focus_line(sd.focus[k]));
    }
}

float notes_height(const Painter& p, const StepDisplay& sd, float width) {
    if (sd.notes.empty()) return 0.0f;
    const size_t lines = wrap_notes(p, sd.notes, width).size();
    return static_cast<float>(lines) * (p.small_size() + 3.0f * p.f->scale) + 8.0f * p.f->scale;
}

void draw_notes(const Painter& p, const StepDisplay& sd, const Rect& area) {
    float y = area.y + 8.0f * p.f->scale;
    // Wrapped at the canvas's width (a long note is not cut at its right edge).
    for (const std::string& line : wrap_notes(p, sd.notes, area.w)) {
        p.text(p.f->fonts.small, ImVec2(area.x, y), p.pal.notice, line);
        y += p.small_size() + 3.0f * p.f->scale;
    }
}

void draw_focus_column(const Painter& p, const StepDisplay& sd, int head, const PanelPlace& place, float x) {
    if (head < 0 || head >= static_cast<int>(sd.focus.size())) return;
    const HeadFocus& focus = sd.focus[static_cast<size_t>(head)];
    const float text_h = p.small_size();
    if (place.cell_h < text_h * 0.95f || focus.rows.empty()) return;
    const float row_h = place.rect.h / static_cast<float>(focus.rows.size());
    p.text(p.f->fonts.small, ImVec2(x, place.rect.y - text_h - 2.0f * p.f->scale), p.pal.dim_text,
           text::trf("focus.column", {{"head", head}}));
    for (size_t r = 0; r < focus.rows.size(); ++r) {
        const RowFocus& row = focus.rows[r];
        const float y = place.rect.y + row_h * static_cast<float>(r) + (row_h - text_h) * 0.5f;
        // Rows that say nothing about focus (one visible key, all masked) are shown dimmed.
        const std::string numbers = row.keys == 0 ? "  -" : text::fixed(row.max_weight, 2) + "  " +
                                                             (row.counted ? text::fixed(row.entropy, 2) : std::string(" -"));
        p.text(p.f->fonts.small, ImVec2(x, y), row.counted ? p.pal.text : p.pal.dim_text, numbers);
    }
}

}  // namespace attn::gui
