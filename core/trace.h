// Trace: the ordered record of one attention forward, every intermediate tensor
// (numbers only: the words about each step come from app/text at display time). Built once by the core,
// read-only afterwards; the GUI and the exporters only read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/tensor.h"
#include "core/weights.h"

namespace attn {

// What kind of operation produced a step; the GUI picks its animation from this.
enum class StepKind {
    Input,       // given data
    Projection,  // x W^T + b
    Slice,       // a view of part of another tensor (fused QKV)
    View,        // same bytes, new shape
    Transpose,   // same bytes, strides swapped
    Scores,      // Q K^T per head
    Scale,       // divide by sqrt(d_h)
    Mask,        // -inf where not allowed
    Softmax,     // normalise each row over keys
    Dropout,     // zero some weights, scale survivors
    WeightedSum, // weights @ V
    Concat,      // heads rejoined (contiguous copy + reshape, or torch.cat)
};
const char* to_string(StepKind kind);

struct Step {
    std::string name;         // "attn_scores": the .npy file name and the key everything uses
    StepKind kind = StepKind::Input;
    Tensor tensor;            // shape and dim names live here
    std::vector<std::string> sources;  // names of the steps this one was computed from
    // True when `tensor` shares storage with its first source (a view: no bytes copied).
    bool is_view = false;
};

struct Trace {
    AttentionConfig config;
    std::vector<Step> steps;
    // The parameters the forward used (W_q, W_k, W_v, W_o and biases), so a view can
    // show "X times W^T" next to a projection. Not counted in storage_bytes().
    AttentionWeights weights;
    // (B, H, L): 1 where every key of that query row was masked. Such rows get
    // all-zero weights (not NaN) and the GUI explains why.
    std::vector<uint8_t> fully_masked_rows;

    const Step* find(const std::string& name) const;
    int index_of(const std::string& name) const;  // -1 when absent
    // Bytes of distinct storage buffers (views counted once, with their base).
    uint64_t storage_bytes() const;
    int count_fully_masked_rows() const;
};

}  // namespace attn
