#include "app/gui/views/controls/view_controls_attention.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/display/format.h"
#include "app/gui/views/controls/field_control.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

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
    out.config_changed |= field_controls(session, {"mask_before_scale", "dropout"});
    end_fixed_group(ctx.model_reason);
    return out;
}

SectionEdit draw_rope_controls(Session& session, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.rope", "controls.section.rope.help")) return out;
    begin_fixed_group(ctx.model_reason);
    AttentionConfig& c = session.config;
    out.config_changed |= field_control(session, config_field("rope"));
    // Refused for an odd d_h, separate key/value inputs or extra key columns: said under it.
    const Message refusal = c.rope ? Message() : refusal_of(session, [](AttentionConfig& x) { x.rope = true; });
    if (!refusal.empty()) quiet_note(text::render(refusal));
    if (c.rope) {
        ImGui::Indent();
        out.config_changed |= field_controls(session, {"rope_base", "rope_style", "position_offset"});
        ImGui::Unindent();
    }
    end_fixed_group(ctx.model_reason);
    return out;
}

SectionEdit draw_precision_controls(Session& session, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.precision", "controls.section.precision.help")) return out;
    begin_fixed_group(ctx.model_reason);
    out.config_changed |= field_control(session, config_field("dtype"));
    end_fixed_group(ctx.model_reason);
    return out;
}

}  // namespace attn::gui
