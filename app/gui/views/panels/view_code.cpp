#include "app/gui/views/panels/view_code.h"

#include <imgui.h>

#include "app/gui/kit/cjk_wrap.h"

#include "app/gui/views/controls/view_controls_widgets.h"

#include <algorithm>
#include <string>

#include "app/io/torch_code.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::tr;

// "(2, 2, 4, 4)": the shape the trace recorded.
std::string shape_text(const Tensor& t) {
    std::string s = "(";
    for (int i = 0; i < t.rank(); ++i) s += (i ? ", " : "") + std::to_string(t.dim(i));
    return s + ")";
}

// The first step the line produces that this trace recorded, or -1 (also when the
// line is in a branch this configuration does not take).
int recorded_step(const Trace& trace, const io::CodeLine& line, bool runs) {
    if (!runs) return -1;
    for (StepId id : line.steps)
        if (const int index = trace.index_of(id); index >= 0) return index;
    return -1;
}

bool names_step(const io::CodeLine& line, StepId id) {
    return std::find(line.steps.begin(), line.steps.end(), id) != line.steps.end();
}

size_t indent_of(const std::string& code) {
    return code.find_first_not_of(' ') == std::string::npos ? 0 : code.find_first_not_of(' ');
}

// Width of the left margin: the step tags are written at the panel's left edge, in the
// line's indentation where they fit, so the code moves right only by what they need
// beyond it (a narrow projector panel keeps its columns for the code).
float margin_width(const std::vector<io::CodeLine>& lines) {
    const float gap = ImGui::CalcTextSize("  ").x;
    float margin = 0.0f;
    for (const io::CodeLine& line : lines) {
        if (line.steps.empty()) continue;
        const float indent = ImGui::CalcTextSize(line.code.substr(0, indent_of(line.code)).c_str()).x;
        margin = std::max(margin, ImGui::CalcTextSize(io::step_tag(line).c_str()).x + gap - indent);
    }
    return margin;
}

// The step tag of the line that starts at `line_start`, at the margin's left edge.
void draw_step_tag(const io::CodeLine& line, ImVec2 line_start, float margin, Rgb color) {
    ImGui::GetWindowDrawList()->AddText(ImVec2(line_start.x - margin, line_start.y),
                                        ImGui::GetColorU32(to_imvec4(color, 0.85f)), io::step_tag(line).c_str());
}

// The line above the code: whose code it is, or why the step has no line.
void draw_header(const std::vector<int>& highlighted, const std::string& recipe_class, const Step& shown, Rgb dim) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(dim));
    if (highlighted.empty() && !recipe_class.empty())  // e.g. a single-head class's head-axis views
        ImGui::TextWrapped("%s",
                           text::trf("code.outside_recipe", {{"class", recipe_class}, {"name", shown.name()}}).c_str());
    else if (highlighted.empty())
        text_wrapped(tr("code.outside"));
    else if (!recipe_class.empty()) {
        text_wrapped(text::trf("code.header_recipe", {{"class", recipe_class}}).c_str());
        // Why the class differs from recipe_modules.py, for those who open the file.
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("code.article_form"));
    } else
        text_wrapped(tr("code.header"));
    ImGui::PopStyleColor();
}

// What hovering a line says: its step (number, name, shape), or that it records none here.
void line_tooltip(const Trace& trace, const io::CodeLine& line, int target) {
    if (target < 0) {
        ImGui::SetTooltip("%s", tr("code.line_not_recorded"));
        return;
    }
    const Step& step = trace.steps[static_cast<size_t>(target)];
    ImGui::SetTooltip("%s",
                      text::trf("code.line_tip",
                                {{"number", target + 1}, {"name", step.name()}, {"shape", io::shape_of(line, step.id)}})
                          .c_str());
}

// Under the current step's line: the shape of the tensor it produced,
// "# attn_scores (B, H, L, S) = (1, 2, 4, 4)".
void shape_note(const io::CodeLine& line, const Step& shown, Rgb color) {
    const std::string note = std::string(indent_of(line.code), ' ') + "# " + shown.name() + " " +
                             io::shape_of(line, shown.id) + " = " + shape_text(shown.tensor);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(color));
    ImGui::TextUnformatted(note.c_str());
    ImGui::PopStyleColor();
}

}  // namespace

void draw_code_panel(const Trace* trace, Playback& playback, CodeUi& code, bool light_theme, const Fonts& fonts) {
    const ThemeColors colors = theme_colors(light_theme);
    code.hovered_line = -1;
    if (!trace || trace->steps.empty()) {
        quiet_note(tr("code.no_trace"));
        return;
    }
    const int index = std::clamp(playback.step(), 0, static_cast<int>(trace->steps.size()) - 1);
    const Step& shown = trace->steps[static_cast<size_t>(index)];
    // A recipe's configuration shows its own article-style class (recipe_modules.py).
    // The generic module's comments in the language in use.
    const std::vector<io::CodeLine>& lines = io::code_lines_for(trace->config, text::active());
    const std::string recipe_class = io::code_class_for(trace->config);
    // Computed each frame: a few hundred string compares, no allocation worth caching.
    const std::vector<bool> runs = io::lines_run(lines, trace->config);
    const std::vector<int> highlighted = io::lines_of_step_run(lines, shown.id, trace->config);

    draw_header(highlighted, recipe_class, shown, colors.dim);

    ImGui::BeginChild("##code_lines", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    if (fonts.code) ImGui::PushFont(fonts.code);
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const ImVec4 chip = to_imvec4(colors.chip_bg, 0.45f);
    ImGui::PushStyleColor(ImGuiCol_Header, chip);
    ImGui::PushStyleColor(ImGuiCol_HeaderHovered, to_imvec4(colors.chip_bg, 0.30f));
    ImGui::PushStyleColor(ImGuiCol_HeaderActive, chip);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 1.0f));
    // The left margin names each line's step, so the code itself stays as the article has it.
    const float margin = margin_width(lines);
    if (margin > 0.0f) ImGui::Indent(margin);  // Indent(0) would indent by the style's default
    float first_highlight_y = -1.0f;
    for (size_t i = 0; i < lines.size(); ++i) {
        const io::CodeLine& line = lines[i];
        const std::string label = (line.code.empty() ? std::string(" ") : line.code) + "##line" + std::to_string(i);
        const bool is_current = runs[i] && names_step(line, shown.id);
        if (is_current && first_highlight_y < 0.0f) first_highlight_y = ImGui::GetCursorPosY();
        const ImVec2 line_start = ImGui::GetCursorScreenPos();
        if (line.steps.empty()) {  // branches this configuration does not take are dimmed
            if (!runs[i]) ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colors.dim));
            ImGui::TextUnformatted(line.code.empty() ? " " : line.code.c_str());
            if (!runs[i]) ImGui::PopStyleColor();
            continue;
        }
        const int target = recorded_step(*trace, line, runs[i]);
        // Lines of steps this configuration does not record (another branch) are dimmed.
        if (target < 0) ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colors.dim));
        if (ImGui::Selectable(label.c_str(), is_current) && target >= 0 && target != index) playback.jump_to(target);
        if (target < 0) ImGui::PopStyleColor();
        draw_step_tag(line, line_start, margin, is_current ? colors.formula : colors.dim);  // over the highlight
        // Hovering only highlights and names the line's step: a teacher pointing at code
        // with the mouse must not move the lesson. A click goes there.
        if (ImGui::IsItemHovered()) {
            code.hovered_line = static_cast<int>(i);
            line_tooltip(*trace, line, target);
        }
        if (is_current) shape_note(line, shown, colors.formula);
    }
    if (margin > 0.0f) ImGui::Unindent(margin);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(3);
    // Bring the highlight into view when the step changes (stepping, playing, a click)
    // or the panel is resized (the window, the layout beside or under the canvas).
    const float view_h = ImGui::GetWindowHeight();
    if ((code.scrolled_step != index || code.scrolled_h != view_h) && first_highlight_y >= 0.0f) {
        if (first_highlight_y < ImGui::GetScrollY() || first_highlight_y + line_h * 2.0f > ImGui::GetScrollY() + view_h)
            ImGui::SetScrollY(std::max(0.0f, first_highlight_y - view_h * 0.35f));
    }
    code.scrolled_step = index;
    code.scrolled_h = view_h;
    if (fonts.code) ImGui::PopFont();
    ImGui::EndChild();
}

}  // namespace attn::gui
