// The vocabulary of the whole core, declared once.
//
//   B    batch size
//   L    query length (seq_len)
//   S    key/value length (kv_len; S == L for self-attention)
//   E    hidden_dim, the model width (embed_dim)
//   H    num_heads
//   d_h  head width, E / H
//   kdim width of the key input   (E unless cross-attention says otherwise)
//   vdim width of the value input (E unless cross-attention says otherwise)
//   V    a trained model's vocabulary size (its next-word probabilities)
//
// Every matrix is row-major float32, so data() is already in NumPy's C order
// and in the layout a GL texture upload expects.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// What a tensor dimension means. The letters above are only display labels
// (dim_label); code that needs to know "is this the query position?" asks the role.
enum class DimRole : uint8_t {
    Batch,         // B
    QueryPos,      // L: a query token
    KeyPos,        // S: a key/value token
    Head,          // H
    HeadDim,       // d_h: a feature inside one head
    Embedding,     // E: a feature of the model width
    FusedQkv,      // 3E: the fused projection's q | k | v features
    KeyFeature,    // kdim: a feature of cross-attention's key input
    ValueFeature,  // vdim: a feature of cross-attention's value input
    Vocabulary,    // V: a word of a trained model's vocabulary
    Other,         // a dimension with no attention meaning (tensors read from files)
};

// "B", "L", "S", "H", "d_h", "E", "3E", "kdim", "vdim", "V"; "" for Other.
const char* dim_label(DimRole role);
// The role a display label stands for; Other for labels outside the vocabulary.
DimRole dim_role_of_label(const std::string& label);
// Labels for a list of roles.
std::vector<std::string> dim_labels(const std::vector<DimRole>& roles);

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;  // a row vector
using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
// A block inside a wider row-major buffer: rows are `stride` floats apart.
using StridedMap = Eigen::Map<Mat, 0, Eigen::OuterStride<>>;
using ConstStridedMap = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>;

// True when no element is NaN or +-Inf. x * 0 is 0 for finite x and NaN otherwise,
// and Eigen vectorises the sum, which Eigen's own allFinite() does not do as well.
inline bool all_finite(const float* values, Eigen::Index count) {
    return Eigen::Map<const Eigen::ArrayXf>(values, count).operator*(0.0f).sum() == 0.0f;
}

}  // namespace attn
