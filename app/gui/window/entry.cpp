// run_window: the interactive window, in the spirit of ImGui's GLFW + OpenGL3 example:
// set-up, state, then poll -> new frame -> draw -> render -> swap, clean-up in reverse.
// (run_snapshot is in snapshot.cpp, run_render_bench in render_bench.cpp.)
#include <epoxy/gl.h>

#include "app/gui/window/entry.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <iterator>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "app/gui/state/app_state.h"
#include "app/gui/window/cjk_font.h"
#include "app/gui/compute/compute_worker.h"
#include "app/gui/export/export.h"
#include "app/gui/export/export_runner.h"
#include "app/gui/window/fonts_theme.h"
#include "app/gui/window/frame.h"
#include "app/gui/gl/gl_objects.h"
#include "app/gui/gl/leak_check.h"
#include "app/gui/gl/headless.h"
#include "app/gui/window/imgui_ini.h"
#include "app/gui/window/input_queue.h"
#include "app/gui/window/x11_events.h"
#include "app/gui/window/key_actions.h"
#include "app/gui/display/layout.h"
#include "app/gui/export/snapshot.h"
#include "app/gui/window/test_hook.h"
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

struct FullScreen {
    bool on = false;
    int x = 100, y = 100, w = 1440, h = 900;  // the windowed placement to return to
};

void set_full_screen(GLFWwindow* window, FullScreen& fs, bool on) {
    if (on == fs.on) return;
    if (on) {
        glfwGetWindowPos(window, &fs.x, &fs.y);
        glfwGetWindowSize(window, &fs.w, &fs.h);
        GLFWmonitor* monitor = glfwGetPrimaryMonitor();
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (!mode) return;
        glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        // Back to the placement before full screen, but never to a window too small to use
        // (it may have been dragged down to a few pixels before).
        glfwSetWindowMonitor(window, nullptr, fs.x, fs.y, std::max(fs.w, 640), std::max(fs.h, 480), 0);
    }
    fs.on = on;
}

// Keyboard events wait in an InputQueue (see input_queue.h for why) and reach ImGui's
// GLFW backend a frame at a time, always before NewFrame.
struct KeyInput {
    InputQueue queue;
    bool mouse_down[5] = {};  // buttons as the queue has delivered them so far
    std::vector<std::pair<int, int>> presses;  // (key, mods) fed this frame, for app shortcuts
    // Frames still to draw after the last input even when nothing else moves: ImGui sizes
    // a window that just appeared (a dialog, its error line) a frame or two after it is
    // submitted, and an idle window that waited for events would show it cut off.
    int settle_frames = 0;
    void touched() { settle_frames = 3; }
};

bool is_modifier_key(int key) {
    constexpr int kModifiers[] = {GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT,
                                  GLFW_KEY_LEFT_ALT,     GLFW_KEY_RIGHT_ALT,     GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER};
    return std::find(std::begin(kModifiers), std::end(kModifiers), key) != std::end(kModifiers);
}

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    auto* input = static_cast<KeyInput*>(glfwGetWindowUserPointer(window));
    if (!input) return;
    input->touched();
    input->queue.push(InputEvent::key_event(key, scancode, action, mods, action == GLFW_RELEASE, is_modifier_key(key)));
}

void on_mouse_button(GLFWwindow* window, int button, int action, int mods) {
    auto* input = static_cast<KeyInput*>(glfwGetWindowUserPointer(window));
    if (!input) return;
    input->touched();
    input->queue.push(InputEvent::mouse_event(button, action, mods, action == GLFW_RELEASE));
}

void on_char(GLFWwindow* window, unsigned int codepoint) {
    auto* input = static_cast<KeyInput*>(glfwGetWindowUserPointer(window));
    if (!input) return;
    input->touched();
    input->queue.push(InputEvent::char_event(codepoint));
}

// The pointer, the wheel and the window's size only need the frames to keep coming; ImGui's
// backend reads the pointer itself, and the wheel still goes to it.
void on_cursor_pos(GLFWwindow* window, double, double) {
    if (auto* input = static_cast<KeyInput*>(glfwGetWindowUserPointer(window))) input->touched();
}
void on_scroll(GLFWwindow* window, double dx, double dy) {
    if (auto* input = static_cast<KeyInput*>(glfwGetWindowUserPointer(window))) input->touched();
    ImGui_ImplGlfw_ScrollCallback(window, dx, dy);
}
void on_window_size(GLFWwindow* window, int, int) {
    if (auto* input = static_cast<KeyInput*>(glfwGetWindowUserPointer(window))) input->touched();
}

// After the backend's NewFrame and before ImGui's: this frame's share of the queued events
// goes to ImGui's backend, which sets io.KeysDown, io.KeyCtrl... and the text queue exactly
// as if they had just arrived. Mouse buttons are set here too, overriding the backend's
// live reading, so a quick click is down for one whole frame and up in the next.
void feed_frame_input(GLFWwindow* window, KeyInput& input) {
    input.presses.clear();
    for (const InputEvent& e : input.queue.take_frame()) {
        if (e.kind == InputEvent::Kind::Char) {
            ImGui_ImplGlfw_CharCallback(window, e.codepoint);
            continue;
        }
        if (e.kind == InputEvent::Kind::MouseButton) {
            if (e.key >= 0 && e.key < IM_ARRAYSIZE(input.mouse_down)) input.mouse_down[e.key] = !e.is_release;
            continue;
        }
        ImGui_ImplGlfw_KeyCallback(window, e.key, e.scancode, e.action, e.mods);
        if (!e.is_release) input.presses.emplace_back(e.key, e.mods);
    }
    ImGuiIO& io = ImGui::GetIO();
    for (int b = 0; b < IM_ARRAYSIZE(input.mouse_down); ++b) io.MouseDown[b] = input.mouse_down[b];
}

// The monitor's content scale (2 on a HiDPI screen), so type is readable at any DPI
// before the user touches the UI scale control. Not saved: it belongs to the monitor.
float g_content_scale = 1.0f;

float monitor_content_scale(GLFWwindow* window) {
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window, &x, &y);
    return std::clamp(std::max(x, y), 0.5f, 4.0f);
}

float effective_scale(const AppState& state) {
    return g_content_scale * state.settings.ui_scale * (state.ui.presentation ? kPresentationTypeScale : 1.0f);
}

void post_request(AppState& state, ComputeWorker& worker) {
    std::optional<ComputeRequest> request = make_request(state.session);
    if (!request) return;
    request->colour_scale = colour_scale_of(state.settings);
    // The step on screen is built first; the others follow once it is drawn (finish_model).
    if (state.results.trace && state.ui.playback.step() < static_cast<int>(state.results.trace->steps.size()))
        request->focus_step = state.results.trace->steps[static_cast<size_t>(state.ui.playback.step())].id;
    state.results.posted_generation = worker.post(std::move(*request));
    state.results.posted_time = glfwGetTime();
}

}  // namespace

std::string starting_language(const std::string& option_language) {
    if (!option_language.empty()) return option_language;
    const std::string saved = load_settings().language;
    if (!saved.empty() && text::find_language(saved)) return saved;
    return text::language_from_environment();
}

int run_window(const io::Problem& initial, bool resume, const std::string& language) {
    glfwSetErrorCallback(nullptr);
    if (!glfwInit()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    AppState state;
    Message settings_problem;  // shown in the status line once the window is up
    state.settings = load_settings(&settings_problem);
    // The language: --lang (remembered, as a pick in View > Language is), else the one
    // picked before, else the system locale's. One this binary lacks (a file removed
    // since) counts as none picked.
    if (!language.empty()) state.settings.language = language;
    if (!text::set_language(state.settings.language)) {
        state.settings.language.clear();
        text::set_language(text::language_from_environment());
    }

    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // WM_CLASS "attnviz", the desktop entry's StartupWMClass (packaging/attnviz.desktop.in):
    // the dock shows the installed icon for the window instead of a second, generic one.
    glfwWindowHintString(GLFW_X11_CLASS_NAME, "attnviz");
    glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "attnviz");
    // The saved (or default 1440x900) size, shrunk to the monitor's work area.
    Rect work{};
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
        int wx = 0, wy = 0, ww = 0, wh = 0;
        glfwGetMonitorWorkarea(monitor, &wx, &wy, &ww, &wh);
        work = Rect{static_cast<float>(wx), static_cast<float>(wy), static_cast<float>(ww), static_cast<float>(wh)};
    }
    const Rect first_place = fit_window(state.settings.window_width, state.settings.window_height, work);
    GLFWwindow* window = glfwCreateWindow(static_cast<int>(first_place.w), static_cast<int>(first_place.h),
                                          text::tr("window.title"), nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        glfwTerminate();
        return 2;
    }
    if (work.w > 0.0f) {
        // The title bar and borders count too: the whole frame must fit the work area.
        int fl = 0, ft = 0, fr = 0, fb = 0;
        glfwGetWindowFrameSize(window, &fl, &ft, &fr, &fb);
        const Rect framed = fit_window(static_cast<int>(first_place.w) + fl + fr, static_cast<int>(first_place.h) + ft + fb, work);
        glfwSetWindowSize(window, static_cast<int>(framed.w) - fl - fr, static_cast<int>(framed.h) - ft - fb);
        glfwSetWindowPos(window, static_cast<int>(framed.x) + fl, static_cast<int>(framed.y) + ft);
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    g_content_scale = monitor_content_scale(window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    // Layout and settings live in the XDG config folder, never the working directory.
    const std::string dir = config_dir();
    static std::string ini_path;
    io.IniFilename = nullptr;  // never the working directory
    if (!dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (std::filesystem::is_directory(dir, ec)) {
            ini_path = dir + "/imgui.ini";
            // Read and written by imgui_ini.cpp (checked, atomic), not by ImGui itself.
            Message ini_problem = load_imgui_ini(ini_path);
            if (!ini_problem.empty()) settings_problem = joined(std::move(settings_problem), std::move(ini_problem));
        }
    }
    KeyInput keys;
    glfwSetWindowUserPointer(window, &keys);
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    // Keys, text and mouse buttons go through the queue; the cursor position, focus and
    // scroll stay with the backend (the callbacks below only note that input came).
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_mouse_button);
    glfwSetCharCallback(window, on_char);
    glfwSetCursorPosCallback(window, on_cursor_pos);
    glfwSetScrollCallback(window, on_scroll);
    glfwSetWindowSizeCallback(window, on_window_size);
    ImGui_ImplOpenGL3_Init("#version 330");

    init_from_problem(state.session, initial);
    // With no configuration on the command line, the lesson resumes where it stopped.
    std::optional<ComputeRequest> resumed;
    if (resume && state.settings.has_session) {
        Message note = restore_saved_session(state);
        if (note.empty()) {
            resumed = make_request(state.session);
            // The step the lesson stopped on is built first.
            if (resumed) resumed->focus_step = parse_step_name(state.ui.resume_step);
        } else {
            settings_problem = joined(std::move(settings_problem), std::move(note));
        }
    }
    state.ui.playback.set_speed(state.settings.speed);
    note_shown_glyphs(state);
    Fonts fonts = load_fonts(effective_scale(state));
    settings_problem = joined(std::move(settings_problem), missing_cjk_font_note(text::active().code()));
    apply_theme(state.settings.light_theme, effective_scale(state));

    if (!settings_problem.empty()) set_status(state.ui, settings_problem, glfwGetTime());

    keep_freed_memory_for_reuse();
    ComputeWorker worker;
    ComputeRequest first;
    if (resumed) first = std::move(*resumed);
    else first.prebuilt = std::make_shared<const io::Problem>(initial);
    first.colour_scale = colour_scale_of(state.settings);
    state.results.posted_generation = worker.post(std::move(first));
    state.results.posted_time = glfwGetTime();
    // GL objects must die before the context: they live in these and are reset below.
    auto cache_owner = std::make_unique<HeatmapCache>();
    auto exporter_owner = std::make_unique<ExportRunner>();
    HeatmapCache& cache = *cache_owner;
    ExportRunner& exporter = *exporter_owner;
    FullScreen fs;
    bool rebuild_fonts = false;

    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    std::string saved_settings = serialize_settings(state.settings);
    double last_settings_check = glfwGetTime();
    double last_busy = glfwGetTime();
    bool released_since_busy = false;
    while (!glfwWindowShouldClose(window) && !g_stop_requested) {
        // Idle (nothing moving, nothing computing): wait for input instead of redrawing.
        const bool busy = state.ui.playback.animating() || worker.busy() || state.jobs.export_progress.active ||
                          !keys.queue.empty() || keys.settle_frames > 0;
        if (busy) poll_window_events();
        else wait_window_events(0.5);
        // Idle for a second: the memory kept for the next trace (the block cache and the
        // heap's free pages, see keep_freed_memory_for_reuse) goes back to the system.
        if (busy) {
            last_busy = glfwGetTime();
            released_since_busy = false;
        } else if (glfwGetTime() - last_busy > 1.0 && !released_since_busy) {
            release_cached_storage();
            released_since_busy = true;
        }
        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(window, &fb_w, &fb_h);
        if (fb_w <= 0 || fb_h <= 0 || glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
            glfwWaitEventsTimeout(0.25);  // minimised or zero-sized: nothing to draw into
            continue;
        }
        if (std::optional<ComputeResult> result = worker.take()) accept_result(state, std::move(*result), glfwGetTime());
        if (std::optional<CompletedModel> done = worker.take_model(); done && done->trace == state.results.trace) {
            state.results.model = std::move(done->model);
            cache.adopt_completed(state.results.model);  // textures already baked stay
        }
        if (const float scale = monitor_content_scale(window); scale != g_content_scale) {  // moved to another monitor
            g_content_scale = scale;
            rebuild_fonts = true;
        }
        // A character typed or loaded that the atlas lacks: the atlas grows by it.
        if (note_shown_glyphs(state)) rebuild_fonts = true;
        if (state.results.model_changed) {
            cache.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
            state.results.model_changed = false;
        }
        if (rebuild_fonts) {
            fonts = load_fonts(effective_scale(state));
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
            apply_theme(state.settings.light_theme, effective_scale(state));
            rebuild_fonts = false;
        }

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        feed_frame_input(window, keys);
        if (keys.settle_frames > 0) --keys.settle_frames;
        ImGui::NewFrame();
        state.ui.playback.update(io.DeltaTime);
        // Shortcuts wait while a text field or a dialog has the keyboard.
        Actions actions;
        if (!io.WantTextInput && state.jobs.dialog.kind == DialogState::Kind::None)
            actions = key_actions(keys.presses, state.ui.playback, state.ui.presentation);

        FrameContext ctx;
        ctx.cache = &cache;
        ctx.fonts = fonts;
        ctx.scale = effective_scale(state);
        ctx.computing = worker.busy();
        ctx.now = glfwGetTime();
        actions |= draw_frame(state, ctx);
        if (actions.config_changed) post_request(state, worker);
        if (actions.scale_changed || actions.language_changed) rebuild_fonts = true;
        if (actions.language_changed) {
            glfwSetWindowTitle(window, text::tr("window.title"));
            if (Message note = missing_cjk_font_note(text::active().code()); !note.empty()) set_status(state.ui, note, glfwGetTime());
        }


        if (actions.theme_changed) {
            apply_theme(state.settings.light_theme, effective_scale(state));
            cache.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
        }
        if (actions.toggle_fullscreen) set_full_screen(window, fs, !fs.on);
        if (actions.toggle_presentation) {
            state.ui.presentation = !state.ui.presentation;
            set_full_screen(window, fs, state.ui.presentation);
            rebuild_fonts = true;
        }
        if (actions.leave_fullscreen) set_full_screen(window, fs, false);
        if (actions.quit) glfwSetWindowShouldClose(window, GLFW_TRUE);

        ImGui::Render();
        report_layout_for_tests(keys.queue.size(), {text::render(state.session.sentence_message),
                                                    text::render(state.session.config_message), text::render(state.session.unknown_note),
                                                    text::render(state.session.model_note),
                                                    text::render(state.ui.status)},
                                state.session.sentence,
                                state.results.trace ? state.results.trace->config.seq_len : 0);  // test-only, see test_hook.h
        gl::Framebuffer::bind_default(fb_w, fb_h);
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        gl::clear_color(bg.x, bg.y, bg.z, 1.0f);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        glfwSwapBuffers(window);
        // The new trace's step is on screen: now the other steps.
        if (state.results.model && !state.results.model->complete()) worker.finish_model();

        int win_w = 0, win_h = 0;
        glfwGetWindowSize(window, &win_w, &win_h);
        if (actions.export_request) exporter.start(state, *actions.export_request, win_w, win_h, glfwGetTime());
        if (actions.cancel_export) exporter.cancel(state, glfwGetTime());
        exporter.continue_all(state, glfwGetTime());
        gl::Framebuffer::bind_default(fb_w, fb_h);
        if (!fs.on && win_w > 0 && win_h > 0) {
            state.settings.window_width = win_w;
            state.settings.window_height = win_h;
        }
        // Settings are written a moment after they change, not only at exit.
        if (glfwGetTime() - last_settings_check > 2.0) {
            last_settings_check = glfwGetTime();
            store_config_in_settings(state);
            const std::string now = serialize_settings(state.settings);
            if (now != saved_settings && save_settings(state.settings)) saved_settings = now;
            save_imgui_ini(ini_path, false);
        }
    }
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);

    store_config_in_settings(state);
    save_settings(state.settings);
    save_imgui_ini(ini_path, true);
    exporter_owner.reset();
    cache_owner.reset();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    gl::check_leaks_before_gl_shutdown();
    glfwTerminate();
    return 0;
}

}  // namespace attn::gui
