#include "app/gui/views/panels/view_explain.h"

#include <imgui.h>

#include "app/gui/views/controls/view_controls_widgets.h"

#include <cmath>
#include <string>

#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/text/step_text.h"

namespace attn::gui {

using text::tr;

void draw_explanation(const Trace* trace, int index, int batch_item, bool light_theme, const Fonts& fonts, bool large) {
    if (!trace || trace->steps.empty()) {
        quiet_note(tr("explain.waiting"));
        return;
    }
    const Step& step = trace->steps[static_cast<size_t>(index)];
    const text::StepText words = text::describe_step(step, *trace);
    ImGui::PushFont(fonts.large);
    text_wrapped((std::to_string(index + 1) + ". " + words.title).c_str());
    ImGui::PopFont();
    if (large) ImGui::PushFont(fonts.large);
    const ThemeColors colors = theme_colors(light_theme);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colors.formula));
    text_wrapped(words.formula.c_str());
    ImGui::PopStyleColor();

    // Shapes before -> after, with named dimensions.
    for (StepId source : step.sources) {
        if (const Step* s = trace->find(source)) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            ImGui::TextWrapped("%s %s", s->name(), s->tensor.shape_string().c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::TextWrapped("-> %s %s", step.name(), step.tensor.shape_string().c_str());
    // Wrapped, not TextColored: a narrow panel must not cut the sentence off.
    const auto colored_wrapped = [](Rgb color, const char* text) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(color));
        text_wrapped(text);
        ImGui::PopStyleColor();
    };
    if (step.is_view) {
        colored_wrapped(colors.good, tr(step.tensor.is_contiguous() ? "explain.view" : "explain.view_not_contiguous"));
        // A view in the trace that the recipe's own code copies (llama's .contiguous()).
        if (const std::string note = text::code_copy_note(step.id, trace->config); !note.empty())
            colored_wrapped(colors.warning, note.c_str());
    } else if (const std::string badge = text::copy_badge(step, trace->config); !badge.empty()) {
        colored_wrapped(colors.warning, badge.c_str());
    }
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0.0f);
    text_wrapped(words.explanation.c_str());
    ImGui::PopTextWrapPos();
    if (step.kind == StepKind::Softmax || step.kind == StepKind::Mask) {
        const int fully = trace->count_fully_masked_queries(batch_item);  // the item on screen
        if (fully > 0) {
            // With a finite fill (-1e20, finfo.min) the row's scores are all equal, so the
            // softmax gives 1/S each, as PyTorch does; only -inf needs AttnViz's zeros.
            const bool finite_fill = std::isfinite(mask_fill_value(trace->config.mask_spec().fill, trace->config.dtype));
            const std::string note = finite_fill ? text::trf("explain.fully_masked_rows_uniform",
                                                             {{"rows", fully}, {"keys", trace->config.S_total()}})
                                                 : text::trf("explain.fully_masked_rows", {{"rows", fully}});

            colored_wrapped(colors.warning, note.c_str());
        }
    }
    if (large) ImGui::PopFont();
}

}  // namespace attn::gui
