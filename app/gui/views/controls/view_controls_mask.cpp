#include "app/gui/views/controls/view_controls_mask.h"

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

// One checkbox per preset; any subset combines (a key is hidden when any preset hides it).
bool preset_checkboxes(Session& session) {
    AttentionConfig& c = session.config;
    MaskPresets presets = c.mask_spec().presets;
    struct Choice {
        const char* key;
        bool MaskPresets::*flag;
    };
    const Choice choices[] = {{"controls.mask.preset.causal", &MaskPresets::causal},
                              {"controls.mask.preset.padding", &MaskPresets::padding},
                              {"controls.mask.preset.left_padding", &MaskPresets::left_padding},
                              {"controls.mask.preset.window", &MaskPresets::window}};
    // A window preset needs a size: the one chosen before, else 3 keys (at most S).
    const int window = c.window >= 1 ? c.window : std::clamp(3, 1, std::max(1, c.S()));
    bool changed = false, first = true;
    for (const Choice& choice : choices) {
        if (!first) flow_checkbox(tr(choice.key));
        first = false;
        bool on = presets.*choice.flag;
        MaskPresets wanted = presets;
        wanted.*choice.flag = true;
        // Unticking always runs; ticking is refused when the core would refuse the result.
        const Message refusal = on ? Message() : refusal_of(session, [&](AttentionConfig& x) {
            set_mask_presets(x, wanted);
            if (wanted.window) x.window = window;
        });
        if (guarded_checkbox(label(choice.key), &on, refusal)) {
            presets.*choice.flag = on;
            set_mask_presets(c, presets);
            if (presets.window) c.window = window;
            changed = true;
        }
    }
    return changed;
}

// Valid lengths for padding and left padding: 0..keys, one per batch item (the slider
// edits the item on screen). 0 hides every key of the item.
SectionEdit valid_length_slider(Session& session) {
    SectionEdit out;
    const AttentionConfig& c = session.config;
    const int keys = std::max(1, c.cross_attention ? c.S() : c.seq_len);
    const int item = std::clamp(session.batch_item, 0, std::max(0, c.batch - 1));
    while (static_cast<int>(session.valid_lengths.size()) < c.batch) {
        session.valid_lengths.push_back(valid_length_of(session, c.batch));
        out.session_edited = true;
    }
    int length = std::clamp(valid_length_of(session, item), 0, keys);
    // The item goes into the slider's text so the label stays short in a narrow panel.
    const std::string format = c.batch > 1 ? trf("controls.valid_length.item_format", {{"item", item}}) : std::string("%d");
    if (ImGui::SliderInt(label("controls.valid_length"), &length, 0, keys, format.c_str(), ImGuiSliderFlags_AlwaysClamp)) {
        session.valid_lengths[static_cast<size_t>(item)] = length;
        out.config_changed = true;
    }
    help_marker(tr("controls.valid_length.help"));
    if (c.batch > 1) {
        std::string all = tr("controls.valid_lengths");
        for (int b = 0; b < c.batch; ++b) all += " " + std::to_string(std::clamp(valid_length_of(session, b), 0, keys));
        quiet_note(all);
    }
    return out;
}

// -inf, -1e20, the dtype's lowest or a typed number; the number the scores get is shown.
bool fill_choice(Session& session) {
    MaskFill& fill = session.config.mask_fill;
    const char* keys[] = {"controls.fill.neg_inf", "controls.fill.neg_1e20", "controls.fill.min", "controls.fill.value"};
    const int current = static_cast<int>(fill.kind);
    bool changed = false;
    if (ImGui::BeginCombo(combo_label("controls.fill").c_str(), tr(keys[current]))) {
        for (int k = 0; k < 4; ++k) {
            if (ImGui::Selectable(label(keys[k]), k == current) && k != current) {
                fill.kind = static_cast<MaskFillKind>(k);
                if (fill.kind == MaskFillKind::Value && fill.value == 0.0f) fill.value = -1e9f;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    help_marker(tr("controls.fill.help"));
    if (fill.kind == MaskFillKind::Value) {
        float value = fill.value;
        if (ImGui::InputFloat(label("controls.fill.number"), &value, 0.0f, 0.0f, "%g")) {
            // "inf" or "nan" typed: a masked score must stay a number the softmax can use.
            if (std::isfinite(value)) {
                fill.value = value;
                changed = true;
            } else {
                session.option_note = Message("controls.fill.not_finite");
            }
        }
    }
    // What the core writes into masked cells, in the compute dtype.
    quiet_note(trf("controls.fill.writes", {{"value", format_value(mask_fill_value(fill, session.config.dtype))}}));
    return changed;
}

// How many query rows of the trace on screen have no key left, and what they became.
void fully_masked_note(const Results& results, bool light_theme) {
    if (!results.trace) return;
    const int rows = results.trace->count_fully_masked_queries(results.model ? results.model->batch_item : -1);  // the item on screen
    if (rows == 0) return;
    const MaskFill& fill = results.trace->config.mask_fill;
    if (fill.kind == MaskFillKind::NegativeInfinity)
        warning_note(Message("controls.fully_masked.zeros", {{"rows", rows}}), light_theme);
    else
        warning_note(Message("controls.fully_masked.uniform", {{"rows", rows}, {"fill", to_string(fill)}}), light_theme);
}

}  // namespace

SectionEdit draw_mask_controls(Session& session, const Results& results, const ControlsContext& ctx) {
    SectionEdit out;
    if (!section_header("controls.section.mask", "controls.section.mask.help", true)) return out;
    begin_fixed_group(ctx.model_reason);
    AttentionConfig& c = session.config;
    out.config_changed |= preset_checkboxes(session);
    const MaskPresets presets = c.mask_spec().presets;
    if (presets.window) {
        const int keys = std::max(1, c.S());
        int window = std::clamp(c.window, 1, keys);
        if (ImGui::SliderInt(label("controls.window"), &window, 1, keys, "%d", ImGuiSliderFlags_AlwaysClamp)) {
            c.window = window;
            out.config_changed = true;
        }
    }
    if (presets.reads_valid_lengths()) {
        const SectionEdit lengths = valid_length_slider(session);
        out.config_changed |= lengths.config_changed;
        out.session_edited |= lengths.session_edited;
    }
    if (!c.mask_file.empty()) {
        quiet_note(trf("controls.mask_file", {{"path", text::render(mask_file_label(c))}}));
        if (ImGui::SmallButton(label("controls.mask_file.drop"))) {
            drop_mask_file(session, false);
            out.config_changed = true;
        }
    }
    const Message note_before = session.option_note;
    out.config_changed |= fill_choice(session);
    out.session_edited |= session.option_note != note_before;
    fully_masked_note(results, ctx.light_theme);
    end_fixed_group(ctx.model_reason);
    return out;
}

}  // namespace attn::gui
