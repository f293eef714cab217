// `attnviz snapshot`: its options and entry point, kept apart from the drawing code
// (snapshot.h) so the command line needs no GL or ImGui header.
#pragma once

#include <string>

#include "app/io/problem.h"

namespace attn::gui {

// `attnviz snapshot --animate`'s options (app/gui/export/snapshot_animation.cpp draws them).
struct AnimationOptions {
    std::string format;  // "" (PNG files), "gif" or "mp4"
    int fps = 0;  // 0: the format's own (media::default_fps: GIF 20, MP4 30)
    float speed = 1.0f;  // the window's playback speed: 2 plays twice as fast
};

// `attnviz snapshot`'s options (app/cli/cmd_snapshot.cpp fills them).
struct SnapshotOptions {
    std::string out_dir;
    std::string step = "all";   // "all", or step names separated by commas
    float progress = 1.0f;      // 0..1: the moment inside the step's animation
    int width = 1280, height = 720;
    int scale = 1;              // 1, 2 or 4
    std::string theme = "dark"; // dark | light
    bool presentation = false;  // presentation mode's layout and larger type (the P key)
    std::string view = "heatmap";  // weight steps as: heatmap | lines | both (View > Weights as)
    std::string layout = "slide";  // slide (title, canvas, explanation) | canvas | window
    AnimationOptions animation;    // --animate: one GIF or MP4 file at out_dir's path instead of PNGs
    std::string lesson;         // --lesson FILE: one picture per slide instead of per step
    std::string handout;        // --handout FILE.pdf with --lesson: a printable PDF, one page per slide
    bool overview = false;      // --overview: View > Overview's grid of every layer and head, as DIR/overview.png
    std::string compare;        // --compare "OPTIONS": B's options on top of A's; pictures of A | B | A − B
    std::string contrast;       // --contrast ID: the Compare menu's ready contrast, set up from these options
    int decode_step = 0;        // --decode-step K (with --decode-from P): decode step K instead of the prefill
};
// `attnviz snapshot`: writes DIR/NN_<step>.png, drawn by the same code as the window.
// Returns 0, or 2 with one line on stderr.
int run_snapshot(const io::Problem& problem, const SnapshotOptions& options);
// `attnviz snapshot --animate gif|mp4`: writes the steps' animations to the file
// options.out_dir names and prints one line saying what it wrote. Returns 0, or 2 with
// one line on stderr.
int run_animation_snapshot(const io::Problem& problem, const SnapshotOptions& options);
// `attnviz snapshot --lesson FILE`: writes DIR/NN_<slide title>.png for every slide that
// opens (NN its number in the file). A slide that does not open is one line on stderr
// and exit code 2, after the others are written.
int run_lesson_snapshot(const SnapshotOptions& options);
// `attnviz snapshot --animate gif|mp4 --lesson FILE`: every slide's step animation in
// order, as Play shows it from the slide's step's source, each slide's end held, into the
// one file options.out_dir names. Returns 0, or 2 with one line per problem on stderr.
int run_lesson_animation(const SnapshotOptions& options);
// `attnviz snapshot --lesson FILE --handout out.pdf`: one A4 page per slide (its picture
// at print resolution, title, note, formula and explanation) in the lesson's language.
// Prints one line naming the file; returns 0, or 2 with one line per problem on stderr.
int run_lesson_handout(const SnapshotOptions& options);

}  // namespace attn::gui
