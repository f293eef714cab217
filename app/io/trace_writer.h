// Writes a Trace as a folder: manifest.json plus one <step>.npy per step.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/result.h"
#include "core/trace.h"

namespace attn::io {

// The configuration as JSON (sizes resolved), for manifests and benchmark output.
nlohmann::json config_to_json(const AttentionConfig& config);
// The manifest: configuration and the ordered steps with their text, shapes and layout.
nlohmann::json trace_manifest(const Trace& trace);

// Writes into a temporary sibling folder, then renames it to `dir`, so a failure
// never leaves a half-written trace. An existing trace folder at `dir` is replaced;
// any other non-empty folder is refused.
Status write_trace_dir(const Trace& trace, const std::string& dir);

}  // namespace attn::io
