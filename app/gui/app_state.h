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
#include "app/gui/settings.h"
#include "app/io/problem.h"

namespace attn::gui {

// One cell of one panel of one step (what the inspector talks about).
struct CellRef {
    int step = -1, panel = -1, row = 0, col = 0;
    bool valid() const { return step >= 0 && panel >= 0; }
    bool operator==(const CellRef& o) const {
        return step == o.step && panel == o.panel && row == o.row && col == o.col;
    }
};

// The canvas's own UI state (which head is enlarged, which cell is hovered).
struct CanvasUi {
    int enlarged_head = -1;  // -1: all heads as small multiples
    int focus_head = 0;      // the head whose sources are shown beside the result
    CellRef hovered;         // under the mouse this frame
    CellRef pinned;          // clicked; the inspector shows it until another click
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
    std::string sentence = "the cat sat on the mat";
    bool tokens_from_sentence = true;
    int valid_length = 4;          // key padding: keys >= this are masked (every batch item)
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
std::vector<std::string> effective_tokens(const AppState& state);
// Sets seq_len from the sentence's word count (1..1024).
void follow_sentence(AppState& state);
// Fills config/sentence from the problem the command line built.
void init_from_problem(AppState& state, const io::Problem& problem);
// The request for the edited inputs, or an empty optional with state.config_message set.
std::optional<ComputeRequest> make_request(AppState& state);
// Takes the worker's newest result into the state (keeps the old trace on failure).
void accept_result(AppState& state, ComputeResult result, double now);
// Short message for the status line.
void set_status(AppState& state, std::string message, double now);

}  // namespace attn::gui
