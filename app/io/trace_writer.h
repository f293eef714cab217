// Writes a Trace as a folder: manifest.json plus one <step>.npy per step.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/config_fields.h"
#include "app/text/languages.h"
#include "core/result.h"
#include "core/trace.h"

namespace attn::io {

// The configuration as JSON (sizes resolved), for manifests and benchmark output: every
// field with a manifest key (core/config_fields.h), plus facts derived from them.
nlohmann::json config_to_json(const AttentionConfig& config);
// The reverse for the fields: a configuration from a manifest's "config" object (keys it
// lacks keep their defaults; a value of the wrong kind is refused with its field's name).
Result<AttentionConfig> config_from_json(const nlohmann::json& config);
// One field's value as the files write it (field_value as JSON).
nlohmann::json field_json(const ConfigField& field, const AttentionConfig& config);
// The manifest: configuration and the ordered steps with their text, shapes and layout.
// The steps' titles, formulas and explanations are in `words` (English unless the
// command line's --lang chose another); every other field is the same in any language.
nlohmann::json trace_manifest(const Trace& trace, const text::Catalogue& words = text::english());

// What a trace folder may hold besides the steps (the window's "Export tensors" asks for
// both, so the folder alone can reproduce and label every tensor).
struct TraceExtras {
    bool weights = false;                   // weights.safetensors: the weights the trace used (PyTorch names)
    std::vector<std::string> query_tokens;  // tokens.json: labels of the L axis ...
    std::vector<std::string> key_tokens;    // ... and of the S axis
};

// True when `dir` holds only what write_trace_dir writes (a manifest of format
// attnviz-trace, .npy files, tokens.json, weights.safetensors).
bool is_trace_folder(const std::filesystem::path& dir);

// Writes into a temporary sibling folder, then renames it to `dir`, so a failure
// never leaves a half-written trace. An existing trace folder at `dir` is replaced;
// any other non-empty folder is refused.
Status write_trace_dir(const Trace& trace, const std::string& dir, const TraceExtras* extras = nullptr,
                       const text::Catalogue& words = text::english());

}  // namespace attn::io
