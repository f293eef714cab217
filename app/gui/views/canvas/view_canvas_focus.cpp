#include "app/gui/views/canvas/view_canvas_focus.h"
#include "app/gui/views/canvas/view_canvas_notes.h"

#include <algorithm>
#include <string>
#include <vector>

#include "app/gui/display/head_groups.h"
#include "app/text/languages.h"
#include "core/text_split.h"

namespace attn::gui {
namespace {


// The summary as laid out in width `w`: its title's lines, then the entries left to
// right, `per_line` to a line, `entry_w` apart; an entry wider than the line wraps too.
struct FocusLayout {
    std::vector<std::string> title;
    std::vector<std::vector<std::string>> entries;
    int per_line = 1;
    float entry_w = 0, swatch_w = 0;
    int lines = 0;  // entry lines
};
FocusLayout focus_layout(const Painter& p, const StepDisplay& sd, float w) {
    FocusLayout out;
    // Never cut at the canvas's edge: the title and the entries wrap (cjk_wrap.h).
    out.title = wrap_notes(p, {text::tr("focus.summary_title")}, w);
    out.swatch_w = p.small_size() * 0.6f + 4.0f * p.f->scale;
    for (const HeadFocus& h : sd.focus) out.entry_w = std::max(out.entry_w, p.measure(p.f->fonts.small, head_focus_line(h)).x);
    out.entry_w += 24.0f * p.f->scale;  // the swatch and a gap
    out.per_line = std::max(1, static_cast<int>(w / std::max(1.0f, out.entry_w)));
    const float text_w = std::max(1.0f, std::min(out.entry_w - 12.0f * p.f->scale, w - out.swatch_w));
    int row_lines = 0;
    for (size_t k = 0; k < sd.focus.size(); ++k) {
        out.entries.push_back(wrap_notes(p, {head_focus_line(sd.focus[k])}, text_w));
        row_lines = std::max(row_lines, static_cast<int>(out.entries.back().size()));
        if (static_cast<int>(k) % out.per_line == out.per_line - 1 || k + 1 == sd.focus.size()) {
            out.lines += row_lines;
            row_lines = 0;
        }
    }
    return out;
}

}  // namespace

float focus_summary_height(const Painter& p, const StepDisplay& sd, float w) {
    if (sd.focus.empty()) return 0.0f;
    const FocusLayout f = focus_layout(p, sd, w);
    return static_cast<float>(f.lines + static_cast<int>(f.title.size())) * (p.small_size() + 3.0f * p.f->scale) + 8.0f * p.f->scale;
}

float focus_column_width(const Painter& p, const StepDisplay& sd) {
    if (sd.focus.empty()) return 0.0f;
    return p.measure(p.f->fonts.small, text::trf("focus.column", {{"head", "00"}})).x + 14.0f * p.f->scale;
}

void draw_focus_summary(const Painter& p, const StepDisplay& sd, const Rect& area) {
    if (sd.focus.empty()) return;
    const float line_h = p.small_size() + 3.0f * p.f->scale;
    const FocusLayout f = focus_layout(p, sd, area.w);
    float y = area.y + 8.0f * p.f->scale;
    for (const std::string& line : f.title) {
        p.text(p.f->fonts.small, ImVec2(area.x, y), p.pal.dim_text, line);
        y += line_h;
    }
    int row_lines = 0;
    for (size_t k = 0; k < sd.focus.size(); ++k) {
        const int col = static_cast<int>(k) % f.per_line;
        const ImVec2 at(area.x + static_cast<float>(col) * f.entry_w, y);
        // The head's colour marks whose line it is (the same colour as its panel's title).
        const float sw = p.small_size() * 0.6f;
        p.dl->AddRectFilled(ImVec2(at.x, at.y + sw * 0.4f), ImVec2(at.x + sw, at.y + sw * 1.4f),
                            pack_rgba(step_head_color(p.f->trace->config, p.step(sd.step).id, sd.focus[k].head)));
        float line_y = at.y;
        for (const std::string& line : f.entries[k]) {
            p.text(p.f->fonts.small, ImVec2(at.x + f.swatch_w, line_y), p.pal.text, line);
            line_y += line_h;
        }
        row_lines = std::max(row_lines, static_cast<int>(f.entries[k].size()));
        if (col == f.per_line - 1) {
            y += static_cast<float>(row_lines) * line_h;
            row_lines = 0;
        }
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
