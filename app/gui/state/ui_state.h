// UiState: how the window is looked at, not what is computed: the playback position,
// the hovered and pinned cells, which panels are open, the status line.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/gui/display/animation.h"
#include "app/gui/display/annotations.h"
#include "app/gui/display/display_model.h"
#include "app/gui/display/follow.h"
#include "app/gui/display/layout.h"
#include "app/gui/display/overview.h"
#include "app/gui/display/weight_lines.h"
#include "app/gui/state/element_rects.h"
#include "app/gui/state/present_ui.h"
#include "app/gui/state/screens.h"
#include "app/lesson/lesson.h"
#include "core/message.h"

namespace attn::gui {

// One cell of one panel of one step (what the inspector talks about).
struct CellRef {
    // Which matrix of the step the cell is in: its result, or (projections drawn as
    // X W^T + b) a cell of X, of W^T (row = input feature, col = column of `panel`'s
    // group) or of b (col as for W^T).
    enum class Part : uint8_t { Result, Input, Weight, Bias };
    int step = -1, panel = -1, row = 0, col = 0;
    Part part = Part::Result;
    bool valid() const { return step >= 0 && panel >= 0; }
    bool operator==(const CellRef& o) const {
        return step == o.step && panel == o.panel && row == o.row && col == o.col && part == o.part;
    }
};

// The followed cell (Follow, display/follow.h) and its lineage in `trace`
// (state/follow_state.h keeps it current).
struct FollowUi {
    CellRef cell;                            // invalid: nothing followed
    CellRef menu_cell;                       // the cell a right click opened the canvas's menu on
    std::shared_ptr<const Lineage> lineage;  // of `cell` in `trace`; null when not computed
    std::weak_ptr<const Trace> trace;
};

// The canvas's own UI state (which head is enlarged, which cell is hovered).
struct CanvasUi {
    int enlarged_head = -1;  // -1: all heads as small multiples (chosen in the head dropdown)
    int focus_head = 0;      // the head last clicked; its sources are shown beside the result
    // The head the operand panels follow: the enlarged one, else the one last clicked.
    int chosen_head() const { return enlarged_head >= 0 ? enlarged_head : focus_head; }
    CellRef hovered;         // under the mouse this frame
    CellRef pinned;          // clicked; the inspector shows it until another click
    float shown_w = 0, shown_h = 0;  // the canvas's size on screen last frame (canvas-only exports)
    bool paint_mode = false;  // clicks on score/weight cells paint the mask (view_canvas_paint.h)
    // Screen y where the canvas's pictures end and its storage strip (or the window's
    // bottom) begins, this frame; 0 before the canvas is drawn. Overlays such as the
    // first-run hint sit above it instead of covering the strip.
    float pictures_bottom = 0;
    // The side of the main picture's cells this frame (min of width and height; 0 before
    // the canvas is drawn): what presentation mode's layout is judged by.
    float result_cell = 0;
    bool numbers_hidden = false;  // this frame's cells were too small for the step's numbers
    TokenRef lines_hovered, lines_pinned;  // the lines view's token under the mouse and the one clicked
    std::vector<int> lines_selected;       // queries Ctrl+clicked in the lines view: their weights summed
    std::vector<PlacedMatrix> placed;      // where this frame's matrices of cells are (the pen's drawings follow them)
    // Compare mode: each column drawn, A's, B's and A − B's in that order, with its
    // rectangle (caption included) and matrices (`placed` keeps A's, so a drawing stays on
    // A's cells); empty outside compare mode.
    struct Column {
        Rect rect;
        std::vector<PlacedMatrix> placed;
    };
    std::vector<Column> columns;
    // View > Overview (display/overview.h): every layer's heads as thumbnails instead of the picture.
    bool overview = false;
    std::vector<HeadRef> overview_selected;  // thumbnails Ctrl+clicked: their mean is shown too
    int overview_hovered = -1;               // the overview's cell under the mouse this frame, -1: none
    FollowUi follow;                       // the followed cell (Follow), highlighted in every step
    Rect storage_rect;                     // where the storage strip was drawn this frame (empty: not drawn)
};

// The code panel's own state (views/panels/view_code.h).
struct CodeUi {
    bool show = false;       // View > PyTorch code: the panel beside the canvas
    int hovered_line = -1;   // the module line under the mouse this frame, -1 for none
    int scrolled_step = -1;  // the step the highlight was last scrolled into view for ...
    float scrolled_h = 0;    // ... at this panel height (a resize scrolls again)
};

// The number field under a pinned `input` cell (view_input_editor.h).
struct InputEditUi {
    CellRef cell;          // the cell the text belongs to; another pin restarts the text
    int item = -1;         // and its batch item: another item on screen restarts it too
    std::string text;      // what the user is typing
    Message message;       // why the last value was refused (empty when it was taken)
};

// The lesson slide on screen (lesson_apply.h). Its view waits in `pending` until the
// slide's trace arrives; then `marks` keeps what the slide marks beyond the pinned cell
// (highlighted and followed cells, drawings) for the views that draw them.
struct LessonUi {
    std::optional<lesson::SlideView> pending;
    lesson::SlideView marks;
    int number = 0;            // the slide's number in its file, 0: no slide shown
    std::string title;
    // Lesson > Add / Update slide (capture_slide.h): the setup of the slide last applied and
    // what setup_of read back from the session it made; while the session still reads the
    // same, a captured slide keeps the slide's own wording.
    struct Applied {
        lesson::SlideSetup setup, as_setup;
    };
    std::optional<Applied> applied;
};

// Presentation mode draws everything this many times larger (the window and snapshots).
inline constexpr float kPresentationTypeScale = 1.5f;

struct UiState {
    Playback playback;
    CanvasUi canvas;
    InputEditUi input_edit;
    float pending_ui_scale = 0;    // the UI scale slider's value until it is released (0 = unset)
    bool presentation = false;     // full screen, controls hidden, large type
    bool show_storage = true;      // the storage strip under the canvas
    CodeUi code;                   // the PyTorch code beside the canvas
    bool controls_open = false;    // narrow window: the folded controls are open over the canvas
    Message status;                // one-line message at the bottom (exports, errors), rendered when drawn
    double status_time = 0;
    // The step to show when the next trace arrives (restored from the settings); "" for none.
    std::string resume_step;
    LessonUi lesson;               // the lesson slide on screen, if any
    PresentUi present;             // blank screen, note, pointer, pen (present_ui.h)
    ElementRects elements;         // where the window's parts were drawn this frame (a tour slide points at them)
    std::vector<ScreenInfo> screens;  // the monitors connected now (View > Present on screen)
};

// The head whose operands are drawn beside step `sd`: the head of `active` (the animation's
// cursor or the hovered cell: a preview) when it has one, else the chosen head.
int operand_head(const CanvasUi& ui, const StepDisplay& sd, const CellRef& active);
// Short message for the status line.
void set_status(UiState& ui, Message message, double now);
// The same, and over the picture in presentation mode (which has no status line).
void tell_presenter(UiState& ui, Message message, double now);

}  // namespace attn::gui
