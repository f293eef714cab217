// What an export writes (state/actions.h carries it from the view that asked to the
// window loop, export/export_runner.h carries it out): plain data, so the state and the
// views can name a request without knowing how exports are drawn and written.
#pragma once

#include <string>

namespace attn::gui {

enum class ExportKind {
    SnapshotPng,  // the current step, one PNG
    AllStepsPng,  // one PNG per step into a folder
    TensorsDir,   // every tensor as .npy plus metadata (attn::io::write_trace_dir)
    StepCsv,      // the current step's tensor as CSV
    TorchDir,     // a runnable PyTorch script with weights, inputs and trace (attn::io::write_torch_export)
    Animation,    // the step animations as one GIF or MP4 (export/animation_export.h)
};

struct ExportRequest {
    ExportKind kind = ExportKind::SnapshotPng;
    std::string path;          // file (SnapshotPng, StepCsv) or folder
    int scale = 1;             // 1, 2 or 4
    bool canvas_only = true;   // false: the whole window
    bool mp4 = false;          // Animation: MP4 rather than GIF
    bool all_steps = false;    // Animation: every step rather than the one on screen
    bool replace = false;      // the user agreed to replace what is at `path`
    std::string create_folder; // the one missing folder the user agreed to create first
};

}  // namespace attn::gui
