#include "app/gui/views/canvas/view_canvas_follow.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/gui/display/format.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"

namespace attn::gui {

using text::label;
using text::tr;
using text::trf;

namespace {

// The followed number in its own colour, what made it and what it feeds in another
// (readable on both themes' heatmaps: the outline is drawn dark, then bright).
constexpr uint32_t kSourceColour = IM_COL32(90, 200, 255, 235);
constexpr uint32_t kFeedsColour = IM_COL32(255, 170, 60, 235);

void outline_thin(const Painter& p, const Rect& r, uint32_t colour) {
    const float t = 1.5f * p.f->scale;
    p.dl->AddRect(ImVec2(r.x - t, r.y - t), ImVec2(r.right() + t, r.bottom() + t), IM_COL32(0, 0, 0, 200), 0.0f, 0, t);
    p.dl->AddRect(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), colour, 0.0f, 0, t);
}

void outline_cell(const Painter& p, const Rect& r, LineageRole role) {
    if (role == LineageRole::Same) outline_rect(p, r, 2.5f);
    else outline_thin(p, r, role == LineageRole::Source ? kSourceColour : kFeedsColour);
}

// A projection's X (the source step's rows, every input feature) on the product view.
void outline_input_operand(const Painter& p, const Lineage& lineage, const ResultDrawn& drawn) {
    const Step& step = p.step(p.f->step);
    if (!step.has_primary_source()) return;
    const LineageStep* source = lineage.find(step.primary_source());
    if (!source) return;
    for (const ResultDrawn::Operand& o : drawn.operands) {
        if (o.part != CellRef::Part::Input || o.rows <= 0 || o.cols <= 0) continue;
        const float cw = o.rect.w / static_cast<float>(o.cols), ch = o.rect.h / static_cast<float>(o.rows);
        for (const LineageCell& c : source->cells) {
            if (c.index.size() != 3 || c.index[0] != p.f->model->batch_item) continue;  // (B, N, in)
            if (c.index[1] >= o.rows || c.index[2] >= o.cols) continue;
            outline_cell(p, cell_rect(o.rect, cw, ch, static_cast<int>(c.index[1]), static_cast<int>(c.index[2])), c.role);
        }
    }
}

}  // namespace

void outline_lineage(const Painter& p, const CanvasUi& ui, int step, const std::vector<int>& visible,
                     const std::vector<PanelPlace>& places) {
    if (!ui.follow.lineage || p.f->progress < 1.0f) return;
    const LineageStep* here = ui.follow.lineage->find(p.step(step).id);
    if (!here) return;
    const StepDisplay& sd = p.display(step);
    // Sources and what it feeds first, the followed number over them.
    for (const LineageRole pass : {LineageRole::Source, LineageRole::Feeds, LineageRole::Same}) {
        for (const LineageCell& c : here->cells) {
            PanelCellPos at;
            if (c.role != pass || !panel_cell(sd, c.index, at)) continue;
            const auto shown = std::find(visible.begin(), visible.end(), at.panel);
            const size_t k = static_cast<size_t>(shown - visible.begin());
            if (shown == visible.end() || k >= places.size()) continue;
            const PanelPlace& place = places[k];
            outline_cell(p, cell_rect(place.rect, place.cell_w, place.cell_h, at.row, at.col), c.role);
        }
    }
}

void draw_follow_cells(const Painter& p, const CanvasUi& ui, const ResultDrawn& drawn) {
    if (layout_report_enabled() && !drawn.layout.panels.empty()) {  // where a window test finds the first panel's cells
        const Rect& r = drawn.layout.panels.front().rect;
        note_for_tests("item canvas.panel0 " + std::to_string(r.x) + " " + std::to_string(r.y) + " " + std::to_string(r.right()) + " " +
                       std::to_string(r.bottom()));
    }
    if (!ui.follow.lineage || p.f->progress < 1.0f) return;
    outline_input_operand(p, *ui.follow.lineage, drawn);
    outline_lineage(p, ui, p.f->step, drawn.visible, drawn.layout.panels);
}

void draw_follow_menu(CanvasUi& ui) {
    if (!ImGui::BeginPopup("##cell_menu")) return;
    FollowUi& follow = ui.follow;
    if (follow.cell.valid() && follow.cell == follow.menu_cell) {
        if (ImGui::MenuItem(label("follow.menu.unfollow"))) follow.cell = CellRef{};
    } else if (ImGui::MenuItem(label("follow.menu.follow"))) {
        follow.cell = follow.menu_cell;
        ui.pinned = follow.menu_cell;  // the inspector explains the cell being followed
    }
    ImGui::EndPopup();
}

namespace {

// "Followed: attn_scores 0.02817 → attn_scaled 0.01408 → ... → out (8 cells)".
std::string strip_text(const Trace& trace, const Lineage& lineage) {
    std::string line = tr("follow.strip.heading");
    bool first = true;
    // A weight or bias element is no step's cell: it opens the strip with its own value.
    const CellAddress& followed = lineage.followed;
    if (followed.kind != CellAddress::Kind::Step) {
        const bool weight = followed.kind == CellAddress::Kind::Weight;
        const std::string name = weight ? std::string(weight_symbol(followed.weight)) + "[" + std::to_string(followed.row) + ", " +
                                              std::to_string(followed.col) + "]"
                                        : std::string(bias_symbol(followed.weight)) + "[" + std::to_string(followed.row) + "]";
        line += " " + trf("follow.strip.value", {{"step", name}, {"value", format_value(value_at_cell(trace, followed))}});
        first = false;
    }
    for (const FollowStop& stop : follow_strip(trace, lineage)) {
        line += first ? " " : std::string(" ") + tr("follow.strip.arrow") + " ";
        first = false;
        line += stop.same ? trf("follow.strip.value", {{"step", step_name(stop.step)}, {"value", format_value(stop.value)}})
                          : trf("follow.strip.cells", {{"step", step_name(stop.step)}, {"cells", static_cast<long long>(stop.cells)}});
    }
    if (lineage.cut_short) line += std::string(" ") + tr("follow.strip.cut_short");
    return line;
}

// The strip's text column: the width less the padding and the Unfollow button.
float strip_wrap_width(float width, bool interactive) {
    const float pad = ImGui::GetStyle().WindowPadding.x;
    const float button_w = interactive ? ImGui::CalcTextSize(tr("follow.unfollow")).x + pad * 3.0f : 0.0f;
    return std::max(1.0f, width - 2.0f * pad - button_w);
}

}  // namespace

float follow_strip_height(const Results& results, const CanvasUi& ui, float width, bool interactive) {
    if (!ui.follow.lineage || !results.trace) return 0.0f;
    const std::string line = strip_text(*results.trace, *ui.follow.lineage);
    const float text_h =
        ImGui::CalcTextSize(wrap_cjk(*ImGui::GetFont(), ImGui::GetFontSize(), line, strip_wrap_width(width, interactive)).c_str()).y;
    // At most five lines: the canvas keeps the rest (a longer strip is cut, its start kept).
    return std::min(text_h, ImGui::GetTextLineHeightWithSpacing() * 5.0f) + ImGui::GetStyle().WindowPadding.y * 1.5f;
}

void draw_follow_strip(const Results& results, CanvasUi& ui, const Rect& area, bool interactive) {
    if (!ui.follow.lineage || !results.trace || area.h <= 0.0f) return;
    const std::string line = strip_text(*results.trace, *ui.follow.lineage);
    note_for_tests("follow " + line);
    const float pad = ImGui::GetStyle().WindowPadding.x;
    ImGui::PushClipRect(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), true);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), ImGui::GetColorU32(ImGuiCol_WindowBg));
    dl->AddLine(ImVec2(area.x, area.y), ImVec2(area.right(), area.y), ImGui::GetColorU32(ImGuiCol_Separator));
    const float wrap = strip_wrap_width(area.w, interactive);
    ImGui::SetCursorScreenPos(ImVec2(area.x + pad, area.y + pad * 0.5f));
    ImGui::PushTextWrapPos(area.x + pad + wrap - ImGui::GetWindowPos().x);
    text_wrapped(line.c_str());  // breaks between Chinese characters too
    ImGui::PopTextWrapPos();
    if (interactive) {
        ImGui::SetCursorScreenPos(ImVec2(area.x + pad * 2.0f + wrap, area.y + pad * 0.5f));
        if (ImGui::SmallButton(label("follow.unfollow"))) ui.follow.cell = CellRef{};
        note_item_for_tests("follow.unfollow");
    }
    ImGui::PopClipRect();
}

}  // namespace attn::gui
