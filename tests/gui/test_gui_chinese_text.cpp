// The window in each Chinese language at 1024x768, headless: every view over every step,
// every menu and every dialog shows no English word (tests/gui/latin_words.h: code
// identifiers and latin_words_allowed.txt aside) and no missing-glyph box. The text is read
// back from the draw lists (drawn_runs, app/gui/kit/test_hook.h), so a literal written past
// the catalogue is caught as surely as an untranslated key. The same check of the real
// window under Xvfb: monkey/chinese_window_test.py.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "app/gui/kit/cjk_font.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
#include "app/io/model_loader.h"
#include "core/step_id.h"
#include "core/recipe.h"
#include "tests/gui/headless_imgui.h"
#include "tests/gui/latin_words.h"
#include "tests/lang/pseudo_language.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

// What the frames drawn so far showed that a Chinese reader should not see.
struct TextProblems {
    std::set<std::string> names;    // words shown as they are: step names, recipe and model names,
                                    // the articles' titles, the sentences, the dialog's folder
    std::set<std::string> english;  // "word  (in: run)"
    std::set<std::string> boxes;    // runs with a missing glyph
    std::set<std::string> runs;     // every run seen, for the report
};

// The code panel shows PyTorch code as it is written (its words are code).
bool in_code_panel(const DrawnRun& run) { return run.window.find("###window.code") != std::string::npos; }

// Reads the last frame's text into `problems`.
void collect(TextProblems& problems) {
    for (const DrawnRun& run : drawn_runs(*ImGui::GetDrawData())) {
        if (in_code_panel(run)) continue;
        problems.runs.insert(run.text);
        if (run.text.find("\xEF\xBF\xBD") != std::string::npos) problems.boxes.insert(run.text);
        for (const std::string& word : english_words(run.text, problems.names, run.cut_start, run.cut_end))
            problems.english.insert(word + "  (in: " + run.text + ")");
    }
}

// The run that is exactly `text` drawn by window `window`, or nullptr.
const DrawnRun* find_run(const std::vector<DrawnRun>& runs, const std::string& text, const std::string& window) {
    for (const DrawnRun& run : runs)
        if (run.text == text && run.window == window) return &run;
    return nullptr;
}

// One frame with the mouse at (x, y), pressed or not, then the text collected.
void frame_with_mouse(HeadlessImGui& ui, AppState& state, TextProblems& problems, ImVec2 at, bool down) {
    ImGui::GetIO().MousePos = at;
    ImGui::GetIO().MouseDown[0] = down;
    ui.frame(state);
    collect(problems);
}

// Opens each menu of the menu bar by clicking its title, then hovers every row of it
// (which opens the submenus: Language, the models, the recipes).
void visit_menus(HeadlessImGui& ui, AppState& state, TextProblems& problems) {
    for (const char* key : {"menu.file", "menu.model", "menu.recipe", "menu.view", "menu.help"}) {
        CAPTURE(key);
        ui.frame(state);
        const std::vector<DrawnRun> bar = drawn_runs(*ImGui::GetDrawData());
        const DrawnRun* title = find_run(bar, text::tr(key), "##MainMenuBar");
        REQUIRE_MESSAGE(title, "the menu bar shows no title " << text::tr(key));
        const ImVec2 at(title->x + 2, title->y + 4);
        frame_with_mouse(ui, state, problems, at, false);  // hovered first, then pressed
        frame_with_mouse(ui, state, problems, at, true);
        frame_with_mouse(ui, state, problems, at, false);
        frame_with_mouse(ui, state, problems, at, false);
        const ImGuiWindow* menu = ImGui::FindWindowByName("##Menu_00");
        REQUIRE(menu);
        REQUIRE(menu->Active);
        for (float y = menu->Pos.y + 4; y < menu->Pos.y + menu->Size.y; y += ImGui::GetFrameHeight() / 2)
            for (int hover = 0; hover < 3; ++hover) frame_with_mouse(ui, state, problems, ImVec2(menu->Pos.x + 20, y), false);
        frame_with_mouse(ui, state, problems, ImVec2(1000, 700), true);  // click elsewhere: closed
        frame_with_mouse(ui, state, problems, ImVec2(1000, 700), false);
    }
}

// shown_names() and the states' sentences and the dialogs' folder.
std::set<std::string> shown_names(const std::vector<AppState>& states, const std::string& folder) {
    std::set<std::string> names = attn::gui::testing::shown_names();
    for (const std::string& w : words_of(folder)) names.insert(w);
    for (const AppState& s : states)
        for (const std::string& w : words_of(s.session.sentence)) names.insert(w);
    return names;
}

// Every dialog, opened on an empty folder (a listing of files would be the user's words).
void visit_dialogs(HeadlessImGui& ui, AppState& state, TextProblems& problems, const std::string& folder) {
    using Kind = DialogState::Kind;
    for (Kind kind : {Kind::OpenWeights, Kind::OpenQuery, Kind::OpenKey, Kind::OpenValue, Kind::OpenMask, Kind::ExportSnapshot,
                      Kind::ExportAll, Kind::ExportTensors, Kind::ExportTorch, Kind::ExportCsv, Kind::ExportAnimation, Kind::Keys}) {
        open_path_dialog(state.jobs.dialog, kind, folder + "/");
        state.jobs.dialog.base = folder;
        for (int i = 0; i < 3; ++i) {
            ui.frame(state);
            collect(problems);
        }
        state.jobs.dialog = DialogState{};
    }
}

// Every step of `state` at rest, and half-way through its animation.
void visit_steps(HeadlessImGui& ui, AppState& state, TextProblems& problems) {
    REQUIRE(state.results.trace);
    for (int step = 0; step < state.ui.playback.step_count(); ++step)
        for (float progress : {0.5f, 1.0f}) {
            state.ui.playback.set_position(step, progress);
            ui.frame(state);
            collect(problems);
        }
}

std::vector<AppState> chinese_states(const char* sentence) {
    std::vector<AppState> states;
    states.push_back(state_for_model("tiny-lm-zh", 1));
    AttentionConfig random = attn::test_configs::sized(4, 8, 2);
    random.mask = MaskKind::Causal;
    states.push_back(state_for(random));
    states.back().session.sentence = sentence;
    states.push_back(state_for(find_recipe("llama")->config));
    return states;
}

void check_window_in(const char* code, const char* sentence) {
    test::LanguageScope scope(code);
    CAPTURE(code);
    std::vector<AppState> states = chinese_states(sentence);
    for (const AppState& s : states) note_shown_glyphs(s);
    HeadlessImGui ui(1024, 768);  // fonts built after the glyphs were noted, as the window does
    // A folder alone in a folder of its own: what a dialog lists is only words of its path.
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("attnviz_chinese_" + std::to_string(::getpid())) / "empty";
    std::filesystem::create_directories(folder);
    TextProblems problems;
    problems.names = shown_names(states, folder.string());
    for (AppState& state : states) {
        state.settings.hint_seen = false;  // the first-run hint is drawn too
        visit_steps(ui, state, problems);
    }
    visit_menus(ui, states.front(), problems);
    visit_dialogs(ui, states.front(), problems, folder.string());
    std::filesystem::remove_all(folder.parent_path());
    CHECK(problems.runs.size() > 100);  // the text was read back
    for (const std::string& english : problems.english) FAIL_CHECK("English: " << english);
    for (const std::string& box : problems.boxes) FAIL_CHECK("missing glyph in: " << box);
}

}  // namespace

TEST_CASE("the window in zh-Hans shows no English word and no missing glyph in any view, menu or dialog") {
    check_window_in("zh-Hans", "我的 GPU 很快，小狗看见了猫。");
}

TEST_CASE("the window in zh-Hant shows no English word and no missing glyph in any view, menu or dialog") {
    check_window_in("zh-Hant", "我的 GPU 很快，小狗看見了貓。");
}

TEST_CASE("drawn text reads back with its spaces and marks a glyph the font lacks") {
    HeadlessImGui ui(400, 200);
    for (int frame = 0; frame < 2; ++frame) {  // a new window is drawn from its second frame
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::Begin("probe");
        ImGui::TextUnformatted("view softmax Hello");
        ImGui::TextUnformatted("x \xEA\xB0\x80 y");  // 가 (Hangul): in no font the window loads
        ImGui::End();
        ImGui::Render();
    }
    std::vector<std::string> texts;
    for (const DrawnRun& run : drawn_runs(*ImGui::GetDrawData())) texts.push_back(run.text);
    std::string all;
    for (const std::string& t : texts) all += "[" + t + "] ";
    CAPTURE(all);
    CHECK(std::find(texts.begin(), texts.end(), "view softmax Hello") != texts.end());
    CHECK(std::find(texts.begin(), texts.end(), "x \xEF\xBF\xBD y") != texts.end());
    CHECK(english_words("view softmax Hello q_heads fp32 B") == std::vector<std::string>{"Hello"});
    CHECK(english_words("\xE9\x81\xAE\xE7\xBD\xA9\xEF\xBC\x88mask\xEF\xBC\x89 Hello").size() == 1);  // 遮罩（mask）: a gloss
}

TEST_CASE("a noted character no loaded font draws is named for the status line, one that is drawn is not") {
    HeadlessImGui ui(400, 200);
    note_glyphs("\xC3\xA9\xE0\xBD\x80");  // é (DejaVu has it), ཀ (Tibetan: in none of the window's fonts)
    ui.fonts = load_fonts(1.0f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    const std::string missing = noted_glyphs_not_drawn();
    CAPTURE(missing);
    CHECK(missing.find("\xE0\xBD\x80") != std::string::npos);
    CHECK(missing.find("\xC3\xA9") == std::string::npos);
}
