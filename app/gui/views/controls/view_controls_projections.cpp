#include "app/gui/views/controls/view_controls_projections.h"

#include <imgui.h>

#include <string>

#include "app/gui/views/controls/field_control.h"
#include "app/text/languages.h"
#include "core/repeat_kv.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

// "4 (one per query head)", "2 (grouped: 2 query heads each)", "1 (multi-query: ...)";
// `short_form`: "4 (MHA)", "2 (GQA)", "1 (MQA)" for the closed combo in a narrow panel.
std::string kv_heads_name(int kv_heads, int heads, bool short_form) {
    if (kv_heads == heads) return trf(short_form ? "controls.kv_heads.short.mha" : "controls.kv_heads.mha", {{"kv_heads", kv_heads}});
    if (kv_heads == 1) return trf(short_form ? "controls.kv_heads.short.mqa" : "controls.kv_heads.mqa", {{"kv_heads", kv_heads}});
    if (short_form) return trf("controls.kv_heads.short.gqa", {{"kv_heads", kv_heads}});
    return trf("controls.kv_heads.gqa", {{"kv_heads", kv_heads}, {"group", heads / kv_heads}});
}

// Only the counts the core accepts (divisors of num_heads) are listed; a count the
// variant or the memory budget refuses is greyed out with the core's reason.
bool kv_heads_combo(Session& session) {
    AttentionConfig& c = session.config;
    const int heads = c.num_heads;
    if (heads < 1) return false;
    bool changed = false;
    if (ImGui::BeginCombo(combo_label("controls.kv_heads").c_str(), kv_heads_name(c.H_kv(), heads, true).c_str())) {
        for (int n = heads; n >= 1; --n) {
            if (!check_kv_heads(heads, n).ok()) continue;
            const int stored = n == heads ? 0 : n;  // 0 = one key head per query head
            const Message refusal = refusal_of(session, [&](AttentionConfig& x) { x.num_kv_heads = stored; });
            const std::string name = kv_heads_name(n, heads, false) + "###kv_heads" + std::to_string(n);
            const ImGuiSelectableFlags flags = refusal.empty() ? 0 : ImGuiSelectableFlags_Disabled;
            if (ImGui::Selectable(name.c_str(), n == c.H_kv(), flags) && refusal.empty() && n != c.H_kv()) {
                c.num_kv_heads = stored;
                changed = true;
            }
            if (!refusal.empty()) reason_tooltip(text::render(refusal).c_str());
        }
        ImGui::EndCombo();
    }
    help_marker(tr("controls.kv_heads.help"));
    return changed;
}

// Two checkboxes over the three bias options: --no-bias (both off) stays expressible.
bool bias_checkboxes(AttentionConfig& c) {
    bool qkv = c.qkv_bias(), out_bias = c.bias && !c.no_out_bias;
    bool changed = ImGui::Checkbox(label("controls.bias.qkv"), &qkv);
    const std::string out_label = label("controls.bias.out");
    flow_checkbox(tr("controls.bias.out"));
    ImGui::BeginDisabled(c.no_out_proj);
    changed |= ImGui::Checkbox(out_label.c_str(), &out_bias);
    ImGui::EndDisabled();
    if (c.no_out_proj) reason_tooltip(tr("controls.bias.out.no_proj"));
    if (changed) {
        c.bias = qkv || out_bias;
        c.no_qkv_bias = c.bias && !qkv;
        c.no_out_bias = c.bias && !out_bias;
    }
    return changed;
}

}  // namespace

SectionEdit draw_projection_controls(Session& session, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.projections", "controls.section.projections.help")) return out;
    begin_fixed_group(ctx.model_reason);
    AttentionConfig& c = session.config;
    // What a weights file's shapes decide: greyed out while one is loaded.
    begin_fixed_group(ctx.model_reason ? nullptr : ctx.weights_reason);
    out.config_changed |= kv_heads_combo(session);
    out.config_changed |= field_control(session, config_field("input_dim"));
    out.config_changed |= bias_checkboxes(c);
    end_fixed_group(ctx.model_reason ? nullptr : ctx.weights_reason);
    out.config_changed |= field_control(session, config_field("no_out_proj"));
    end_fixed_group(ctx.model_reason);
    return out;
}

SectionEdit draw_mha_extras_controls(Session& session, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.mha", "controls.section.mha.help")) return out;
    begin_fixed_group(ctx.model_reason);
    // bias_k and bias_v are parameters: a weights file has them or not.
    begin_fixed_group(ctx.model_reason ? nullptr : ctx.weights_reason);
    out.config_changed |= field_control(session, config_field("add_bias_kv"));
    end_fixed_group(ctx.model_reason ? nullptr : ctx.weights_reason);
    out.config_changed |= field_controls(session, {"add_zero_attn", "average_weights"});
    end_fixed_group(ctx.model_reason);
    return out;
}

}  // namespace attn::gui
