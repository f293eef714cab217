// The view registry and what the views hand back: every registered view draws over every
// step and head; hovering, clicking and typing reach the state and come back as Actions.
#include <doctest/doctest.h>

#include <cfloat>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "app/gui/display/format.h"
#include "app/gui/views/view_registry.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"
#include "tests/catalogue_words.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;
using attn::testing::opening;

namespace {

void move_mouse(float x, float y) { ImGui::GetIO().MousePos = ImVec2(x, y); }
void mouse_away() { move_mouse(-FLT_MAX, -FLT_MAX); }

// Moves the mouse over the canvas until it rests on a cell of the current step; returns
// where (or (-1, -1) when no point of a 16 x 16 grid over the canvas hits a cell).
ImVec2 hover_some_cell(HeadlessImGui& imgui, AppState& state) {
    const ImGuiWindow* canvas = drawn_window("Canvas");
    if (!canvas) return ImVec2(-1, -1);
    const ImVec2 pos = canvas->Pos, size = canvas->Size;
    for (int gy = 1; gy < 16; ++gy) {
        for (int gx = 1; gx < 16; ++gx) {
            const ImVec2 at(pos.x + size.x * static_cast<float>(gx) / 16.0f, pos.y + size.y * static_cast<float>(gy) / 16.0f);
            move_mouse(at.x, at.y);
            imgui.frame(state);
            if (state.ui.canvas.hovered.valid() && state.ui.canvas.hovered.step == state.ui.playback.step()) return at;
        }
    }
    return ImVec2(-1, -1);
}

// One press and release of the left button where the mouse is (two frames).
void click(HeadlessImGui& imgui, AppState& state, Actions* first = nullptr) {
    ImGui::GetIO().MouseDown[0] = true;
    const Actions a = imgui.frame(state);
    if (first) *first = a;
    ImGui::GetIO().MouseDown[0] = false;
    imgui.frame(state);
}

// True when the canvas drew a filled highlight (the pinned cell's fill) over `at`.
bool highlight_covers(ImVec2 at) {
    const ImGuiWindow* canvas = drawn_window("Canvas");
    if (!canvas) return false;
    const ImU32 fill = canvas_palette(false).highlight_fill;
    const ImVector<ImDrawVert>& v = canvas->DrawList->VtxBuffer;
    // AddRectFilled writes four corners: top-left, top-right, bottom-right, bottom-left.
    for (int i = 0; i + 3 < v.Size; ++i) {
        if (v[i].col != fill || v[i + 2].col != fill) continue;
        // Half a pixel of slack: the fill is inset a fraction of a pixel inside its cell, and
        // a point on a thin row's edge (4.25 px rows of W^T) belongs to the cell it hovers.
        constexpr float slack = 0.5f;
        if (v[i].pos.x <= at.x + slack && v[i].pos.y <= at.y + slack && v[i + 2].pos.x >= at.x - slack &&
            v[i + 2].pos.y >= at.y - slack)
            return true;
    }
    return false;
}

// On every step: the inspector's hint with nothing hovered; the mouse on a cell names the
// step in the inspector; a click pins that cell, and with the mouse gone the pin stays
// highlighted and explained.
void hover_and_pin_every_step(HeadlessImGui& imgui, AppState state) {
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    for (int step = 0; step < state.ui.playback.step_count(); ++step) {
        const Step& shown = state.results.trace->steps[static_cast<size_t>(step)];
        const std::string shown_name(shown.name());
        CAPTURE(shown_name);
        state.ui.playback.set_position(step, 1.0f);
        state.ui.canvas.pinned = CellRef{};
        mouse_away();
        imgui.frame(state);
        CHECK(shows(drawn_text(text::label("window.inspector")), text::tr("inspector.hover_hint")));

        const ImVec2 at = hover_some_cell(imgui, state);
        REQUIRE(at.x >= 0.0f);
        const CellRef hovered = state.ui.canvas.hovered;
        CHECK(shows(drawn_text(text::label("window.inspector")), shown.name()));
        // A weight or bias cell of a projection is not in a trace buffer: no storage position.
        if (hovered.part == CellRef::Part::Result || hovered.part == CellRef::Part::Input)
            CHECK(shows(drawn_text(text::label("window.inspector")), opening("inspector.storage_position")));
        else
            CHECK(shows(drawn_text(text::label("window.inspector")), text::tr("inspector.flows.into")));

        click(imgui, state);
        CHECK(state.ui.canvas.pinned == hovered);
        mouse_away();
        imgui.frame(state);
        CHECK_FALSE(state.ui.canvas.hovered.valid());
        CAPTURE(at.x);
        CAPTURE(at.y);
        CHECK(highlight_covers(at));
        CHECK(shows(drawn_text(text::label("window.inspector")), shown.name()));
    }
}

}  // namespace

TEST_CASE("the registry lists each view once, with a slot for every docked panel") {
    const std::vector<ViewSpec>& views = registered_views();
    REQUIRE_FALSE(views.empty());
    std::set<std::string> names;
    std::set<DockSlot> slots;
    for (const ViewSpec& view : views) {
        CHECK(static_cast<bool>(view.draw));
        if (view.window) CHECK(names.insert(window_name(view)).second);
        slots.insert(view.slot);
    }
    for (DockSlot slot : {DockSlot::MenuBar, DockSlot::Center, DockSlot::Left, DockSlot::Bottom, DockSlot::RightTop,
                          DockSlot::RightBottom, DockSlot::StatusBar}) {
        CHECK(slots.count(slot) == 1);
    }
}

// The registry's list as written in view_registry.cpp: the lines between "views = {" and
// "};" that are not comments.
namespace {

std::vector<std::string> registry_rows() {
    std::ifstream in(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "app/gui/views/view_registry.cpp");
    std::vector<std::string> rows;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.find("views = {") != std::string::npos) { inside = true; continue; }
        if (!inside) continue;
        if (line.find("};") != std::string::npos) break;
        const size_t first = line.find_first_not_of(' ');
        if (first != std::string::npos && line.compare(first, 2, "//") != 0) rows.push_back(line);
    }
    return rows;
}

}  // namespace

TEST_CASE("the registry's list is one line per view, with no branch in its rows") {
    const std::vector<std::string> rows = registry_rows();
    CHECK(rows.size() == registered_views().size());
    // A row is {window, titled, slot, flags, edge, interactive only, draw} on one line; a
    // lambda, a condition or a compare-mode branch belongs in a function (compare_slots.h).
    const std::regex one_line(R"(^\s*\{[^{}\[\]?]*\},\s*$)");
    for (const std::string& row : rows) {
        CAPTURE(row);
        CHECK(std::regex_match(row, one_line));
        CHECK(row.find("compare.on") == std::string::npos);
    }
}

TEST_CASE("every registered view draws something over every step and head") {
    HeadlessImGui imgui(1280, 800);
    for (int config = 0; config < 3; ++config) {
        // No mask, a causal one, and a generation (the token strip is drawn only with one).
        AttentionConfig c = masked(sized(4, 6, 3), config == 0 ? MaskKind::None : MaskKind::Causal);
        if (config == 2) c.decode_from = 3;
        AppState state = state_for(c);
        REQUIRE(state.results.trace);
        CHECK((state.results.decode != nullptr) == (config == 2));
        state.ui.code.show = true;  // the code panel is drawn only when View > PyTorch code shows it
        state.jobs.lesson.open = true;  // the slide list is drawn only while a lesson is being made
        for (int step = 0; step < state.ui.playback.step_count(); ++step) {
            for (int head = -1; head < 3; ++head) {
                state.ui.playback.set_position(step, 1.0f);
                state.ui.canvas.enlarged_head = head;
                imgui.frame(state);
                CAPTURE(step);
                CAPTURE(head);
                for (const ViewSpec& view : registered_views()) {
                    if (!view.window || (view.slot == DockSlot::TokenStrip && !state.results.decode)) continue;
                    CAPTURE(view.window);
                    CHECK_FALSE(drawn_text(window_name(view)).empty());
                }
                CHECK(shows(drawn_text("##MainMenuBar"), text::tr("menu.file")));
                CHECK(shows(drawn_text("##status_line"), text::tr("status.ready")));
            }
        }
    }
}

TEST_CASE("the views that open their own windows draw them from the registry") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(sized(4, 6, 3));
    REQUIRE(state.results.trace);
    imgui.frame(state);  // every window exists before a modal opens over them
    state.jobs.dialog.kind = DialogState::Kind::Keys;
    state.jobs.dialog.just_opened = true;
    set_status(state.ui, Message::plain("wrote 17 files"), 0.0);
    imgui.frame(state);
    imgui.frame(state);  // a popup opened in one frame is drawn from the next
    CHECK(shows(drawn_text(text::label("dialog.keys")), text::tr("shortcut.play.action")));
    CHECK(shows(drawn_text("##status_line"), "wrote 17 files"));
    CHECK(shows(drawn_text("##first_run_hint"), text::tr("hint.got_it")));
}

TEST_CASE("hovering a cell fills the inspector; a click pins it and the pin stays highlighted, in every head layout and a model") {
    HeadlessImGui imgui(1280, 800);
    for (const NamedConfig& layout : every_head_layout(causal(sized(4, 8, 2)))) {
        CAPTURE(layout.name);
        hover_and_pin_every_step(imgui, state_for(layout.config));
    }
    for (int layer : {0, 1}) {
        CAPTURE(layer);
        hover_and_pin_every_step(imgui, state_for_model("tiny-lm", layer));
    }
}

TEST_CASE("buttons and typing come back as actions") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(sized(4, 6, 3));
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    mouse_away();
    imgui.frame(state);

    SUBCASE("the presentation button asks for presentation mode") {
        const ImGuiWindow* controls = drawn_window(text::label("window.controls"));
        REQUIRE(controls);
        const ImGuiStyle& style = ImGui::GetStyle();
        move_mouse(controls->Pos.x + controls->Size.x * 0.5f,
                   controls->Pos.y + controls->Size.y - style.WindowPadding.y - ImGui::GetFrameHeight() * 0.5f);
        imgui.frame(state);
        Actions pressed;
        ImGui::GetIO().MouseDown[0] = true;
        imgui.frame(state);
        ImGui::GetIO().MouseDown[0] = false;
        pressed = imgui.frame(state);  // a button reports on release
        CHECK(pressed.toggle_presentation);
        CHECK_FALSE(pressed.config_changed);
    }
    SUBCASE("typing into the sentence asks for a new trace with the new words") {
        // Click down the controls from the top until a text field takes the keyboard: the
        // sentence is the first one.
        const ImGuiWindow* controls = drawn_window(text::label("window.controls"));
        REQUIRE(controls);
        bool editing = false;
        for (float y = controls->Pos.y; y < controls->Pos.y + ImGui::GetFontSize() * 8.0f && !editing; y += 3.0f) {
            move_mouse(controls->Pos.x + controls->Size.x * 0.5f, y);
            imgui.frame(state);
            click(imgui, state);
            editing = ImGui::GetIO().WantTextInput;
        }
        REQUIRE(editing);
        // End: the cursor after the last word (a click may have selected one).
        constexpr int kEndKey = 300;  // any free slot of io.KeysDown
        ImGui::GetIO().KeyMap[ImGuiKey_End] = kEndKey;
        ImGui::GetIO().KeysDown[kEndKey] = true;
        imgui.frame(state);
        ImGui::GetIO().KeysDown[kEndKey] = false;
        imgui.frame(state);
        const Actions typed = [&] {
            ImGui::GetIO().AddInputCharactersUTF8(" again");
            return imgui.frame(state);
        }();
        CHECK(typed.config_changed);
        CHECK(state.session.sentence == "the cat sat on the mat again");
        CHECK(state.session.config.seq_len == 7);
        const auto request = make_request(state.session);
        REQUIRE(request.has_value());
        CHECK(request->sources.tokens.back() == "again");
    }
    SUBCASE("the timeline's next button moves to the next step") {
        const ImGuiWindow* timeline = drawn_window("Timeline");
        REQUIRE(timeline);
        // The buttons |<  <  play  >  >| from the left; find " > " by trying along the row.
        const float y = timeline->Pos.y + ImGui::GetStyle().WindowPadding.y + ImGui::GetFrameHeight() * 0.5f;
        bool moved = false;
        for (float x = timeline->Pos.x + 4.0f; x < timeline->Pos.x + ImGui::GetFontSize() * 16.0f && !moved; x += 4.0f) {
            state.ui.playback.jump_to(0);
            state.ui.playback.set_position(0, 1.0f);
            move_mouse(x, y);
            imgui.frame(state);
            click(imgui, state);
            moved = state.ui.playback.step() == 1 && !state.ui.playback.playing();
        }
        CHECK(moved);
    }
}
