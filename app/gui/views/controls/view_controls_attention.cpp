#include "app/gui/views/controls/view_controls_attention.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/display/format.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

// One radio button per value of an enumeration, each greyed out (with the core's reason)
// when the configuration would not run with it. Returns true when `value` changed.
template <typename Enum, size_t N>
bool guarded_radios(Session& session, Enum AttentionConfig::*field, const char* const (&keys)[N]) {
    AttentionConfig& c = session.config;
    bool changed = false;
    for (size_t i = 0; i < N; ++i) {
        const Enum option = static_cast<Enum>(i);
        if (i > 0) flow_checkbox(tr(keys[i]));
        const Message refusal = c.*field == option ? Message() : refusal_of(session, [&](AttentionConfig& x) { x.*field = option; });
        ImGui::BeginDisabled(!refusal.empty());
        if (ImGui::RadioButton(label(keys[i]), c.*field == option) && c.*field != option) {
            c.*field = option;
            changed = true;
        }
        ImGui::EndDisabled();
        if (!refusal.empty()) reason_tooltip(text::render(refusal).c_str());
    }
    return changed;
}

}  // namespace

SectionEdit draw_scores_controls(Session& session, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.scores", "controls.section.scores.help")) return out;
    begin_fixed_group(ctx.model_reason);
    AttentionConfig& c = session.config;
    const char* keys[] = {"controls.scale.head", "controls.scale.hidden", "controls.scale.none", "controls.scale.value"};
    const int current = static_cast<int>(c.scale.kind);
    if (ImGui::BeginCombo(combo_label("controls.scale").c_str(), tr(keys[current]))) {
        for (int k = 0; k < 4; ++k) {
            if (ImGui::Selectable(label(keys[k]), k == current) && k != current) {
                c.scale.kind = static_cast<ScaleKind>(k);
                // A typed scale starts from the one in use, so the picture does not jump.
                if (c.scale.kind == ScaleKind::Value) c.scale.value = session.config.scale_factor();
                out.config_changed = true;
            }
        }
        ImGui::EndCombo();
    }
    help_marker(tr("controls.scale.help"));
    if (c.scale.kind == ScaleKind::Value) {
        float value = c.scale.value;
        if (ImGui::InputFloat(label("controls.scale.number"), &value, 0.0f, 0.0f, "%g")) {
            if (std::isfinite(value)) {
                c.scale.value = value;
                out.config_changed = true;
            } else {
                session.option_note = Message("error.config.scale_not_finite");
                out.session_edited = true;
            }
        }
    }
    // The factor the core multiplies by, for the sizes in use.
    if (c.num_heads > 0 && c.hidden_dim % c.num_heads == 0)
        quiet_note(trf("controls.scale.factor", {{"factor", format_value(c.scale_factor())}}));
    out.config_changed |= ImGui::Checkbox(label("controls.mask_before_scale"), &c.mask_before_scale);
    help_marker(tr("controls.mask_before_scale.help"));
    out.config_changed |= ImGui::SliderFloat(label("controls.dropout"), &c.dropout, 0.0f, 0.9f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    end_fixed_group(ctx.model_reason);
    return out;
}

SectionEdit draw_rope_controls(Session& session, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.rope", "controls.section.rope.help")) return out;
    begin_fixed_group(ctx.model_reason);
    AttentionConfig& c = session.config;
    // Refused for an odd d_h, separate key/value inputs or extra key columns: the core says which.
    const Message refusal = refusal_of(session, [](AttentionConfig& x) { x.rope = true; });
    out.config_changed |= guarded_checkbox(label("controls.rope"), &c.rope, refusal);
    if (!c.rope && !refusal.empty()) quiet_note(text::render(refusal));
    if (c.rope) {
        ImGui::Indent();
        // Any positive base is valid; the slider spans the bases in use (10000 in Llama,
        // 500000 in Llama 3) and cannot reach 0.
        double base = c.rope_base;
        const double lo = 1.0, hi = 1e7;
        if (ImGui::SliderScalar(label("controls.rope.base"), ImGuiDataType_Double, &base, &lo, &hi, "%.0f",
                                ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic)) {
            c.rope_base = std::clamp(base, lo, hi);
            out.config_changed = true;
        }
        const char* styles[] = {"controls.rope.half", "controls.rope.interleaved"};
        out.config_changed |= guarded_radios(session, &AttentionConfig::rope_style, styles);
        help_marker(tr("controls.rope.style.help"));
        int offset = c.position_offset;
        if (ImGui::InputInt(label("controls.rope.offset"), &offset)) {
            const int clamped = std::clamp(offset, 0, 1 << 20);  // positions count from 0
            out.config_changed |= clamped != c.position_offset;
            c.position_offset = clamped;
        }
        help_marker(tr("controls.rope.offset.help"));
        ImGui::Unindent();
    }
    end_fixed_group(ctx.model_reason);
    return out;
}

SectionEdit draw_precision_controls(Session& session, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.precision", "controls.section.precision.help")) return out;
    begin_fixed_group(ctx.model_reason);
    const char* dtypes[] = {"controls.dtype.float32", "controls.dtype.bfloat16", "controls.dtype.float16"};
    out.config_changed |= guarded_radios(session, &AttentionConfig::dtype, dtypes);
    end_fixed_group(ctx.model_reason);
    return out;
}

}  // namespace attn::gui
