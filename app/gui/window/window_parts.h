// What the running window owns besides the AppState: the GLFW window, its input queue,
// the compute worker, fonts and the GL objects of the canvas and of exports.
#pragma once

#include <memory>
#include <string>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/export/export_runner.h"
#include "app/gui/export/slide_thumbnails.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/window/key_input.h"
#include "app/gui/window/lesson_pictures.h"
#include "app/gui/window/notes_window.h"
#include "app/gui/window/window_setup.h"
#include "app/lesson/lesson.h"

struct GLFWwindow;

namespace attn::gui {

struct WindowParts {
    GLFWwindow* window = nullptr;
    KeyInput keys;
    FullScreen full_screen;
    ComputeWorker worker;
    ComputeWorker compare_worker;   // compare mode's B (state/compare.h)
    LessonPictures lesson_pictures; // Lesson > Export slides as pictures (a child process)
    Fonts fonts;
    bool rebuild_fonts = false;     // the atlas is rebuilt before the next frame
    float content_scale = 1.0f;     // the monitor's (not saved: it belongs to the monitor)
    std::string layout_file;        // imgui.ini ("" : none)
    lesson::OpenedLesson* lesson = nullptr;  // `attnviz --lesson`: its slides (the pen's drawings are kept in them)
    int slide_index = 0;            // with a lesson: the slide on screen
    bool lesson_stays = false;      // `--lesson`: the slide keys stay with it outside presentation mode too
    NotesWindow notes;              // presenting with a second monitor: the speaker's window
    std::unique_ptr<lesson::OpenedLesson> tour;  // Help > Tour's lesson, once opened (state/tour.h)
    // GL objects must die before the context: reset before it is destroyed.
    std::unique_ptr<HeatmapCache> cache = std::make_unique<HeatmapCache>();
    std::unique_ptr<HeatmapCache> compare_b_cache = std::make_unique<HeatmapCache>();
    std::unique_ptr<HeatmapCache> difference_cache = std::make_unique<HeatmapCache>();
    std::unique_ptr<ExportRunner> exporter = std::make_unique<ExportRunner>();
    std::unique_ptr<SlideThumbnails> thumbnails = std::make_unique<SlideThumbnails>();  // the slide list's pictures
};

// The type and drawing scale: the monitor's, the user's and presentation's larger type.
float effective_scale(const AppState& state, const WindowParts& parts);
// Posts the session's configuration to the worker (the step on screen is built first).
void post_request(AppState& state, WindowParts& parts, double now);

}  // namespace attn::gui
