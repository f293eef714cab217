#include "app/gui/views/controls/view_controls.h"
#include "app/gui/kit/test_hook.h"

#include "app/gui/state/model_choice.h"
#include "app/gui/views/controls/view_model.h"
#include "app/gui/views/controls/view_recipe.h"

#include <imgui.h>

#include "app/gui/kit/cjk_wrap.h"
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>

#include "app/gui/display/colormap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/views/controls/field_control.h"
#include "app/gui/views/controls/view_controls_attention.h"
#include "app/gui/views/controls/view_controls_mask.h"
#include "app/gui/views/controls/view_controls_projections.h"
#include "app/gui/views/controls/view_generate.h"
#include "app/gui/views/controls/view_controls_widgets.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

// Why hidden_dim and num_heads do not fit, and one-click fixes.
bool divisibility_fixes(Session& session, bool light_theme) {
    AttentionConfig& c = session.config;
    if (c.num_heads <= 0 || c.hidden_dim % c.num_heads == 0) return false;
    bool changed = false;
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(light_theme).warning));
    text_wrapped(trf("controls.not_divisible", {{"hidden_dim", c.hidden_dim}, {"heads", c.num_heads}}).c_str());
    ImGui::PopStyleColor();
    bool first = true;
    for (int h : nearest_valid_heads(c.hidden_dim, c.num_heads)) {
        const std::string fix = trf("controls.fix_heads", {{"heads", h}}) + "###fix_heads" + std::to_string(h);
        if (!first) flow(fix);
        first = false;
        if (ImGui::SmallButton(fix.c_str())) {
            c.num_heads = h;
            changed = true;
        }
    }
    for (int e : nearest_valid_hidden(c.hidden_dim, c.num_heads)) {
        if (e < 1 || e > 1024) continue;
        const std::string fix = trf("controls.fix_hidden", {{"hidden_dim", e}}) + "###fix_hidden" + std::to_string(e);
        if (!first) flow(fix);
        first = false;
        if (ImGui::SmallButton(fix.c_str())) {
            c.hidden_dim = e;
            changed = true;
        }
    }
    return changed;
}

// Query length, key/value length and input widths: separate sliders only when the keys
// and values come from their own input. Turning it on never leaves an invalid pair
// (fused + cross): the variant moves to split, and the status line says why.
bool cross_attention_controls(Session& session, bool light_theme) {
    AttentionConfig& c = session.config;
    bool changed = false;
    // The label wraps in a narrow panel, and clicking it toggles like a checkbox label.
    bool toggled = ImGui::Checkbox("##cross", &c.cross_attention);
    ImGui::SameLine();
    // Wrapped short of the right edge, so the help marker after it stays in the panel.
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - ImGui::GetFontSize() * 1.6f);
    ImGui::TextUnformatted(tr("controls.cross"));
    ImGui::PopTextWrapPos();
    if (ImGui::IsItemClicked()) {
        c.cross_attention = !c.cross_attention;
        toggled = true;
    }
    if (toggled) {
        changed = true;
        if (c.cross_attention) {
            if (c.kv_len <= 0) c.kv_len = c.seq_len;
            if (c.variant == Variant::Fused) {
                c.variant = Variant::Split;
                session.cross_note = Message("controls.cross.switched_to_split");
            }
        } else {
            session.cross_note.clear();
        }
    }
    help_marker(tr("controls.cross.help"));
    if (!c.cross_attention) return changed;
    ImGui::Indent();
    changed |= field_controls(session, {"kv_len", "kdim", "vdim"});
    ImGui::Unindent();
    if (!session.cross_note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(light_theme).warning));
        text_wrapped(text::render(session.cross_note).c_str());
        ImGui::PopStyleColor();
    }
    return changed;
}

// The three ways to write the layer; a way the core refuses for this configuration is
// greyed out, with its reason.
bool variant_combo(Session& session) {
    AttentionConfig& c = session.config;
    const char* names[] = {label("controls.variant.split"), label("controls.variant.stacked"), label("controls.variant.fused")};
    const int current = std::clamp(static_cast<int>(c.variant), 0, 2);
    bool changed = false;
    const char* preview_keys[] = {"controls.variant.split", "controls.variant.stacked", "controls.variant.fused"};
    const char* short_keys[] = {"controls.variant.split.short", "controls.variant.stacked.short", "controls.variant.fused.short"};
    const std::string combo = combo_label("controls.variant", tr(preview_keys[current]));
    // The whole name when the combo holds it, else its short name (the whole one on hover).
    const char* preview = combo_preview(tr(preview_keys[current]), tr(short_keys[current]));
    if (ImGui::BeginCombo(combo.c_str(), preview)) {
        for (int v = 0; v < 3; ++v) {
            // Refused by the core for this configuration (fused with cross-attention,
            // stacked or fused with shared key heads or extra key columns): greyed out, with why.
            const Message refusal = v == current ? Message()
                                                 : refusal_of(session, [v](AttentionConfig& x) { x.variant = static_cast<Variant>(v); });
            const bool blocked = !refusal.empty();
            const ImGuiSelectableFlags flags = blocked ? ImGuiSelectableFlags_Disabled : 0;
            if (ImGui::Selectable(names[v], v == current, flags) && !blocked) {
                c.variant = static_cast<Variant>(v);
                changed = true;
            }
            if (blocked) reason_tooltip(text::render(refusal).c_str());
        }
        ImGui::EndCombo();
    } else if (preview != tr(preview_keys[current]) && ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", tr(preview_keys[current]));
    }
    if (c.cross_attention) help_marker(tr("controls.fused_needs_self"));
    if (changed) session.cross_note.clear();
    return changed;
}

// the articles' options, one collapsing section per concept. With a trained model they show
// the model's choices, greyed out.
bool draw_issue_options(Session& session, const Results& results, const ControlsContext& ctx, bool& session_edited) {
    bool changed = false;
    for (SectionEdit edit : {draw_mask_controls(session, results, ctx), draw_scores_controls(session, ctx),
                             draw_rope_controls(session, ctx), draw_projection_controls(session, ctx),
                             draw_mha_extras_controls(session, ctx), draw_precision_controls(session, ctx)}) {
        changed |= edit.config_changed;
        session_edited |= edit.session_edited;
    }
    return changed;
}

// The sentence box, with what is wrong with its words.
void draw_sentence_box(Session& session, const UiSettings& settings, Actions& out, bool& session_edited) {
    const bool model = session.model != nullptr;
    ImGui::TextUnformatted(tr("controls.tokens"));
    ImGui::SetNextItemWidth(-1.0f);
    const char* hint = model ? tr("controls.sentence.model_hint") : tr("controls.sentence.hint");
    if (input_text_live("##sentence", hint, &session.sentence)) {
        session_edited = true;  // the box's text changes even when it is not taken
        out.config_changed |= model ? follow_model_sentence(session) : follow_sentence(session);
    }
    if (!session.sentence_message.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(settings.light_theme).warning));
        text_wrapped(text::render(session.sentence_message).c_str());
        ImGui::PopStyleColor();
    }
    if (model && !session.unknown_note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(settings.light_theme).warning));
        text_wrapped(trf("model.unknown_words", {{"words", text::render(session.unknown_note)}}).c_str());
        ImGui::PopStyleColor();
    }
}

// A trained model fixes everything below the tokens: its card, its sizes (disabled, with
// why), the button back to random weights, and its options greyed out.
void draw_model_sizes(Session& session, const Results& results, UiState& ui, const ControlsContext& ctx, Actions& out,
                      bool& session_edited) {
    if (draw_model_card(session, ui)) {  // a claim's button: its sentence and layer
        session_edited = true;
        out.config_changed = true;
    }
    ImGui::Separator();
    ImGui::TextUnformatted(tr("model.sizes_fixed"));
    const ModelSpec& spec = session.model->spec;
    ImGui::BeginGroup();
    ImGui::BeginDisabled();
    const AttentionConfig& drawn = shown_config(session, results);
    int shown_l = drawn.seq_len, shown_e = spec.hidden_dim, shown_h = spec.heads;
    ImGui::SliderInt(label("controls.seq_len"), &shown_l, 1, spec.max_len);
    ImGui::SliderInt(label("controls.hidden_dim"), &shown_e, 1, 1024);
    ImGui::SliderInt(label("controls.num_heads"), &shown_h, 1, 32);
    ImGui::EndDisabled();
    ImGui::EndGroup();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", fixed_sizes_reason());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    text_wrapped(trf("model.head_dim", {{"head_dim", spec.head_dim()}}).c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button(label("model.use_random"), ImVec2(-1.0f, 0.0f))) {
        choose_random_weights(session, true);
        out.config_changed = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", fixed_sizes_reason());
    Session shown = session;  // greyed out: nothing drawn from it can be edited
    shown.config = drawn;
    bool ignored = false;
    draw_issue_options(shown, results, ctx, ignored);
    ImGui::Separator();
}

// Rows from the sentence's words, the sizes, the batch and the item shown.
void draw_size_controls(Session& session, const UiSettings& settings, Actions& out, bool& session_edited) {
    AttentionConfig& c = session.config;
    // The label wraps beside the box instead of being cut off in a narrow panel.
    if (ImGui::Checkbox("##rows_are_words", &session.tokens_from_sentence)) {
        // Ticking it with an empty box has no words to use: take the box's text first.
        if (session.tokens_from_sentence && !follow_sentence(session)) session.tokens_from_sentence = false;
        out.config_changed = true;
    }
    ImGui::SameLine();
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - ImGui::GetFontSize() * 1.6f);
    ImGui::TextUnformatted(tr("controls.rows_are_words"));
    ImGui::PopTextWrapPos();
    help_marker(tr("controls.rows_are_words.help"));
    ImGui::Separator();

    ImGui::TextUnformatted(tr("controls.sizes"));
    out.config_changed |= field_controls(session, {"seq_len", "hidden_dim", "num_heads"});
    if (c.num_heads > 0 && c.hidden_dim % c.num_heads == 0) {
        ImGui::TextDisabled("%s", trf("controls.head_dim", {{"head_dim", c.hidden_dim / c.num_heads}}).c_str());
    }
    out.config_changed |= divisibility_fixes(session, settings.light_theme);
    out.config_changed |= cross_attention_controls(session, settings.light_theme);
    out.config_changed |= field_control(session, config_field("batch"));
    if (c.batch > 1) {
        int item = std::min(session.batch_item, c.batch - 1);
        if (ImGui::SliderInt(label("controls.show_item"), &item, 0, c.batch - 1, "%d", ImGuiSliderFlags_AlwaysClamp)) out.config_changed = true;
        session_edited |= session.batch_item != item;
        session.batch_item = item;
    } else {
        session_edited |= session.batch_item != 0;
        session.batch_item = 0;
    }
    ImGui::Separator();
}

// The variant, the seed and the articles' options, with the notes on what moved.
void draw_attention_controls(Session& session, const Results& results, const ControlsContext& ctx, const UiSettings& settings,
                             Actions& out, bool& session_edited) {
    AttentionConfig& c = session.config;
    ImGui::TextUnformatted(tr("controls.attention"));
    out.config_changed |= variant_combo(session);
    int seed = static_cast<int>(c.seed);
    if (ImGui::InputInt(label("controls.seed"), &seed)) {
        c.seed = static_cast<uint64_t>(std::max(0, seed));
        c.dropout_seed = c.seed;
        out.config_changed = true;
    }
    out.config_changed |= draw_issue_options(session, results, ctx, session_edited);
    warning_note(session.option_note, settings.light_theme);
    if (!(c.num_heads > 0 && c.hidden_dim % c.num_heads != 0)) warning_note(session.config_message, settings.light_theme);
}

// With random weights every size and option is the learner's.
void draw_random_weight_controls(Session& session, const Results& results, const ControlsContext& ctx, const UiSettings& settings,
                                 Actions& out, bool& session_edited) {
    draw_size_controls(session, settings, out, session_edited);
    draw_attention_controls(session, results, ctx, settings, out, session_edited);
}

// The files the inputs came from, the (L, B, E) switch, and the button that forgets them.
void draw_files_section(Session& session, bool model, Actions& out, bool& session_edited) {
    AttentionConfig& c = session.config;
    const io::ProblemSources& files = session.sources;
    const bool sequence_files = !files.query_path.empty() || !files.key_path.empty() || !files.value_path.empty();
    if (!files.weights_path.empty() || sequence_files || !files.mask_path.empty() || files.query_values.size() > 0) {
        ImGui::Separator();
        ImGui::TextUnformatted(tr("controls.files"));
        if (!files.weights_path.empty()) text_wrapped(trf("controls.files.weights", {{"path", files.weights_path}}).c_str());
        if (!files.query_path.empty()) text_wrapped(trf("controls.files.query", {{"path", files.query_path}}).c_str());
        if (!files.key_path.empty()) text_wrapped(trf("controls.files.key", {{"path", files.key_path}}).c_str());
        if (!files.value_path.empty()) text_wrapped(trf("controls.files.value", {{"path", files.value_path}}).c_str());
        if (!files.mask_path.empty()) text_wrapped(trf("controls.files.mask", {{"path", files.mask_path}}).c_str());
        // nn.MultiheadAttention's default batch_first=False stores sequences as (L, B, E).
        if (sequence_files && !model && ImGui::Checkbox(label("controls.files.seq_first"), &c.seq_first)) {
            session_edited = true;
            out.config_changed = true;
        }
        if (sequence_files && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("controls.files.seq_first.tip"));
        if (session.sources.query_values.size() > 0)
            text_wrapped(trf("controls.files.typed", {{"rows", static_cast<long long>(session.sources.query_values.rows() / std::max(1, session.sources.query_value_items))},
                                                                 {"cols", static_cast<long long>(session.sources.query_values.cols())}}).c_str());
        if (ImGui::SmallButton(label("controls.files.forget"))) {
            drop_mask_file(session, true);  // the mask file read when it was opened goes too
            session.sources = io::ProblemSources{};
            out.config_changed = true;
        }
    }
    ImGui::Separator();
}

// Numbers, storage, theme, text size and playback speed.
void draw_display_section(UiSettings& settings, UiState& ui, Actions& out, bool& settings_edited) {
    ImGui::TextUnformatted(tr("controls.display"));
    settings_edited |= ImGui::Checkbox(label("controls.numbers"), &settings.show_values);
    ImGui::Checkbox(label("controls.storage"), &ui.show_storage);
    int theme = settings.light_theme ? 1 : 0;
    if (ImGui::RadioButton(label("controls.dark"), &theme, 0)) out.theme_changed = true;
    ImGui::SameLine();
    if (ImGui::RadioButton(label("controls.light"), &theme, 1)) out.theme_changed = true;
    settings_edited |= settings.light_theme != (theme == 1);
    settings.light_theme = theme == 1;
    // Applied when the slider is released: fonts are rebuilt, which is too slow per drag step.
    float& pending = ui.pending_ui_scale;
    if (pending == 0.0f) pending = settings.ui_scale;
    slider_float_aside(label("controls.ui_scale"), &pending, 0.75f, 2.5f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemDeactivatedAfterEdit() && pending != settings.ui_scale) {
        settings.ui_scale = pending;
        settings_edited = true;
        out.scale_changed = true;
    }
    float speed = ui.playback.speed();
    if (slider_float_aside(label("controls.speed"), &speed, 0.1f, 8.0f, "%.2fx", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
        ui.playback.set_speed(speed);
        settings.speed = speed;
        settings_edited = true;
    }
    ImGui::Separator();
}

// The trace's size and how long it took, or that it is being computed.
void draw_trace_status(const Results& results, bool computing, bool light_theme) {
    if (results.trace) {
        quiet_note(trf("controls.trace_size", {{"steps", results.trace->steps.size()},
                                                              {"bytes", format_bytes(results.trace->storage_bytes())}}));
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        if (results.posted_generation > 1) {
            text_wrapped(trf("controls.computed_in_latency", {{"compute_ms", text::fixed(results.compute_ms, 1)},
                                                                          {"latency_ms", text::fixed(results.last_latency_ms, 1)}}).c_str());
        } else {
            text_wrapped(trf("controls.computed_in", {{"compute_ms", text::fixed(results.compute_ms, 1)}}).c_str());
        }
        ImGui::PopStyleColor();
    }
    if (computing) {
        ImGui::TextColored(to_imvec4(theme_colors(light_theme).busy), "%s", tr("controls.computing"));

    }
}

}  // namespace

const AttentionConfig& shown_config(const Session& session, const Results& results) {
    if (session.model && results.trace && results.trace->model.present()) return results.trace->config;
    return session.config;
}

Actions draw_controls(const Session& shown_session, const Results& results, UiState& ui, const UiSettings& shown_settings,
                      bool computing) {
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 7.0f);
    Actions out = draw_model_picker(shown_session, shown_settings.light_theme);
    // The controls edit copies (the picker's edit, if any, goes on from there); a copy is
    // handed back when a control changed it. A text box or a typed slider value keeps its
    // own buffer inside ImGui while it is active, so typing survives the copy each frame.
    Session session = out.session_edit ? *out.session_edit : shown_session;
    UiSettings settings = shown_settings;
    bool session_edited = out.session_edit.has_value(), settings_edited = false;

    const bool model = session.model != nullptr;
    draw_recipe_card(session);  // nothing unless the controls started from a recipe
    // The reasons name the button that frees the greyed-out controls, in the language in use.
    const std::string model_reason = trf("controls.fixed_by_model", {{"button", tr("model.use_random")}});
    const std::string weights_reason = trf("controls.fixed_by_weights", {{"button", tr("controls.files.forget")}});
    ControlsContext ctx;
    ctx.light_theme = settings.light_theme;
    ctx.model_reason = model ? model_reason.c_str() : nullptr;
    ctx.weights_reason = session.sources.weights_path.empty() ? nullptr : weights_reason.c_str();
    draw_sentence_box(session, settings, out, session_edited);
    if (model) session_edited |= draw_generate_section(session, out, settings.light_theme);
    if (model) draw_model_sizes(session, results, ui, ctx, out, session_edited);
    else draw_random_weight_controls(session, results, ctx, settings, out, session_edited);
    draw_files_section(session, model, out, session_edited);
    draw_display_section(settings, ui, out, settings_edited);
    draw_trace_status(results, computing, settings.light_theme);
    ImGui::PopItemWidth();
    // A size, input or variant change may have made an option invalid (num_kv_heads no
    // longer dividing num_heads, RoPE with an odd d_h): it moves, and the note says so.
    if (out.config_changed && !model) {
        session.option_note.clear();
        snap_options_to_valid(session);
    }
    // The session edits not marked above are the ones that set config_changed.
    if (session_edited || out.config_changed) out.session_edit = std::move(session);
    if (settings_edited) out.settings_edit = std::move(settings);
    return out;
}

Actions draw_controls_panel(const Session& session, const Results& results, UiState& ui, const UiSettings& settings,
                            bool computing) {
    // The controls scroll; the presentation button stays in sight below them.
    // NavFlattened: Tab walks from the controls to the button below as one panel.
    ImGui::BeginChild("##controls_body", ImVec2(0.0f, -ImGui::GetFrameHeightWithSpacing()), false,
                      ImGuiWindowFlags_NavFlattened);
    Actions out = draw_controls(session, results, ui, settings, computing);
    ImGui::EndChild();
    if (ImGui::Button(label("controls.presentation"), ImVec2(-1.0f, 0.0f))) out.toggle_presentation = true;
    return out;
}

}  // namespace attn::gui
