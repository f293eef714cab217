// Exports: PNG files (snapshots), the current step as CSV, and the whole trace through
// the io library. File errors come back as a Status with a message for the window.
#pragma once

#include <string>
#include <vector>

#include "app/gui/export/png_encoder.h"
#include "app/gui/state/export_request.h"  // ExportRequest, ExportKind
#include "core/result.h"
#include "core/trace.h"

namespace attn::gui {

// Labels of the trace's token axes: "L" rows are query tokens, "S" rows key tokens.
struct TokenLabels {
    std::vector<std::string> query;  // (L)
    std::vector<std::string> key;    // (S); equal to query for self-attention
};

// Creates `dir` if needed and checks a file can be written there.
Status ensure_writable_dir(const std::string& dir);
// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so a
// failed or interrupted export never leaves a half-written file.
Status write_file_atomic(const std::string& path, const std::string& bytes);
// Encodes RGBA8 (top row first) as PNG (written atomically).
Status write_png(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba);
// The step as matrices a spreadsheet opens: one block per index of the leading dims
// ("# B=0, H=1"), a header row naming the last axis's entries (token strings on L and
// S axes, else 0, 1, ...), each row starting with its token string or index.
std::string step_csv(const Step& step, const TokenLabels& tokens = {});
Status write_step_csv(const Step& step, const std::string& path, const TokenLabels& tokens = {});
// Writes every tensor of the trace into `dir` (through app/io), plus the weights the
// trace used (weights.safetensors) and the token strings (tokens.json).
Status write_trace_tensors(const Trace& trace, const std::string& dir, const TokenLabels& tokens = {});

}  // namespace attn::gui
