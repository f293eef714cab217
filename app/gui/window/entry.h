// Entry points of the ImGui front end, called from app/main.cpp.
// Each returns a process exit code: 0 success, 2 bad input (message already on stderr).
#pragma once

#include <string>

#include "app/io/problem.h"

namespace attn::gui {

// The interactive window (`attnviz` with no subcommand). `initial` is the starting
// problem (default sentence and sizes, or what the command line gave). `resume`: the
// command line gave no configuration, so the saved one (with its sentence and step)
// comes back when it passes validation. `language`: the code --lang gave ("" : the one
// saved in the settings, else the system locale's).
// The language the window starts in: `option_language` (--lang) when given, else the one
// picked before (settings.ini), else the system locale's ("" = English).
std::string starting_language(const std::string& option_language);

// How the window starts besides what it computes: --lang, --screen and --presentation.
struct WindowStart {
    std::string language;       // the code --lang gave ("" : see above)
    int screen = 0;             // --screen N: present on monitor N (from 1); 0: not given
    bool presentation = false;  // --presentation: start in presentation mode, full screen on that screen
};
int run_window(const io::Problem& initial, bool resume, const WindowStart& start = {});
// `attnviz --lesson FILE`: the window on the lesson's first slide; Right / Page Down and
// Left / Page Up move between its slides. A slide that does not open is a line on stderr
// (and in the status line); a file that is no lesson, or has no slide that opens, is
// exit code 2 before any window appears. The lesson is open in the Lesson menu (saved,
// edited, presented as one opened there) and the window speaks its language unless
// --lang says otherwise. --screen N with no monitor N is exit code 2 too.
int run_lesson_window(const std::string& lesson_path, const WindowStart& start = {});

// `attnviz bench --render` is declared in render_bench.h.

}  // namespace attn::gui
