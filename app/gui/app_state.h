// AppState: the UI state every view reads and edits. It owns no GL objects and
// never writes into a trace; a new trace arrives from the ComputeWorker.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/animation.h"
#include "app/gui/compute_worker.h"
#include "app/gui/display_model.h"
#include "app/gui/file_chooser.h"
#include "app/gui/settings.h"
#include "app/io/problem.h"

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

// The canvas's own UI state (which head is enlarged, which cell is hovered).
struct CanvasUi {
    int enlarged_head = -1;  // -1: all heads as small multiples (chosen in the head dropdown)
    int focus_head = 0;      // the head last clicked; its sources are shown beside the result
    // The head the operand panels follow: the enlarged one, else the one last clicked.
    int chosen_head() const { return enlarged_head >= 0 ? enlarged_head : focus_head; }
    CellRef hovered;         // under the mouse this frame
    CellRef pinned;          // clicked; the inspector shows it until another click
    float shown_w = 0, shown_h = 0;  // the canvas's size on screen last frame (canvas-only exports)
};

// The one dialog open at a time (file paths, export options, help).
struct DialogState {
    enum class Kind { None, OpenWeights, OpenQuery, OpenKey, OpenValue, ExportSnapshot, ExportAll, ExportTensors, ExportCsv, Keys };
    Kind kind = Kind::None;
    bool just_opened = false;
    std::string path;
    int scale_index = 0;      // 0: 1x, 1: 2x, 2: 4x
    bool canvas_only = true;
    std::string error;        // shown inside the dialog
    bool close = false;       // set by the window loop when the dialog's action succeeded
    bool refocus = false;     // put the keyboard back into the path field (after a failed try)
    std::string base;         // the folder relative paths start from (shown in the dialog)
    FileChooser chooser;      // the folder listing under the path field
    std::string question;     // "replace X?" / "create folder X?" awaiting an answer ("" when none)
    std::string question_path;  // the resolved path the question is about
    std::string create_folder;  // the one folder to create when the answer is yes
    std::string last_folder;  // where the previous export went (the next one starts there)
};

// "Export all steps" runs one step per frame so the window stays responsive.
struct ExportProgress {
    bool active = false;
    int next = 0, total = 0;
    std::string folder;
    int scale = 1;
    bool canvas_only = true;
};

struct AppState {
    UiSettings settings;

    // What the user edits. Only a validated copy is sent to the worker.
    AttentionConfig config;
    std::string sentence = "the cat sat on the mat";  // the box's text; '|' separates batch items
    std::string sentence_in_use = "the cat sat on the mat";  // the last text with words in every part
    std::string sentence_message;  // why the box's text is not used ("" when it is)
    bool tokens_from_sentence = true;
    std::vector<int> valid_lengths{4};  // key padding, per batch item: keys >= valid_lengths[b] are masked
    int batch_item = 0;            // which batch item is drawn
    io::ProblemSources sources;    // file paths (weights, query, key, value)
    std::string config_message;    // why the edited config cannot run ("" when fine)
    std::string cross_note;        // why turning cross-attention on changed the variant

    // What is drawn (the newest finished trace).
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const DisplayModel> model;
    std::vector<std::string> query_tokens, key_tokens;
    std::string compute_error;     // last failure, shown above the canvas
    double compute_ms = 0;
    bool model_changed = false;    // the window re-bakes textures when set
    uint64_t posted_generation = 0;
    double posted_time = 0;        // when the newest request was posted (for latency)
    double last_latency_ms = 0;    // posted -> drawn, of the last trace

    Playback playback;
    CanvasUi canvas;

    float pending_ui_scale = 0;    // the UI scale slider's value until it is released (0 = unset)
    bool presentation = false;     // full screen, controls hidden, large type
    bool show_storage = true;      // the storage strip under the canvas
    bool controls_open = false;    // narrow window: the folded controls are open over the canvas
    DialogState dialog;
    ExportProgress export_progress;
    std::string status;            // one-line message at the bottom (exports, errors)
    double status_time = 0;
};

// The tokens the worker embeds: the sentence's words, cut or padded ("t6", ...) to seq_len.
// With several sentences ('|'), the first one.
std::vector<std::string> effective_tokens(const AppState& state);
// Takes the box's text: seq_len follows the word count (1..1024); several sentences set
// B to their count, L to the longest and the padding mask's valid lengths to their
// lengths (switching an unmasked config to the padding mask when they differ). Text
// without words (or an empty sentence between bars) is not taken: the last valid
// sentence stays and sentence_message says why. Returns true when something changed.
bool follow_sentence(AppState& state);
// Valid length of batch item `b` (the last one given repeats, as on the command line).
int valid_length_of(const AppState& state, int b);
// Copies what the window shows (sizes, mask, sentence...) into the settings to be saved.
void store_config_in_settings(AppState& state);
// Fills config/sentence from the problem the command line built.
void init_from_problem(AppState& state, const io::Problem& problem);
// The request for the edited inputs, or an empty optional with state.config_message set.
std::optional<ComputeRequest> make_request(AppState& state);
// Takes the worker's newest result into the state (keeps the old trace on failure).
void accept_result(AppState& state, ComputeResult result, double now);
// The head whose operands are drawn beside step `sd`: the head of `active` (the animation's
// cursor or the hovered cell: a preview) when it has one, else the chosen head.
int operand_head(const CanvasUi& ui, const StepDisplay& sd, const CellRef& active);
// Short message for the status line.
void set_status(AppState& state, std::string message, double now);

}  // namespace attn::gui
