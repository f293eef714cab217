// Issue 32 ("Giving the lesson"), without a window: the slide keys (Home, End, a number
// and Enter, the slide grid), C and its undo, T, the first press on an input slide, what
// Add slide captures (the followed cell, the drawings of the step on screen), the choice of
// screen, the note field's wrapping, "All steps"' file name, a typed folder in the path
// dialog, the lesson's title and minutes, and no key used twice in Help > Keyboard.
#include <doctest/doctest.h>

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cctype>
#include <cfloat>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "app/gui/state/capture_slide.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/state/lesson_doc.h"
#include "app/gui/state/screens.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
#include "app/gui/views/panels/note_editor.h"
#include "app/gui/views/panels/view_presenter.h"
#include "app/gui/window/lesson_keys.h"
#include "app/gui/window/present_keys.h"
#include "app/gui/kit/shortcuts.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

#include <unistd.h>

using namespace attn;
using namespace attn::gui;
using attn::gui::testing::HeadlessImGui;
namespace fs = std::filesystem;

TEST_CASE("Home and End go to the first and last slide; a number and Enter go to that slide") {
    std::string typed;
    KeyPresses presses = {{GLFW_KEY_END, 0}};
    CHECK(slide_key_target(presses, 1, 8, &typed) == 7);
    CHECK(presses.empty());  // the playback does not move to the last step too
    presses = {{GLFW_KEY_HOME, 0}};
    CHECK(slide_key_target(presses, 1, 8, &typed) == 0);
    presses = {{GLFW_KEY_1, 0}, {GLFW_KEY_KP_2, 0}};
    CHECK(slide_key_target(presses, 0, 20, &typed) == -1);
    CHECK(typed == "12");
    presses = {{GLFW_KEY_ENTER, 0}};
    CHECK(slide_key_target(presses, 0, 20, &typed) == 11);
    CHECK(typed.empty());
    presses = {{GLFW_KEY_9, 0}, {GLFW_KEY_9, 0}, {GLFW_KEY_KP_ENTER, 0}};
    CHECK(slide_key_target(presses, 0, 20, &typed) == 19);  // past the end: the last slide
    presses = {{GLFW_KEY_3, 0}, {GLFW_KEY_SPACE, 0}, {GLFW_KEY_ENTER, 0}};
    CHECK(slide_key_target(presses, 0, 20, &typed) == -1);  // another key forgets the digits
    CHECK(presses.size() == 2);                              // Space and Enter are not the slides'
    presses = {{GLFW_KEY_2, GLFW_MOD_CONTROL}};
    slide_key_target(presses, 0, 20, &typed);
    CHECK(typed.empty());
    presses = {{GLFW_KEY_5, 0}, {GLFW_KEY_ENTER, 0}};
    CHECK(slide_key_target(presses, 0, 20) == -1);  // the tour types no numbers
}

TEST_CASE("G opens the slide grid; arrows move the frame by columns and rows, Enter shows it, Escape closes") {
    UiState ui;
    ui.present.slide = 2;
    KeyPresses presses = {{GLFW_KEY_G, 0}};
    presenter_keys(presses, ui, false);
    CHECK_FALSE(ui.present.grid);  // no lesson, no grid
    presenter_keys(presses, ui, true);
    REQUIRE(ui.present.grid);
    CHECK(ui.present.grid_choice == 2);
    const int columns = slide_grid_columns(10);
    CHECK(columns == 4);
    presses = {{GLFW_KEY_DOWN, 0}, {GLFW_KEY_RIGHT, 0}, {GLFW_KEY_B, 0}};
    CHECK(slide_grid_keys(presses, ui.present, 10) == -1);
    CHECK(presses.empty());  // B does not blank the screen behind the grid
    CHECK_FALSE(ui.present.blank);
    CHECK(ui.present.grid_choice == 2 + columns + 1);
    presses = {{GLFW_KEY_DOWN, 0}};
    slide_grid_keys(presses, ui.present, 10);
    CHECK(ui.present.grid_choice == 9);  // not past the last slide
    presses = {{GLFW_KEY_HOME, 0}, {GLFW_KEY_RIGHT, 0}, {GLFW_KEY_ENTER, 0}};
    CHECK(slide_grid_keys(presses, ui.present, 10) == 1);
    CHECK_FALSE(ui.present.grid);
    ui.present.grid = true;
    presses = {{GLFW_KEY_ESCAPE, 0}};
    CHECK(slide_grid_keys(presses, ui.present, 10) == -1);
    CHECK_FALSE(ui.present.grid);
    CHECK(slide_grid_columns(2) == 2);
    CHECK(slide_grid_columns(30) * slide_grid_columns(30) * 3 >= 30 * 4);
}

TEST_CASE("the slide grid of one, two or three slides keeps its pictures sharp and centred; of many, fills the screen") {
    const float top = 40, gap = 16, caption = 22, aspect = 1.6f, largest = 640;
    for (const auto& [w, h] : {std::pair{1024.0f, 768.0f}, std::pair{1920.0f, 1080.0f}}) {
        for (int count = 1; count <= 12; ++count) {
            CAPTURE(w);
            CAPTURE(count);
            const SlideGridPlace g = slide_grid_place(count, w, h, top, gap, caption, aspect, largest);
            const int rows = (count + g.columns - 1) / g.columns;
            CHECK(g.columns == slide_grid_columns(count));  // the arrow keys move by the same columns
            CHECK(g.columns <= count);                      // one slide: one column (it sat in the left of two)
            CHECK(g.cell_w <= largest);                     // at most twice the picture drawn: not blurred
            CHECK(g.cell_h == doctest::Approx(g.cell_w / aspect));
            // Inside the screen, centred both ways (before: one slide sat at the top, 990 px wide).
            const float right = g.left + g.columns * g.cell_w + (g.columns - 1) * gap;
            const float bottom = g.top + rows * (g.cell_h + caption) + (rows - 1) * gap;
            CHECK(g.left >= gap * 0.5f);
            CHECK(right <= w - gap * 0.5f);
            CHECK(g.top >= top);
            CHECK(bottom <= h + 0.5f);
            CHECK(g.left == doctest::Approx(w - right));
            CHECK(g.top - top == doctest::Approx(h - bottom).epsilon(0.01));
            // A bigger picture would leave the screen or the cap: each is as large as it may be.
            const bool width_bound = right + g.columns * 8.0f > w - gap * 0.5f;
            const bool height_bound = bottom + rows * 8.0f / aspect > h;
            CHECK((g.cell_w == doctest::Approx(largest) || width_bound || height_bound));
        }
    }
}

TEST_CASE("C wipes the slide's drawings and Ctrl+Z brings them back, with the pen on or off") {
    UiState ui;
    lesson::Annotation a;
    a.points = {{0.5f, 0.5f}, {1.0f, 1.0f}};
    ui.lesson.marks.annotations = {a, a, a};
    KeyPresses presses = {{GLFW_KEY_C, 0}};
    presenter_keys(presses, ui, true, 5.0);
    CHECK(ui.lesson.marks.annotations.empty());
    CHECK(ui.present.wiped.size() == 3);
    CHECK_FALSE(ui.status.empty());  // said: Ctrl+Z brings them back
    CHECK(ui.present.notice_time == 5.0);
    presses = {{GLFW_KEY_Z, GLFW_MOD_CONTROL}};
    presenter_keys(presses, ui, true);
    CHECK(presses.empty());
    CHECK(ui.lesson.marks.annotations.size() == 3);
    CHECK(ui.present.wiped.empty());
    // With the pen on, Ctrl+Z first undoes what was drawn after C, then brings back the rest.
    presses = {{GLFW_KEY_C, 0}, {GLFW_KEY_D, 0}};
    presenter_keys(presses, ui, true);
    ui.lesson.marks.annotations.push_back(a);
    presses = {{GLFW_KEY_Z, GLFW_MOD_CONTROL}};
    presenter_keys(presses, ui, true);
    CHECK(ui.lesson.marks.annotations.empty());
    presses = {{GLFW_KEY_Z, GLFW_MOD_CONTROL}};
    presenter_keys(presses, ui, true);
    CHECK(ui.lesson.marks.annotations.size() == 3);
    // Another slide: nothing to bring back, Ctrl+Z (pen off) is the slide edits' again.
    lesson::OpenedLesson opened;
    opened.slides.resize(2);
    presses = {{GLFW_KEY_C, 0}, {GLFW_KEY_D, 0}};
    presenter_keys(presses, ui, true);
    enter_slide(ui.present, opened, 1);
    presses = {{GLFW_KEY_Z, GLFW_MOD_CONTROL}};
    presenter_keys(presses, ui, true);
    CHECK(presses.size() == 1);
}

TEST_CASE("T starts the lesson's clock again; the countdown reads its minutes") {
    HeadlessImGui imgui(800, 600);
    UiState ui;
    ui.present.started = 1.0;
    ui.present.minutes = 45;
    CHECK(lesson_countdown(ui.present, 61.0) == text::trf("present.note.countdown", {{"left", "44:00"}, {"minutes", 45}}));
    CHECK(lesson_countdown(ui.present, 1.0 + 45 * 60 + 30) == text::trf("present.note.overtime", {{"over", "0:30"}, {"minutes", 45}}));
    KeyPresses presses = {{GLFW_KEY_T, 0}};
    presenter_keys(presses, ui, true, 500.0);
    CHECK(ui.present.started == 500.0);
    CHECK(presses.empty());
    ui.present.minutes = 0;
    CHECK(lesson_countdown(ui.present, 600.0).empty());
}

TEST_CASE("the first Page Down on a step with nothing to play (the input) goes to the next slide") {
    UiState ui;
    ui.playback.set_step_count(5);
    ui.playback.set_position(0, 1.0f);
    ui.present.step_animates = false;
    KeyPresses presses = {{GLFW_KEY_PAGE_DOWN, 0}};
    presenter_keys(presses, ui, true);
    CHECK(presses.size() == 1);  // left to the slide keys: the next slide
    ui.present.step_animates = true;
    presenter_keys(presses, ui, true);
    CHECK(presses.empty());  // a step that animates plays first
}

namespace {

lesson::OpenedSlide opened_slide(StepId step) {
    lesson::Slide slide;
    slide.title = "s";
    slide.setup.options = {{"num-heads", {lesson::OptionValue::Kind::Number, "2"}}};
    slide.view.step = step;
    const Result<io::Problem> problem = lesson::slide_problem(slide);
    REQUIRE_MESSAGE(problem.ok(), problem.error());
    return {slide, problem.value()};
}

void show(AppState& state, const lesson::OpenedSlide& slide) {
    const ComputeRequest request = apply_slide(state, slide);
    accept_result(state, ComputeWorker::compute(request, 1), 0.0);
}

}  // namespace

TEST_CASE("Add slide keeps a cell followed in the window, and only the drawings of the step on screen") {
    AppState state;
    show(state, opened_slide(StepId::AttnScores));
    REQUIRE(state.results.trace);
    const int scores = state.results.trace->index_of(StepId::AttnScores);
    const int weights = state.results.trace->index_of(StepId::AttnWeights);
    REQUIRE(scores >= 0);
    // Follow (saw, saw) in the window, draw two marks on the scores.
    state.ui.canvas.follow.cell = CellRef{scores, 1, 2, 2};
    lesson::Annotation arrow{lesson::Annotation::Kind::Arrow, 0, lesson::CellAnchor{StepId::AttnScores, 1, 2, 2}, {{0.5f, 0.5f}, {1.5f, 1.5f}}};
    lesson::Annotation stroke{lesson::Annotation::Kind::Stroke, 1, lesson::CellAnchor{StepId::AttnScores, 0, 0, 0}, {{0.5f, 0.5f}}};
    state.ui.lesson.marks.annotations = {arrow, stroke};
    const lesson::Slide first = capture_slide(state, "first", "");
    REQUIRE(first.view.followed);
    CHECK(*first.view.followed == lesson::CellAnchor{StepId::AttnScores, 1, 2, 2});
    CHECK(first.view.annotations.size() == 2);
    const std::string json = lesson::write_lesson(lesson::Lesson{1, "", "en", 0, {first}});
    CHECK(json.find("\"followed\"") != std::string::npos);
    // The next step on screen: the drawings on the scores stay behind, the followed cell goes on.
    state.ui.playback.set_position(weights, 1.0f);
    const lesson::Slide second = capture_slide(state, "second", "");
    CHECK(second.view.annotations.empty());
    CHECK(second.view.followed);
    state.ui.canvas.follow.cell = CellRef{};
    CHECK_FALSE(capture_slide(state, "third", "").view.followed);
}

TEST_CASE("--screen N counts from 1; a saved screen that is gone falls back to the primary and says so") {
    const std::vector<ScreenInfo> screens = {{"eDP-1", 0, 0, 1920, 1200, true}, {"HDMI-1", 1920, 0, 1024, 768, false}};
    REQUIRE(screen_by_number(screens, 2).ok());
    CHECK(screen_by_number(screens, 2).value() == 1);
    const Result<int> none = screen_by_number(screens, 5);
    REQUIRE_FALSE(none.ok());
    const std::string line = text::render(none.message(), text::english());
    CAPTURE(line);
    CHECK(line.find("--screen 5") == 0);
    CHECK(line.find("2: HDMI-1 (1024 x 768)") != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
    CHECK_FALSE(screen_by_number(screens, 0).ok());
    CHECK(choose_screen(screens, "HDMI-1").index == 1);
    CHECK(choose_screen(screens, "HDMI-1").problem.empty());
    CHECK(choose_screen(screens, "").index == 0);
    const ScreenChoice gone = choose_screen(screens, "DP-3");
    CHECK(gone.index == 0);
    CHECK(text::render(gone.problem, text::english()).find("DP-3") != std::string::npos);
    const std::vector<ScreenInfo> laptop_second = {{"HDMI-1", 0, 0, 1024, 768, false}, {"eDP-1", 1024, 0, 1920, 1200, true}};
    CHECK(choose_screen(laptop_second, "").index == 1);  // the primary, wherever it is listed
    CHECK(choose_screen({}, "").index == -1);
    CHECK(new_screens({screens[0]}, screens) == std::vector<std::string>{"HDMI-1"});
    CHECK(new_screens(screens, {screens[0]}).empty());
}

TEST_CASE("the note field wraps at its width and keeps the text as typed") {
    HeadlessImGui imgui(800, 600);
    const ImFont& font = *ImGui::GetIO().Fonts->Fonts[0];
    const float size = font.FontSize, width = size * 8.0f;
    const std::string note = "Point at the row of the pronoun, then ask which word it looks at most.\nThen press G.";
    const std::string shown = with_soft_breaks(font, size, note, width);
    CAPTURE(shown);
    CHECK(shown != note);
    CHECK(without_soft_breaks(shown) == note);
    size_t from = 0;
    int lines = 0;
    while (from <= shown.size()) {
        const size_t end = std::min(shown.find('\n', from), shown.size());
        const std::string line = without_soft_breaks(shown.substr(from, end - from));
        CAPTURE(line);
        CHECK(font.CalcTextSizeA(size, FLT_MAX, 0.0f, line.c_str()).x <= width + size * 0.5f);  // a line's last space may overhang
        ++lines;
        from = end + 1;
    }
    CHECK(lines >= 5);
    const std::string chinese = "指着代词那一行，问大家它最关注哪个词。然后按 G 打开全部幻灯片。";
    CHECK(without_soft_breaks(with_soft_breaks(font, size, chinese, width)) == chinese);
    CHECK(without_soft_breaks("a\r\nb\rc\nd") == "abc\nd");
}

TEST_CASE("Export animation: All steps names the file for all steps, This step gives the step's name back") {
    DialogState d;
    d.kind = DialogState::Kind::ExportAnimation;
    d.path = "/tmp/out/11_attn_scores.gif";
    follow_animation_steps(d, true);
    CHECK(d.animation_all_steps);
    CHECK(d.path == std::string("/tmp/out/") + kAllStepsAnimationName + ".gif");
    follow_animation_steps(d, false);
    CHECK(d.path == "/tmp/out/11_attn_scores.gif");
}

TEST_CASE("a folder typed into the Open dialog is the folder listed, not its parent") {
    const fs::path dir = fs::temp_directory_path() / ("attnviz_typed_folder_" + std::to_string(::getpid()));
    fs::create_directories(dir / "inner");
    DialogState d;
    open_path_dialog(d, DialogState::Kind::OpenLesson, (dir / "inner").string() + "/");
    CHECK(d.chooser.folder() == (dir / "inner").string());
    open_path_dialog(d, DialogState::Kind::OpenLesson, (dir / "inner" / "x.json").string());
    CHECK(d.chooser.folder() == (dir / "inner").string());
    fs::remove_all(dir);
}

TEST_CASE("a lesson's title and minutes are set in the window and saved") {
    LessonDoc doc;
    new_lesson(doc, "en");
    set_lesson_title(doc, "Attention in one hour");
    set_lesson_minutes(doc, 50);
    CHECK(doc.dirty);
    set_lesson_minutes(doc, 100000);
    CHECK(doc.opened.lesson.minutes == lesson::kMaxLessonMinutes);
    const std::string json = lesson::write_lesson(lesson_of(doc));
    CHECK(json.find("\"title\": \"Attention in one hour\"") != std::string::npos);
    CHECK(json.find("\"minutes\": 600") != std::string::npos);
}

TEST_CASE("Help > Keyboard uses each single key for one thing only") {
    // A key named alone ("G", "T", "C") in two rows would be two meanings for one press.
    std::map<std::string, std::string> owner;
    for (const Shortcut& s : kShortcuts) {
        const std::string keys = s.keys;
        for (size_t i = 0; i < keys.size(); ++i) {
            const bool alone = std::isupper(static_cast<unsigned char>(keys[i])) &&
                               (i == 0 || (!std::isalnum(static_cast<unsigned char>(keys[i - 1])) && keys[i - 1] != '+')) &&
                               (i + 1 == keys.size() || !std::isalnum(static_cast<unsigned char>(keys[i + 1])));
            if (!alone) continue;
            const std::string key(1, keys[i]);
            CAPTURE(key);
            CAPTURE(s.id);
            CHECK((owner.count(key) == 0 || owner[key] == s.id));
            owner[key] = s.id;
        }
    }
    for (const char* key : {"G", "T", "C", "B", "N", "D", "P", "F", "O", "V"}) {
        CAPTURE(key);
        CHECK(owner.count(key) == 1);
    }
}

TEST_CASE("the first-run hint hangs under the matrices when there is room, clear of every cell") {
    HeadlessImGui imgui(1024, 768);
    AppState state = attn::gui::testing::state_for(attn::test_configs::sized(12, 16, 2));
    REQUIRE_FALSE(state.settings.hint_seen);
    imgui.frame(state);
    imgui.frame(state);  // the hint's height is known from the frame before
    const ImGuiWindow* hint = attn::gui::testing::drawn_window("##first_run_hint");
    REQUIRE(hint);
    REQUIRE_FALSE(state.ui.canvas.placed.empty());
    float lowest = 0.0f;
    for (const PlacedMatrix& m : state.ui.canvas.placed) lowest = std::max(lowest, m.rect.y + m.rect.h);
    CAPTURE(lowest);
    CAPTURE(hint->Pos.y);
    CHECK(hint->Pos.y >= lowest - 0.5f);
}
