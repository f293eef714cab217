#include "app/gui/views/controls/view_generate.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/display/format.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/views/controls/view_controls_widgets.h"
#include "app/text/languages.h"
#include "app/gui/state/model_choice.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;

// The sampling settings: each slider's tooltip says what it does. True when one changed.
bool sampling_sliders(SamplingSettings& s, int vocabulary) {
    bool changed = false;
    changed |= slider_float_aside(label("gen.temperature"), &s.temperature, 0.0f, 2.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    note_item_for_tests("gen.temperature");
    if (ImGui::IsItemHovered()) reason_tooltip(tr("gen.temperature.tip"));
    changed |= slider_int_aside(label("gen.top_k"), &s.top_k, 0, vocabulary, s.top_k == 0 ? tr("gen.off") : "%d", ImGuiSliderFlags_AlwaysClamp);
    note_item_for_tests("gen.top_k");
    if (ImGui::IsItemHovered()) reason_tooltip(tr("gen.top_k.tip"));
    changed |= slider_float_aside(label("gen.top_p"), &s.top_p, 0.01f, 1.0f, s.top_p >= 1.0f ? tr("gen.off") : "%.2f", ImGuiSliderFlags_AlwaysClamp);
    note_item_for_tests("gen.top_p");
    if (ImGui::IsItemHovered()) reason_tooltip(tr("gen.top_p.tip"));
    int seed = static_cast<int>(std::min<uint64_t>(s.seed, 1u << 30));
    if (ImGui::InputInt(label("gen.seed"), &seed)) {
        s.seed = static_cast<uint64_t>(std::max(0, seed));
        changed = true;
    }
    note_item_for_tests("gen.seed");
    if (ImGui::IsItemHovered()) reason_tooltip(tr("gen.seed.tip"));
    return changed;
}

}  // namespace

bool draw_generate_section(Session& session, Actions& out, bool light_theme) {
    if (!session.model || !session.model->spec.causal) return false;
    if (!section_header("gen.section", "gen.section.help", true)) return false;
    bool changed = false;
    int tokens = session.generate_tokens;
    if (ImGui::InputInt(label("gen.tokens"), &tokens)) {
        session.generate_tokens = std::clamp(tokens, 1, 1024);
        session.generate_tokens_chosen = true;
        changed = true;
    }
    note_item_for_tests("gen.tokens");
    if (ImGui::IsItemHovered()) reason_tooltip(tr("gen.tokens.tip"));
    changed |= sampling_sliders(session.sampling, session.model->spec.vocab_size);
    const Message refusal = generation_refusal(session);
    ImGui::BeginDisabled(!refusal.empty());
    const bool pressed = ImGui::Button(label("gen.generate"));
    ImGui::EndDisabled();
    note_item_for_tests("gen.generate");
    if (session.generating) {
        ImGui::SameLine();
        if (ImGui::Button(label("gen.prompt_only"))) {  // back to the sentence's own trace
            session.generating = false;
            session.decode_step = 0;
            out.config_changed = true;
            return true;
        }
        note_item_for_tests("gen.prompt_only");
    }
    warning_note(refusal, light_theme);
    const SamplingSettings& s = session.sampling;
    note_for_tests(std::string("generate ") + (session.generating ? "on" : "off") + " tokens " + std::to_string(session.generate_tokens) +
                   (refusal.empty() ? " fits" : " refused") + " temperature " + format_cell_fixed(s.temperature, 2) + " top_k " +
                   std::to_string(s.top_k) + " top_p " + format_cell_fixed(s.top_p, 2) + " seed " + std::to_string(s.seed));
    if (pressed) {
        session.generating = true;
        session.decode_step = 0;  // the prefill: its last row draws the first new token
    }
    // A new generation: Generate, or a setting changed while one is on screen.
    if (refusal.empty() && (pressed || (changed && session.generating))) out.config_changed = true;
    return changed || pressed;
}

}  // namespace attn::gui
