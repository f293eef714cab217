// A lesson: a title, a language and an ordered list of slides, each holding everything
// needed to put one screen of AttnViz back (what is computed, what is shown, what is
// marked on it, and what the teacher says). The file format is JSON, documented in
// assets/lessons/README.md. Display-free: the window applies a slide
// (app/gui/lesson_apply.h), the command line renders one (`attnviz snapshot --lesson`).
//
//   read_lesson   JSON text -> Lesson, keeping the slides that are right and one
//                 message per slide that is not ("slide 4: "step": unknown step ...")
//   write_lesson  Lesson -> JSON text (read_lesson gives the same Lesson back)
//   slide_problem a slide's configuration -> io::Problem, through the command line's
//                 own parser (app/options/config_options.h) and field table
//   open_lesson   a file: read, then every slide resolved and checked
#pragma once

#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/io/problem.h"
#include "core/message.h"
#include "core/result.h"
#include "core/step_id.h"

namespace attn::lesson {

// The format's version this reader and writer speak; a file with a larger one is refused.
inline constexpr int kLessonVersion = 1;
// A lesson is prose and a few numbers; anything larger is not a lesson.
inline constexpr size_t kMaxLessonBytes = size_t{4} << 20;
inline constexpr size_t kMaxSlides = 200;
// Points of one drawn stroke, annotations of one slide, marked cells of one slide.
inline constexpr size_t kMaxStrokePoints = 4096;
inline constexpr size_t kMaxAnnotations = 256;
inline constexpr size_t kMaxCells = 1024;

// Which matrix of a step a cell is in (the window's CellRef::Part): the step's result, or,
// for a projection drawn as X W^T + b, a cell of X, of W^T or of b.
enum class CellPart { Result, Input, Weight, Bias };

// One cell of one panel of one step, as the canvas numbers them: `panel` is the panel's
// position in the step (for a step drawn per head, the head), row and col count from 0.
struct CellAnchor {
    StepId step = StepId::Input;
    int panel = 0, row = 0, col = 0;
    CellPart part = CellPart::Result;
    bool operator==(const CellAnchor& o) const {
        return step == o.step && panel == o.panel && row == o.row && col == o.col && part == o.part;
    }
};

// A drawing on a slide, anchored to a cell so it stays on the same numbers at any window
// size: each point is (x, y) in cells from the anchor cell's top-left corner, x along the
// columns and y along the rows ((0.5, 0.5) is the cell's centre).
struct Annotation {
    enum class Kind { Stroke, Arrow };  // freehand, or a straight arrow from its first point to its last
    Kind kind = Kind::Stroke;
    int colour = 0;                     // one of the pen's kPenColours, by position
    CellAnchor cell;
    std::vector<std::array<float, 2>> points;
    bool operator==(const Annotation& o) const {
        return kind == o.kind && colour == o.colour && cell == o.cell && points == o.points;
    }
};

// The pen's colours, as the file names them (by position: Annotation::colour).
inline constexpr std::array<const char*, 4> kPenColours = {"red", "yellow", "green", "blue"};
// The panels a slide can open or close, as the file names them.
inline constexpr std::array<const char*, 2> kPanelNames = {"storage", "code"};
// The parts of the window a slide can point at ("highlight"), as the file names them; the
// window's views record their rectangles under these IDs (app/gui/state/element_rects.h).
inline constexpr std::array<const char*, 8> kElementIds = {"menu",        "controls",  "timeline", "canvas",
                                                           "storage",     "inspector", "code",     "explanation"};

// An option as the slide gives it: the command line's value text ("4", "causal", "0.1")
// or a flag (true: given; false: left out).
struct OptionValue {
    enum class Kind { Flag, Number, Text };
    Kind kind = Kind::Text;
    std::string text;  // a flag's is "true" or "false"
    bool operator==(const OptionValue& o) const { return kind == o.kind && text == o.text; }
};

// What a slide computes: a trained model or a recipe (or neither: the seeded random
// weights), then the command line's options on top, by long name without "--".
struct SlideSetup {
    std::string model;                       // "tiny-lm", or a card's path (relative to the lesson)
    std::string recipe;                      // "llama"
    std::optional<std::string> sentence;     // --tokens; none: the model's, recipe's or default input
    std::optional<int> layer;                // --layer (with a model)
    std::map<std::string, OptionValue> options;  // {"num-heads": "4", "rope": flag}
    // With a next-token model: `generate` tokens generated after the sentence (--generate N),
    // each drawn as `sampling` says (--temperature, --top-k, --top-p, --sample-seed;
    // core/model/sampling.h); 0: the sentence alone. SlideView::decode_step picks the step shown.
    int generate = 0;
    SamplingSettings sampling;
    bool operator==(const SlideSetup& o) const {
        return model == o.model && recipe == o.recipe && sentence == o.sentence && layer == o.layer && options == o.options &&
               generate == o.generate && sampling.temperature == o.sampling.temperature && sampling.top_k == o.sampling.top_k &&
               sampling.top_p == o.sampling.top_p && sampling.seed == o.sampling.seed;
    }
};

// How the screen looks: which step, head and moment, what is marked, which panels are open.
struct SlideView {
    std::optional<StepId> step;          // none: the first step
    int head = -1;                       // the enlarged head; -1: every head side by side
    int batch_item = 0;
    float moment = 1.0f;                 // 0..1 inside the step's animation (1: finished)
    // With the option decode-from P, or `generate` N (SlideSetup): the generation's step shown
    // (0 the prefill, k the row P + k - 1), as the window's token strip chooses it.
    int decode_step = 0;
    std::optional<CellAnchor> pinned;    // the inspector's cell
    std::optional<CellAnchor> followed;  // the cell followed through the steps
    std::vector<CellAnchor> highlighted;
    std::vector<Annotation> annotations;
    std::map<std::string, bool> panels;  // kPanelNames given by the slide; the others stay as they are
    std::vector<std::string> elements;   // kElementIds the slide points at ("highlight"): a tour slide
    bool operator==(const SlideView& o) const {
        return step == o.step && head == o.head && batch_item == o.batch_item && moment == o.moment &&
               decode_step == o.decode_step && pinned == o.pinned &&
               followed == o.followed && highlighted == o.highlighted && annotations == o.annotations && panels == o.panels &&
               elements == o.elements;
    }
};

struct Slide {
    int number = 0;  // its place in the file, from 1 (messages and file names use it)
    std::string title;
    std::string note;  // the speaker note
    SlideSetup setup;
    SlideView view;
    bool operator==(const Slide& o) const {
        return number == o.number && title == o.title && note == o.note && setup == o.setup && view == o.view;
    }
};

// The longest lesson "minutes" may give (a school day).
inline constexpr int kMaxLessonMinutes = 600;
// Drawn points are kept in files at 1/kPointsPerCell of a cell (finer than a pixel at any size).
inline constexpr float kPointsPerCell = 100.0f;
// A drawn point's coordinate on that grid. The reader and the writer both apply it, so a
// lesson read, written and read again is the same lesson. Worked in double so it is exact
// to apply twice: snap_to_grid(snap_to_grid(x)) == snap_to_grid(x) for every float x.
inline float snap_to_grid(float cells) {
    return static_cast<float>(std::round(static_cast<double>(cells) * kPointsPerCell) / kPointsPerCell);
}

struct Lesson {
    int version = kLessonVersion;
    std::string title;
    std::string language = "en";  // a code of assets/lang ("en", "zh-Hans", "zh-Hant")
    int minutes = 0;              // how long the lesson should take (the presenter's countdown); 0: not said
    std::vector<Slide> slides;
    bool operator==(const Lesson& o) const {
        return version == o.version && title == o.title && language == o.language && minutes == o.minutes && slides == o.slides;
    }
};

// A lesson as read: the slides that are right, and a message for each one that is not
// (or for a lesson field that is wrong).
struct LessonRead {
    Lesson lesson;
    std::vector<Message> problems;
};

// Parses a lesson's JSON text; `name` (the file's name) starts the messages about the
// whole file. Fails when nothing of it can be a lesson (not UTF-8, not JSON, too large,
// no slides list, a newer version); a wrong slide is left out with its message.
Result<LessonRead> read_lesson(const std::string& json_text, const std::string& name);
// The lesson as JSON text (two-space indent, fields in the documented order; each drawing on
// one line, its points rounded to 1/kPointsPerCell of a cell).
std::string write_lesson(const Lesson& lesson);

// The command-line arguments the slide's setup stands for ("--model=tiny-lm", "--rope", ...).
std::vector<std::string> setup_arguments(const SlideSetup& setup);
// The options that take `config` from `base` (a recipe's or the defaults): one per field of
// the configuration's field table whose command-line text differs. For "Add slide".
std::map<std::string, OptionValue> options_from(const AttentionConfig& config, const AttentionConfig& base);

// Builds what the slide computes, as the command line would with setup_arguments();
// relative paths are taken from `base_dir` (the lesson's folder). Also checks that the
// head and batch item exist. The message names the slide and the field.
Result<io::Problem> slide_problem(const Slide& slide, const std::string& base_dir = "");
// After the slide's trace is computed: the step it names is one the trace records.
Status check_slide_step(const Slide& slide, const std::vector<StepId>& recorded);

// A slide ready to show: what it says and what it computes.
struct OpenedSlide {
    Slide slide;
    io::Problem problem;
};
struct OpenedLesson {
    Lesson lesson;                     // every slide read (its slides may include refused ones)
    std::vector<OpenedSlide> slides;   // the slides that open, in order
    std::vector<Message> problems;     // one per slide that does not, in order
};
// Reads the file, resolves every slide and computes its trace once to check its step.
// Fails only when the file itself cannot be a lesson; a lesson without any slide that
// opens is returned with its problems (the caller decides).
Result<OpenedLesson> open_lesson(const std::string& path);

// "04_Scores_and_weights.png": the slide's number (two digits at least) and its title with
// what a file name cannot hold replaced by '_' (other scripts' letters are kept), cut
// to a few dozen characters.
std::string slide_file_name(const Slide& slide);

// The message for a field of a slide: "slide {slide}: \"{field}\": {why}".
Message slide_error(int slide, const std::string& field, Message why);

}  // namespace attn::lesson
