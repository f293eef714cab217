#include "app/gui/views/controls/view_model.h"

#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/state/model_choice.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/views/controls/view_controls_widgets.h"
#include "app/io/model_loader.h"
#include "app/text/languages.h"
#include "core/step_id.h"

namespace attn::gui {
namespace {

const std::vector<ModelSpec>& model_specs() { return io::list_models(); }

std::string entry_text(const ModelSpec& spec) {
    return text::trf("model.entry", {{"name", spec.name}, {"kind", kind_word(spec.kind)}});
}
// The entry's ImGui ID is the model's name, the same in every language.
std::string entry_label(const ModelSpec& spec) { return entry_text(spec) + "###model." + spec.name; }

// Picks `name` ("" for the random weights); a failure goes into the note.
bool pick(Session& session, const std::string& name) {
    if (name.empty()) {
        if (!session.model) return false;
        choose_random_weights(session, false);
        return true;
    }
    if (session.model && session.model->spec.name == name) return false;
    const Message error = choose_model(session, name);
    if (!error.empty()) session.model_note = error;
    return error.empty();
}

void wrapped_colored(ImVec4 colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    text_wrapped_at_spaces(text);
    ImGui::PopStyleColor();
}

// An item was chosen: `name` on a copy of `shown`, handed back as the session's edit.
void picked(const Session& shown, const std::string& name, Actions& out) {
    Session session = shown;
    out.config_changed |= pick(session, name);
    out.session_edit = std::move(session);
}

void layer_picked(const Session& shown, int layer, Actions& out) {
    Session session = shown;
    out.config_changed |= choose_layer(session, layer);
    out.session_edit = std::move(session);
}

// The button before a claim: its sentence in the box, the claim's layer, and (when the
// trace arrives) its head enlarged on the attention weights, where the claim is measured.
bool claim_button(Session& session, UiState& ui, const HeadClaim& claim, int index) {
    ImGui::PushID(index);
    const bool pressed = ImGui::SmallButton(text::label("model.card.show"));
    note_item_for_tests("model.card.show." + std::to_string(claim.layer) + "." + std::to_string(claim.head) + "." + claim.metric);
    ImGui::PopID();
    if (ImGui::IsItemHovered()) {  // wrapped: the sentence can be long
        const std::string tip =
            text::trf("model.card.show.tip", {{"sentence", text::render(claim.shown_by)}, {"layer", claim.layer}, {"head", claim.head}});
        reason_tooltip(tip.c_str());
    }
    ImGui::SameLine();
    if (!pressed) return false;
    choose_claim_sentence(session, claim);
    ui.resume_step = step_name(StepId::AttnWeights);
    ui.canvas.enlarged_head = claim.head;
    ui.canvas.focus_head = claim.head;
    ui.canvas.pinned = CellRef{};
    return true;
}

}  // namespace

const char* fixed_sizes_reason() {
    // Names the button by its own label, in the language in use.
    static std::string reason;
    reason = text::trf("model.fixed_sizes_reason", {{"button", text::tr("model.use_random")}});
    return reason.c_str();
}

Actions draw_model_picker(const Session& session, bool light_theme) {
    Actions out;
    ImGui::TextUnformatted(text::tr("model.picker"));
    // The closed combo shows only the name (it must fit a 1024-wide window); the list and
    // the card say what kind of model it is.
    const std::string current = session.model ? session.model->spec.name : std::string(text::tr("model.random"));
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##model", current.c_str())) {
        if (ImGui::Selectable(text::label("model.random"), !session.model)) picked(session, "", out);
        for (const ModelSpec& spec : model_specs()) {
            const bool selected = session.model && session.model->spec.name == spec.name;
            if (ImGui::Selectable(entry_label(spec).c_str(), selected)) picked(session, spec.name, out);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::render(spec.description).c_str());
        }
        ImGui::EndCombo();
    }
    const ThemeColors colours = theme_colors(light_theme);
    if (session.model) {
        const ModelSpec& spec = session.model->spec;
        if (spec.layers > 1) {
            int layer = session.model_layer;
            if (ImGui::SliderInt(text::label("model.layer"), &layer, 0, spec.layers - 1, "%d", ImGuiSliderFlags_AlwaysClamp))
                layer_picked(session, layer, out);
            if (ImGui::IsItemHovered()) {
                // "layers 0..0" reads oddly: layers 0 and 1 have their own sentence.
                const int shown = session.model_layer;
                const std::string tip = shown == 0   ? std::string(text::tr("model.layer.tip_first"))
                                        : shown == 1 ? std::string(text::tr("model.layer.tip_one"))
                                                     : text::trf("model.layer.tip", {{"layer", shown}, {"previous", shown - 1}});
                ImGui::SetTooltip("%s", tip.c_str());
            }
        }
    }
    if (!session.model_note.empty()) wrapped_colored(to_imvec4(colours.warning), text::render(session.model_note));
    ImGui::Separator();
    return out;
}

bool draw_model_card(Session& session, UiState& ui) {
    if (!session.model) return false;
    // The card's text changes only with the model, the layer and the language: build it
    // when one of them does, not every frame.
    struct CardText {
        std::string model;  // the card's name: the same name is the same card
        int layer = -1;
        std::string language;
        std::vector<CardLine> lines;
    };
    static CardText card;
    const std::string language = text::active().code();
    const std::shared_ptr<const Model> model = session.model;  // held: a claim's button edits the session mid-loop
    const ModelSpec& spec = model->spec;
    if (card.model != spec.name || card.layer != session.model_layer || card.language != language)
        card = {spec.name, session.model_layer, language, model_card(spec, session.model_layer)};
    bool pressed = false;
    if (ImGui::CollapsingHeader(text::label("model.card"), ImGuiTreeNodeFlags_DefaultOpen)) {
        for (const CardLine& line : card.lines) {
            ImGui::Bullet();
            if (line.claim >= 0 && !spec.head_claims[static_cast<size_t>(line.claim)].shown_by.empty())
                pressed |= claim_button(session, ui, spec.head_claims[static_cast<size_t>(line.claim)], line.claim);
            text_wrapped_at_spaces(line.text);  // "tested >= 0.89" stays on one line
        }
    }
    return pressed;
}

Actions draw_model_menu_items(const Session& session) {
    Actions out;
    if (ImGui::MenuItem(text::label("model.random"), nullptr, !session.model)) picked(session, "", out);
    ImGui::Separator();
    for (const ModelSpec& spec : model_specs()) {
        const bool selected = session.model && session.model->spec.name == spec.name;
        if (ImGui::MenuItem(entry_label(spec).c_str(), nullptr, selected)) picked(session, spec.name, out);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::render(spec.description).c_str());
    }
    if (session.model && session.model->spec.layers > 1) {
        ImGui::Separator();
        for (int layer = 0; layer < session.model->spec.layers; ++layer) {
            const std::string label = text::trf("model.menu.layer", {{"layer", layer}}) + "###model.menu.layer" + std::to_string(layer);
            if (ImGui::MenuItem(label.c_str(), nullptr, session.model_layer == layer)) layer_picked(session, layer, out);
        }
    }
    return out;
}

}  // namespace attn::gui
