// A generation as folders (`attnviz trace --decode-from P --out DIR`): DIR/prefill/ (rows
// 0..P-1, filling the KV cache), DIR/decode_001/, DIR/decode_002/, ... (one query row each,
// against the cache), each a normal trace folder with its manifest, and DIR/generation.json
// (format attnviz-generation, version 1): the tokens, each folder's positions and the cache
// size after it; for a trained model's --generate also the sampling settings and, per
// generated token, its probability.
#pragma once

#include <string>
#include <vector>

#include "app/io/trace_writer.h"
#include "core/model/sampling.h"
#include "core/trace.h"

namespace attn::io {

// One token a model generated: where it stands and the chances it had (core/model/sampling.h).
struct GeneratedToken {
    int position = 0;               // its absolute position
    std::string token;              // its spelling
    int id = 0;                     // its vocabulary id
    float probability = 0;          // its probability in the filtered distribution it was drawn from
    float model_probability = 0;    // its probability in the model's own distribution
    std::string chosen_after;       // the folder whose last row of logits chose it ("prefill", "decode_001", ...)
};

struct Generation {
    std::vector<Trace> traces;        // the prefill, then one trace per decode step
    std::vector<std::string> tokens;  // (L) labels of the positions ("t0".. when none were given)
    // A trained model's generation (--generate): the settings and each drawn token; empty
    // `generated` when the tokens were given (--decode-from).
    std::string model;                // the model's name, or empty
    bool sampled = false;             // tokens were generated (then `settings` says how)
    SamplingSettings settings;
    std::vector<GeneratedToken> generated;
};

// "prefill", "decode_001", ...: the folder of traces[index].
std::string generation_folder_name(size_t index);
// generation.json's content.
nlohmann::json generation_manifest(const Generation& generation);

// Writes the folders and generation.json through a temporary sibling folder; an existing
// DIR is replaced only when it holds a generation.json of format attnviz-generation.
// `labelled`: each folder gets tokens.json, its query rows' and cached keys' tokens.
Status write_generation_dir(const Generation& generation, const std::string& dir, bool labelled,
                            const text::Catalogue& words = text::english());

}  // namespace attn::io
