// run_window: the interactive window, in the spirit of ImGui's GLFW + OpenGL3 example:
// set-up, state, then poll -> new frame -> draw -> render -> swap, clean-up in reverse.
// (run_snapshot is in export/snapshot.cpp, run_render_bench in export/render_bench.cpp.)
#include <epoxy/gl.h>

#include "app/gui/window/entry.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>

#include "app/gui/gl/gl_objects.h"
#include "app/gui/gl/headless.h"
#include "app/gui/gl/leak_check.h"
#include "app/gui/state/app_state.h"
#include "app/gui/window/apply_actions.h"
#include "app/gui/kit/cjk_font.h"
#include "app/gui/state/lesson_doc.h"
#include "app/gui/window/compare_window.h"
#include "app/gui/window/frame_loop.h"
#include "app/gui/views/frame.h"
#include "app/gui/window/imgui_ini.h"
#include "app/gui/window/key_actions.h"
#include "app/gui/window/lesson_edit.h"
#include "app/gui/window/lesson_keys.h"
#include "app/gui/window/present_keys.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/window/tour_actions.h"
#include "app/gui/window/window_parts.h"
#include "app/gui/window/x11_events.h"
#include "app/gui/gl/shader_sources.h"
#include "app/text/language_tag.h"
#include "app/text/languages.h"
#include "core/storage.h"

namespace attn::gui {
namespace {

// Two notes for the status line as one ("first; second"); either may be empty.
Message joined(Message first, Message second) {
    if (first.empty()) return second;
    if (second.empty()) return first;
    return Message("status.joined", {{"first", std::move(first)}, {"second", std::move(second)}});
}

// Ctrl+C or a polite kill closes the window the normal way (settings are saved).
std::atomic<bool> g_stop_requested{false};
void on_stop_signal(int) { g_stop_requested = true; }

// The language: --lang (remembered, as a pick in View > Language is), else the one picked
// before, else the system locale's. One this binary lacks (a file removed since) counts
// as none picked.
void choose_language(UiSettings& settings, const std::string& option_language) {
    if (!option_language.empty()) settings.language = option_language;
    if (text::set_language(settings.language)) return;
    settings.language.clear();
    text::set_language(text::language_from_environment());
}

// With no configuration on the command line, the lesson resumes where it stopped: the
// request that rebuilds it (its step first), else the command line's problem.
ComputeRequest first_request(AppState& state, const io::Problem& initial, bool resume, Message& notes) {
    init_from_problem(state.session, initial);
    ComputeRequest first;
    first.prebuilt = std::make_shared<const io::Problem>(initial);
    if (resume && state.settings.has_session) {
        Message note = restore_saved_session(state);
        std::optional<ComputeRequest> resumed = note.empty() ? make_request(state.session) : std::nullopt;
        if (resumed) {
            first = std::move(*resumed);
            first.focus_step = parse_step_name(state.ui.resume_step);
        }
        notes = joined(std::move(notes), std::move(note));
    }
    first.colour_scale = colour_scale_of(state.settings);
    return first;
}

void start_imgui(WindowParts& parts, Message& notes) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    Message ini_problem;
    parts.layout_file = load_layout_file(ini_problem);
    notes = joined(std::move(notes), std::move(ini_problem));
    ImGui_ImplGlfw_InitForOpenGL(parts.window, true);
    // Keys, text and mouse buttons go through the queue; the cursor position, focus and
    // scroll stay with the backend (the callbacks only note that input came).
    install_input_callbacks(parts.window, parts.keys);
    ImGui_ImplOpenGL3_Init(shaders::glsl_version);
}

void stop_imgui(WindowParts& parts) {
    close_notes_window(parts.notes, parts.window);
    save_imgui_ini(parts.layout_file, true);
    parts.exporter.reset();
    parts.thumbnails.reset();
    parts.cache.reset();
    parts.compare_b_cache.reset();
    parts.difference_cache.reset();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

// Results of the worker, a moved or grown font atlas and re-baked textures, before the frame.
void take_news(AppState& state, WindowParts& parts) {
    if (std::optional<ComputeResult> result = parts.worker.take()) accept_result(state, std::move(*result), glfwGetTime());
    if (std::optional<CompletedModel> done = parts.worker.take_model(); done && done->trace == state.results.trace) {
        state.results.model = std::move(done->model);
        parts.cache->adopt_completed(state.results.model);  // textures already baked stay
        place_pending_follow(state);  // a slide's followed cell on a step built only now
    }
    take_compare_news(state, parts, glfwGetTime());
    if (const float scale = monitor_content_scale(parts.window); scale != parts.content_scale) {  // another monitor
        parts.content_scale = scale;
        parts.rebuild_fonts = true;
    }
    // A character typed or loaded that the atlas lacks: the atlas grows by it.
    if (note_shown_glyphs(state)) parts.rebuild_fonts = true;
    if (state.results.model_changed) {
        parts.cache->reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
        state.results.model_changed = false;
    }
    if (!parts.rebuild_fonts) return;
    parts.fonts = load_fonts(effective_scale(state, parts));
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    // A box is never silent: the status line names the characters no font here has.
    if (const std::string missing = noted_glyphs_not_drawn(); !missing.empty())
        set_status(state.ui, Message("status.glyphs_missing", {{"characters", missing}}), glfwGetTime());
    apply_theme(state.settings.light_theme, effective_scale(state, parts));
    parts.rebuild_fonts = false;
}

// Test-only (test_hook.h): the window's state for the GUI tests. Nothing is built, not
// even the messages' text, unless ATTNVIZ_TEST_LAYOUT is set.
void report_for_tests(const AppState& state, const WindowParts& parts) {
    report_drawn_text_for_tests();
    if (!layout_report_enabled()) return;
    if (const Step* shown = state.results.step_at(state.ui.playback.step()))
        note_for_tests(std::string("shown ") + shown->name() + " head " + std::to_string(state.ui.canvas.enlarged_head) +
                       " layer " + std::to_string(state.session.model_layer));
    // The lesson being made (lesson_edit.h): its slides, the current one, unsaved, presenting.
    const LessonDoc& doc = state.jobs.lesson;
    note_for_tests("lesson " + std::to_string(doc.open) + " slides " + std::to_string(doc.opened.slides.size()) + " current " +
                   std::to_string(doc.current) + " dirty " + std::to_string(doc.dirty) + " presenting " +
                   std::to_string(parts.lesson != nullptr) + " slide " + std::to_string(parts.slide_index));
    note_for_tests("screen_state language " + text::active().code() + " full_screen " + std::to_string(parts.full_screen.on) +
                   " screens " + std::to_string(state.ui.screens.size()) +
                   // The regular font's rasterised size in pixels (16 x the scale): sharp text
                   // on a HiDPI screen is drawn from glyphs of the screen's size.
                   " font_px " + std::to_string(ImGui::GetIO().Fonts->Fonts.empty() ? 0 : static_cast<int>(ImGui::GetIO().Fonts->Fonts[0]->FontSize)));
    if (state.compare.on) {
        // Compare mode: the switch, the contrast, B's step count and the inspector's three values.
        const CompareState& c = state.compare;
        const ComparedCell cell = compare_cell(state, state.ui.canvas.hovered.valid() ? state.ui.canvas.hovered : state.ui.canvas.pinned);
        note_for_tests("compare edit " + std::string(c.editing_b ? "b" : "a") + " contrast " + (c.contrast.empty() ? "-" : c.contrast) +
                       " b_steps " + std::to_string(c.b_results.trace ? c.b_results.trace->steps.size() : 0) + " cell " +
                       (cell.has_a ? "1" : "0") + (cell.has_b ? "1" : "0") + (cell.has_difference ? "1" : "0") +
                       " b_heads " + std::to_string(c.b_results.trace ? c.b_results.trace->config.H() : 0) +
                       " busy " + (parts.compare_worker.busy() || parts.worker.busy() ? "1" : "0") +
                       " a_heads " + std::to_string(state.results.trace ? state.results.trace->config.H() : 0));
    }
    // View > Weights as lines: the token pointed at and the one pinned ("q3", "k0", "-").
    const auto token = [](const TokenRef& t) {
        return !t.valid() ? std::string("-") : (t.side == TokenRef::Side::Query ? "q" : "k") + std::to_string(t.index);
    };
    note_for_tests("lines hovered " + token(state.ui.canvas.lines_hovered) + " pinned " + token(state.ui.canvas.lines_pinned) +
                   " selected " + std::to_string(state.ui.canvas.lines_selected.size()));
    const PresentUi& present = state.ui.present;  // presenting: what tests/gui/monkey/present_test.py checks
    note_for_tests("present slide " + std::to_string(present.slide) + " blank " + std::to_string(present.blank) + " note " +
                   std::to_string(present.note_shown) + " pen " + std::to_string(present.pen) + " pointer " +
                   std::to_string(present.pointer_shown()) + " drawings " + std::to_string(state.ui.lesson.marks.annotations.size()) +
                   " progress " + std::to_string(state.ui.playback.progress()) + " placed " + std::to_string(state.ui.canvas.placed.size()) +
                   " grid " + std::to_string(present.grid) + " choice " + std::to_string(present.grid_choice) + " typed " +
                   (present.typed_slide.empty() ? "0" : present.typed_slide) + " presentation " + std::to_string(state.ui.presentation) +
                   " wiped " + std::to_string(present.wiped.size()) + " started " + std::to_string(present.started));
    if (!state.ui.canvas.placed.empty()) {
        const Rect& r = state.ui.canvas.placed.front().rect;
        note_for_tests("placed_first " + std::to_string(r.x) + " " + std::to_string(r.y) + " " + std::to_string(r.w) + " " + std::to_string(r.h));
    }
    report_layout_for_tests(parts.keys.queue.size(),
                            {text::render(state.session.sentence_message), text::render(state.session.config_message),
                             text::render(state.session.unknown_note), text::render(state.session.model_note),
                             text::render(state.ui.status)},
                            state.session.sentence, state.results.trace ? state.results.trace->config.seq_len : 0,
                            state.results.query_tokens);
}

// One frame: the views, the shortcuts, ImGui's draw lists on screen. Returns what was asked.
Actions draw_and_swap(AppState& state, WindowParts& parts, int fb_w, int fb_h) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    feed_frame_input(parts.window, parts.keys);
    if (parts.keys.settle_frames > 0) --parts.keys.settle_frames;
    ImGui::NewFrame();
    const ImGuiIO& io = ImGui::GetIO();
    state.ui.playback.update(io.DeltaTime);
    // Shortcuts wait while a text field or a dialog has the keyboard.
    Actions actions;
    // Presenting (present_keys.h): the pointer follows the mouse while L is held.
    follow_pointer(state.ui.present, !io.WantTextInput && io.KeysDown[GLFW_KEY_L], io.MousePos.x, io.MousePos.y, glfwGetTime());
    if (!io.WantTextInput && state.jobs.dialog.kind == DialogState::Kind::None) {
        // The tour's keys first (tour_actions.h), then the presenter's (B, N, L, D, C, the pen's
        // keys), then a lesson's slide keys: the keys each one uses go no further.
        Actions tour = tour_key_actions(parts.keys.presses, state.tour);
        const Step* shown = state.results.step_at(state.ui.playback.step());
        state.ui.present.step_animates = !shown || shown->has_primary_source();
        const int count = parts.lesson ? static_cast<int>(parts.lesson->slides.size()) : 0;
        // The slide grid (G) takes every key while it is open.
        int slide = state.ui.present.grid && parts.lesson ? slide_grid_keys(parts.keys.presses, state.ui.present, count) : -1;
        if (!parts.lesson) state.ui.present.grid = false;
        presenter_keys(parts.keys.presses, state.ui, parts.lesson != nullptr, glfwGetTime());
        if (parts.lesson && slide < 0)
            slide = slide_key_target(parts.keys.presses, parts.slide_index, count, &state.ui.present.typed_slide);
        // Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y: the lesson's slide edits (lesson_edit.h).
        std::optional<LessonEdit> lesson_key = lesson_edit_keys(parts.keys.presses, state.jobs.lesson);
        actions = key_actions(parts.keys.presses, state.ui.playback, state.ui.presentation);
        actions.go_to_slide = slide;
        actions.lesson_edit = std::move(lesson_key);
        actions |= std::move(tour);
    }
    FrameContext ctx;
    ctx.cache = parts.cache.get();
    ctx.compare_b_cache = parts.compare_b_cache.get();
    ctx.difference_cache = parts.difference_cache.get();
    ctx.fonts = parts.fonts;
    ctx.scale = effective_scale(state, parts);
    ctx.computing = parts.worker.busy();
    ctx.now = glfwGetTime();
    ctx.thumbnails = parts.thumbnails.get();
    actions |= draw_frame(state, ctx);
    ImGui::Render();
    if (window_still_settling()) parts.keys.touched();
    report_for_tests(state, parts);
    gl::Framebuffer::bind_default(fb_w, fb_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    gl::clear_color(bg.x, bg.y, bg.z, 1.0f);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(parts.window);
    return actions;
}

// Idle (nothing moving, nothing computing): wait for input instead of redrawing. Idle for
// a second, the memory kept for the next trace goes back to the system. False: no frame to
// draw now (the browser's idle animation frames, x11_events.h).
struct IdleWatch {
    double last_busy = 0;
    bool released = false;
};
bool wait_for_work(const AppState& state, WindowParts& parts, IdleWatch& idle) {
    const bool busy = state.ui.playback.animating() || parts.worker.busy() || parts.compare_worker.busy() || state.jobs.export_progress.active ||
                      !state.ui.present.trail.empty() ||  // the pointer's trail fades
                      !parts.keys.queue.empty() || parts.keys.settle_frames > 0;
    bool draw = true;
    if (busy) poll_window_events();
    else draw = wait_window_events(0.5);
    if (full_screen_left_outside()) parts.full_screen.on = false;  // the browser's Esc
    if (busy) {
        idle = IdleWatch{glfwGetTime(), false};
    } else if (glfwGetTime() - idle.last_busy > 1.0 && !idle.released) {
        release_cached_storage();
        idle.released = true;
    }
    return draw;
}

// The window's size and, a moment after they change (not only at exit), the settings.
struct SettingsWatch {
    std::string saved;
    double last_check = 0;
};
void keep_settings(AppState& state, const WindowParts& parts, SettingsWatch& watch) {
    int w = 0, h = 0;
    glfwGetWindowSize(parts.window, &w, &h);
    if (!parts.full_screen.on && w > 0 && h > 0) {
        state.settings.window_width = w;
        state.settings.window_height = h;
    }
    if (glfwGetTime() - watch.last_check <= 2.0) return;
    watch.last_check = glfwGetTime();
    store_config_in_settings(state);
    const std::string now = serialize_settings(state.settings);
    if (now != watch.saved && save_settings(state.settings)) watch.saved = now;
    save_imgui_ini(parts.layout_file, false);
}

// A screen plugged in or out (GLFW's monitor callback): the list is read again.
std::atomic<bool> g_screens_changed{false};
void on_monitor(GLFWmonitor*, int) { g_screens_changed = true; }

// The monitors, read again after one was plugged in or out: a new one is offered in the
// status line (View > Present on screen lists it); nothing moves by itself.
void watch_screens(AppState& state, double now) {
    if (!g_screens_changed.exchange(false)) return;
    std::vector<ScreenInfo> now_connected = connected_screens();
    const std::vector<std::string> added = new_screens(state.ui.screens, now_connected);
    state.ui.screens = std::move(now_connected);
    if (!added.empty()) tell_presenter(state.ui, Message("screen.plugged_in", {{"name", added.front()}}), now);
}

// What one frame of the loop needs beyond the state and the window's parts.
struct FrameLoop {
    AppState& state;
    WindowParts& parts;
    IdleWatch idle;
    SettingsWatch settings;
};

// One turn of the frame loop; false once the window is to close.
bool one_frame(FrameLoop& loop) {
    AppState& state = loop.state;
    WindowParts& parts = loop.parts;
    if (glfwWindowShouldClose(parts.window) || g_stop_requested) return false;
    if (!wait_for_work(state, parts, loop.idle)) return true;
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(parts.window, &fb_w, &fb_h);
    if (fb_w <= 0 || fb_h <= 0 || glfwGetWindowAttrib(parts.window, GLFW_ICONIFIED)) {
        glfwWaitEventsTimeout(0.25);  // minimised or zero-sized: nothing to draw into
        return true;
    }
    take_news(state, parts);
    watch_screens(state, glfwGetTime());
    Actions actions = draw_and_swap(state, parts, fb_w, fb_h);
    // Presenting a lesson with a second monitor: the speaker's notes on the screen the
    // presentation is not on (notes_window.h), once it is full screen on its own.
    if (state.ui.presentation)
        open_notes_window_if_wanted(parts.notes, parts.window, state.ui.present, parts.content_scale * state.settings.ui_scale);
    draw_notes_window(parts.notes, parts.window, state.ui.present, glfwGetTime());
    // The new trace's step is on screen: now the other steps.
    if (state.results.model && !state.results.model->complete()) parts.worker.finish_model();
    finish_compare_models(state, parts);
    apply_actions(state, actions, parts, glfwGetTime());
    parts.exporter->continue_all(state, glfwGetTime());
    after_lesson_frame(state, parts, glfwGetTime());  // unsaved slides before quitting, thumbnails
    gl::Framebuffer::bind_default(fb_w, fb_h);
    keep_settings(state, parts, loop.settings);
    return true;
}

// The frames until the window closes (true), or, in the browser, handed to the page's
// animation frames (false: this returns at once and the state must stay alive).
bool run_frames(AppState& state, WindowParts& parts) {
    FrameLoop loop{state, parts, IdleWatch{glfwGetTime(), false}, SettingsWatch{serialize_settings(state.settings), glfwGetTime()}};
    return run_frame_loop([loop]() mutable { return one_frame(loop); });
}

}  // namespace

float effective_scale(const AppState& state, const WindowParts& parts) {
    return parts.content_scale * state.settings.ui_scale * (state.ui.presentation ? kPresentationTypeScale : 1.0f);
}

void post_request(AppState& state, WindowParts& parts, double now) {
    std::optional<ComputeRequest> request = make_request(state.session);
    if (!request) return;
    request->colour_scale = colour_scale_of(state.settings);
    request->overview = state.ui.canvas.overview;  // View > Overview: every layer's thumbnails too
    // The step on screen is built first; the others follow once it is drawn (finish_model).
    if (state.results.trace && state.ui.playback.step() < static_cast<int>(state.results.trace->steps.size()))
        request->focus_step = state.results.trace->steps[static_cast<size_t>(state.ui.playback.step())].id;
    state.results.posted_generation = parts.worker.post(std::move(*request));
    state.results.posted_time = now;
}

std::string starting_language(const std::string& option_language) {
    if (!option_language.empty()) return option_language;
    const std::string saved = load_settings().language;
    if (!saved.empty() && text::find_language(saved)) return saved;
    return text::language_from_environment();
}

namespace {

// --screen N: the monitor's name becomes the one presentation uses (and is remembered, as a
// pick in View > Present on screen is). False, with the line on stderr, when there is none.
bool take_screen_option(UiSettings& settings, int number) {
    if (number == 0) return true;
    const Result<int> index = screen_by_number(connected_screens(), number);
    if (!index) {
        std::fprintf(stderr, "attnviz: error: %s\n", text::render(index.message()).c_str());
        return false;
    }
    settings.present_screen = connected_screens()[static_cast<size_t>(index.value())].name;
    return true;
}

// `attnviz --lesson`: the lesson becomes the Lesson menu's, as if opened there (it can be
// saved, edited and exported), its first slide on screen and its slide keys on. Returns
// the request that computes the first slide.
ComputeRequest start_lesson(AppState& state, WindowParts& parts, lesson::OpenedLesson opened, const std::string& path, Message& notes) {
    take_opened_lesson(state.jobs.lesson, std::move(opened), path);
    const lesson::OpenedLesson& lesson = state.jobs.lesson.opened;
    parts.lesson = &state.jobs.lesson.opened;
    parts.lesson_stays = true;
    enter_slide(state.ui.present, lesson, 0);
    state.ui.present.minutes = lesson.lesson.minutes;
    // The slides' titles and notes, which the presenter shows, in the atlas from the start
    // (the speaker notes window builds its atlas once).
    for (const lesson::OpenedSlide& slide : lesson.slides) note_glyphs(slide.slide.title + slide.slide.note);
    notes = joined(std::move(notes), lesson.problems.empty() ? slide_status(lesson, 0) : lesson.problems.front());
    return apply_slide(state, lesson.slides.front());
}

// The window; with a `lesson`, on its first slide, the slide keys moving between slides.
int run_window_on(const io::Problem& initial, bool resume, const WindowStart& start, lesson::OpenedLesson* lesson,
                  const std::string& lesson_path) {
    glfwSetErrorCallback(nullptr);
    if (!glfwInit()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    // On the heap: in the browser the frames outlive this function (run_frames).
    auto owned_state = std::make_unique<AppState>();
    AppState& state = *owned_state;
    Message notes;  // shown in the status line once the window is up
    state.settings = load_settings(&notes);
    if (!take_screen_option(state.settings, start.screen)) {
        glfwTerminate();
        return 2;
    }
    choose_language(state.settings, start.language);
    // A lesson speaks its own language (assets/lessons/README.md) unless --lang said another;
    // the user's own choice in the settings stays for the next start without a lesson.
    if (lesson && start.language.empty()) text::set_language(lesson->lesson.language);
    state.ui.screens = connected_screens();
    glfwSetMonitorCallback(on_monitor);
    auto parts = std::make_unique<WindowParts>();
    parts->window = open_main_window(state.settings);
    if (!parts->window) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        glfwTerminate();
        return 2;
    }
    parts->content_scale = monitor_content_scale(parts->window);
    start_imgui(*parts, notes);
    ComputeRequest first = first_request(state, initial, resume, notes);
    if (lesson) first = start_lesson(state, *parts, std::move(*lesson), lesson_path, notes);
    state.ui.present.started = glfwGetTime();
    if (start.presentation) {  // --presentation: full screen on the chosen screen from the first frame
        state.ui.presentation = true;
        present_full_screen(state, *parts, glfwGetTime());
        notes = joined(std::move(notes), state.ui.present.notice);
    }
    state.ui.playback.set_speed(state.settings.speed);
    note_shown_glyphs(state);
    parts->fonts = load_fonts(effective_scale(state, *parts));
    notes = joined(std::move(notes), missing_cjk_font_note(text::active().code()));
    apply_theme(state.settings.light_theme, effective_scale(state, *parts));
    if (!notes.empty()) set_status(state.ui, notes, glfwGetTime());
    keep_freed_memory_for_reuse();
    state.results.posted_generation = parts->worker.post(std::move(first));
    state.results.posted_time = glfwGetTime();

    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    if (!run_frames(state, *parts)) {
        // The browser runs the frames from now on: the window and its state stay.
        owned_state.release();
        parts.release();
        return 0;
    }
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    close_tour(state);  // quitting during the tour saves the learner's own session, not the tour's
    store_config_in_settings(state);
    save_settings(state.settings);
    stop_imgui(*parts);
    GLFWwindow* window = parts->window;
    parts.reset();  // the worker stops before the context goes
    glfwDestroyWindow(window);
    gl::check_leaks_before_gl_shutdown();
    glfwTerminate();
    return 0;
}

}  // namespace

int run_window(const io::Problem& initial, bool resume, const WindowStart& start) {
    return run_window_on(initial, resume, start, nullptr, "");
}

int run_lesson_window(const std::string& lesson_path, const WindowStart& start) {
    auto fail = [](const Message& message) {
        std::fprintf(stderr, "attnviz: error: %s\n", text::render(message).c_str());
        return 2;
    };
    Result<lesson::OpenedLesson> opened = lesson::open_lesson(lesson_path);
    if (!opened) return fail(opened.message());
    for (const Message& problem : opened->problems) fail(problem);
    if (opened->slides.empty()) return fail(Message("lesson.none_open", {{"file", lesson_path}}));
    return run_window_on(opened->slides.front().problem, false, start, &opened.value(), lesson_path);
}

}  // namespace attn::gui
