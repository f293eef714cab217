// Views read the state and return their edits: the controls drawn headless on a const
// state, driven through ImGui's input queue (clicks, typed characters, Ctrl+click on a
// slider). What the user changed must arrive in the returned Actions while the state
// passed in stays as it was; applied frame after frame (as draw_frame does), typing
// carries on in the same text field.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <type_traits>

#include "app/gui/views/frame.h"
#include "app/gui/views/controls/view_controls.h"
#include "app/gui/views/view_registry.h"
#include "tests/gui/controls_driver.h"
#include "tests/gui/headless_imgui.h"
#include "tests/lang/pseudo_language.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using attn::test_configs::sized;

// The compiler holds the rule: a registered view gets the state read-only.
static_assert(std::is_same<ViewDraw, Actions (*)(const AppState&, UiState&, const FrameContext&, const Rect&)>::value,
              "views take the AppState as const; edits come back in Actions");

namespace {

constexpr float kPanelW = 420.0f, kPanelH = 780.0f;
constexpr int kEnterKey = 257;  // any free slots of io.KeysDown
constexpr int kEndKey = 300;

// One frame of the controls alone, in a window of their own, on `state` read-only.
Actions controls_frame(const AppState& state, UiState& ui) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(kPanelW, kPanelH));
    ImGui::Begin("controls under test", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove);
    Actions out = draw_controls(state.session, state.results, ui, state.settings, false);
    ImGui::End();
    ImGui::Render();
    return out;
}

// Press and release of the left button at (x, y), two frames; returns the first frame's actions.
Actions click_at(const AppState& state, UiState& ui, float x, float y) {
    ImGui::GetIO().MousePos = ImVec2(x, y);
    controls_frame(state, ui);
    ImGui::GetIO().MouseDown[0] = true;
    Actions pressed = controls_frame(state, ui);
    ImGui::GetIO().MouseDown[0] = false;
    pressed |= controls_frame(state, ui);
    return pressed;
}

void press_key(const AppState& state, UiState& ui, int key) {
    ImGui::GetIO().KeysDown[key] = true;
    controls_frame(state, ui);
    ImGui::GetIO().KeysDown[key] = false;
    controls_frame(state, ui);
}

AppState small_state() {
    AttentionConfig c = sized(6, 8, 2);
    AppState state = state_for(c);
    state.session.sentence = "the cat sat on the mat";
    state.session.sentence_in_use = state.session.sentence;
    return state;
}

// Clicks down from the top of the panel until a text field takes the keyboard (the
// sentence box is the first), then puts the cursor after the last word. False when no
// field took it.
bool click_into_sentence_box(AppState& state) {
    controls_frame(state, state.ui);
    bool editing = false;
    for (float y = 2.0f; y < ImGui::GetFontSize() * 8.0f && !editing; y += 3.0f) {
        click_at(state, state.ui, kPanelW * 0.5f, y);
        editing = ImGui::GetIO().WantTextInput;
    }
    if (editing) press_key(state, state.ui, kEndKey);  // a click may have selected one word
    return editing;
}

}  // namespace

TEST_CASE("typing into the sentence box comes back as a session edit and leaves the drawn state alone") {
    HeadlessImGui imgui(1280, 800);
    ImGui::GetIO().KeyMap[ImGuiKey_End] = kEndKey;
    AppState state = small_state();
    REQUIRE(state.results.trace);
    const AppState before = state;
    REQUIRE(click_into_sentence_box(state));

    ImGui::GetIO().AddInputCharactersUTF8(" dog");
    const Actions typed = controls_frame(state, state.ui);
    REQUIRE(typed.session_edit.has_value());
    CHECK(typed.session_edit->sentence == "the cat sat on the mat dog");
    CHECK(typed.session_edit->config.seq_len == 7);  // the sentence's words set L
    CHECK(typed.config_changed);
    CHECK_FALSE(typed.settings_edit.has_value());
    // Nothing was written into the state the view drew.
    CHECK(state.session.sentence == before.session.sentence);
    CHECK(state.session.config.seq_len == before.session.config.seq_len);
    CHECK(state.session.sentence_in_use == before.session.sentence_in_use);

    // Applied as draw_frame applies it, the next characters go on in the same box.
    Actions edit = typed;
    apply_edits(state, edit);
    ImGui::GetIO().AddInputCharactersUTF8("s");
    Actions more = controls_frame(state, state.ui);
    REQUIRE(more.session_edit.has_value());
    CHECK(more.session_edit->sentence == "the cat sat on the mat dogs");
    apply_edits(state, more);
    CHECK(state.session.sentence == "the cat sat on the mat dogs");
    CHECK(ImGui::GetIO().WantTextInput);
    // A frame without input hands nothing back.
    CHECK_FALSE(controls_frame(state, state.ui).session_edit.has_value());
}

TEST_CASE("Escape in the sentence box leaves the field and keeps the sentence already applied") {
    constexpr int kEscapeKey = 301;
    HeadlessImGui imgui(1280, 800);
    ImGui::GetIO().KeyMap[ImGuiKey_End] = kEndKey;
    ImGui::GetIO().KeyMap[ImGuiKey_Escape] = kEscapeKey;
    AppState state = small_state();
    REQUIRE(state.results.trace);
    REQUIRE(click_into_sentence_box(state));
    ImGui::GetIO().AddInputCharactersUTF8(" and the cat ran");
    Actions typed = controls_frame(state, state.ui);
    apply_edits(state, typed);
    REQUIRE(state.session.sentence == "the cat sat on the mat and the cat ran");

    // Escape: ImGui alone would hand back the text from before the click as an edit.
    ImGui::GetIO().KeysDown[kEscapeKey] = true;
    Actions escaped = controls_frame(state, state.ui);
    ImGui::GetIO().KeysDown[kEscapeKey] = false;
    CHECK_FALSE(escaped.config_changed);
    apply_edits(state, escaped);
    Actions after = controls_frame(state, state.ui);
    apply_edits(state, after);
    controls_frame(state, state.ui);  // ImGui's WantTextInput lags one frame behind the field
    CHECK(state.session.sentence == "the cat sat on the mat and the cat ran");
    CHECK(state.session.config.seq_len == 10);
    CHECK_FALSE(ImGui::GetIO().WantTextInput);  // the field was left
}

TEST_CASE("a value typed into a slider after Ctrl+click comes back as a session edit, digit by digit") {
    HeadlessImGui imgui(1280, 800);
    ImGui::GetIO().KeyMap[ImGuiKey_Enter] = kEnterKey;
    AppState state = small_state();
    REQUIRE(state.results.trace);
    state.ui.playback.set_position(0, 0.0f);
    controls_frame(state, state.ui);
    // Ctrl+click down the panel until a slider turns into a text field: the first slider
    // of the random weights' controls is L. The state is never written while searching,
    // so whatever else the clicks hit is forgotten.
    ImGui::GetIO().KeyCtrl = true;
    bool typing_a_value = false;
    for (float y = 2.0f; y < kPanelH * 0.6f && !typing_a_value; y += 3.0f) {
        click_at(state, state.ui, kPanelW * 0.3f, y);
        const ImGuiContext& g = *GImGui;
        typing_a_value = g.ActiveId != 0 && g.TempInputId == g.ActiveId;
    }
    ImGui::GetIO().KeyCtrl = false;
    REQUIRE(typing_a_value);
    const int seq_len_before = state.session.config.seq_len;
    REQUIRE(seq_len_before == 6);

    ImGui::GetIO().AddInputCharactersUTF8("9");  // replaces the selected text
    Actions first = controls_frame(state, state.ui);
    REQUIRE(first.session_edit.has_value());
    CHECK(first.session_edit->config.seq_len == 9);
    CHECK(first.config_changed);
    CHECK(state.session.config.seq_len == seq_len_before);

    apply_edits(state, first);
    ImGui::GetIO().AddInputCharactersUTF8("1");
    Actions second = controls_frame(state, state.ui);
    REQUIRE(second.session_edit.has_value());
    CHECK(second.session_edit->config.seq_len == 91);
    apply_edits(state, second);
    press_key(state, state.ui, kEnterKey);
    CHECK(state.session.config.seq_len == 91);
    CHECK(GImGui->ActiveId == 0);  // Enter closed the typed value
}

TEST_CASE("a display option comes back as a settings edit, not written into the settings drawn") {
    HeadlessImGui imgui(1280, 800);
    AppState state = small_state();
    REQUIRE(state.results.trace);
    REQUIRE(state.settings.show_values);
    controls_frame(state, state.ui);
    // Click down the lower half until an edit of the settings comes back: the first
    // settings control there is "numbers in cells".
    std::optional<UiSettings> edited;
    for (float y = kPanelH * 0.3f; y < kPanelH && !edited; y += 3.0f) {
        edited = click_at(state, state.ui, ImGui::GetFontSize() * 0.8f, y).settings_edit;
    }
    REQUIRE(edited.has_value());
    CHECK_FALSE(edited->show_values);
    CHECK(edited->light_theme == state.settings.light_theme);
    CHECK(edited->ui_scale == state.settings.ui_scale);
    CHECK(state.settings.show_values);
}

TEST_CASE("applying the edits writes them in once, and a language picked becomes the one in use") {
    attn::test::register_pseudo_language();
    AppState state = small_state();
    Actions out;
    out.config_changed = true;
    Session edited = state.session;
    edited.sentence = "a new sentence";
    out.session_edit = edited;
    io::ProblemSources files;
    files.weights_path = "/tmp/w.safetensors";
    out.sources_edit = files;  // applied after the session: both arrive
    UiSettings settings = state.settings;
    settings.language = "pseudo";
    out.settings_edit = settings;
    out.language_changed = true;
    out.hint_dismissed = true;
    {
        struct BackToEnglish {
            ~BackToEnglish() { text::set_language("en"); }
        } restore;
        apply_edits(state, out);
        CHECK(text::active().code() == "pseudo");
    }
    CHECK(state.session.sentence == "a new sentence");
    CHECK(state.session.sources.weights_path == "/tmp/w.safetensors");
    CHECK(state.settings.language == "pseudo");
    CHECK(state.settings.hint_seen);
    // The edits are used up; what the window loop acts on stays.
    CHECK_FALSE(out.session_edit.has_value());
    CHECK_FALSE(out.settings_edit.has_value());
    CHECK(out.config_changed);
    CHECK(out.language_changed);
}

TEST_CASE("mask presets from the command line are ticked in the mask section and keep their valid lengths") {
    HeadlessImGui imgui(1280, 800);
    AppState state = small_state();
    state.session.config.mask_presets.causal = true;
    state.session.config.mask_presets.left_padding = true;
    state.session.valid_lengths = {3};
    // The request keeps the valid lengths left padding reads (they were dropped before, so
    // any change in the window made the configuration invalid).
    const std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE_MESSAGE(request.has_value(), english(state.session.config_message));
    CHECK(request->config.valid_lengths == std::vector<int>{3});
    // The valid-length slider is shown, and both presets are ticked: a click on causal
    // unticks it and leaves left padding with its length.
    ControlsDriver driver;
    driver.height = 800.0f;
    driver.frame(state);
    CHECK(shows(drawn_text(ControlsDriver::kWindow), text::tr("controls.valid_length")));
    CHECK(driver.tick(state, "controls.mask.preset.causal"));
    const MaskPresets after = state.session.config.mask_spec().presets;
    CHECK_FALSE(after.causal);
    CHECK(after.left_padding);
    CHECK_FALSE(after.padding);
    const std::optional<ComputeRequest> again = make_request(state.session);
    REQUIRE(again.has_value());
    CHECK(again->config.valid_lengths == std::vector<int>{3});
}
