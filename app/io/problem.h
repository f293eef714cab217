// Problem: one fully resolved attention setup (config, weights, inputs, token labels),
// built from command-line options or GUI settings plus optional files.
// Both the command line and the window go through here, so they accept the same files
// and give the same messages.
#pragma once

#include <string>
#include <vector>

#include "core/attention.h"
#include "core/config.h"
#include "core/result.h"
#include "core/weights.h"

namespace attn::io {

// Where the numbers come from: files when a path is set, the seed otherwise.
struct ProblemSources {
    std::string weights_path;  // .safetensors (PyTorch MHA or Hugging Face names)
    std::string query_path;    // .npy (B,L,E) or (L,E)
    std::string key_path;      // .npy (B,S,kdim) or (S,kdim); cross-attention
    std::string value_path;    // .npy (B,S,vdim) or (S,vdim); cross-attention
    std::vector<std::string> tokens;  // row labels; when set (and no query file) the inputs are
                                      // token embeddings and seq_len follows the token count
};

struct Problem {
    AttentionConfig config;
    AttentionWeights weights;
    AttentionInputs inputs;
    std::vector<std::string> query_tokens;  // L labels ("t0".. when none were given)
    std::vector<std::string> key_tokens;    // S labels
};

// Loads files, lets their shapes decide the sizes they fix (a weights file fixes E, kdim,
// vdim and bias; a query file fixes B, L, E), checks everything agrees, validates.
// Errors are one line, naming the file and what to do.
Result<Problem> build_problem(AttentionConfig config, const ProblemSources& sources);

// Splits a sentence into tokens on whitespace (punctuation stays attached).
std::vector<std::string> split_tokens(const std::string& sentence);

}  // namespace attn::io
