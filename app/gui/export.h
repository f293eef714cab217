// Exports: PNG files (snapshots), the current step as CSV, and the whole trace through
// the io library. File errors come back as a Status with a message for the window.
#pragma once

#include <string>
#include <mutex>
#include <thread>
#include <vector>

#include "core/result.h"
#include "core/trace.h"

namespace attn::gui {

enum class ExportKind {
    SnapshotPng,  // the current step, one PNG
    AllStepsPng,  // one PNG per step into a folder
    TensorsDir,   // every tensor as .npy plus metadata (attn::io::write_trace_dir)
    StepCsv,      // the current step's tensor as CSV
};

struct ExportRequest {
    ExportKind kind = ExportKind::SnapshotPng;
    std::string path;          // file (SnapshotPng, StepCsv) or folder
    int scale = 1;             // 1, 2 or 4
    bool canvas_only = true;   // false: the whole window
};

// Creates `dir` if needed and checks a file can be written there.
Status ensure_writable_dir(const std::string& dir);
// Encodes RGBA8 (top row first) as PNG.
Status write_png(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba);
// Long-format CSV: one line per element, a column per named dimension, then the value.
std::string step_csv(const Step& step);
Status write_step_csv(const Step& step, const std::string& path);
// Writes every tensor of the trace into `dir` (through app/io when available).
Status write_trace_tensors(const Trace& trace, const std::string& dir);

// Encodes PNGs on background threads (PNG encoding is slow; the frame loop must not wait).
class PngEncoderPool {
public:
    ~PngEncoderPool();  // waits for every queued image
    void submit(std::string path, int width, int height, std::vector<unsigned char> rgba);
    // Waits for all images; returns the first failure (or ok).
    Status finish();

private:
    std::vector<std::thread> threads_;
    std::vector<std::string> errors_;
    std::mutex mutex_;
};

}  // namespace attn::gui
