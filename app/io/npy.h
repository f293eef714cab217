// NumPy .npy files (format version 1.0): float32, C order. What `attnviz trace` writes
// and what `--query/--key/--value` read, so anything can be checked with numpy.load.
#pragma once

#include <string>

#include "core/result.h"
#include "core/tensor.h"

namespace attn::io {

// Writes `tensor` (any strides; written in logical C order) as little-endian float32.
Status write_npy(const std::string& path, const Tensor& tensor);

// Reads a .npy of float32 or float64 (converted), C order, any rank >= 1.
// Dimension names are "d0", "d1", ... ; the caller renames them.
Result<Tensor> read_npy(const std::string& path);

// A .npy that may be boolean: numpy bool ('|b1') arrays (masks: True = masked out) come
// back as 0/1 floats with `is_boolean` set; float32/float64 as read_npy reads them.
struct NpyArray {
    Tensor tensor;
    bool is_boolean = false;
};
Result<NpyArray> read_npy_array(const std::string& path);
Result<NpyArray> decode_npy_array(const std::string& bytes, const std::string& what);

// The bytes of a .npy file for `tensor` (header + data), for writing or testing.
std::string encode_npy(const Tensor& tensor);
// Parses .npy bytes; `what` names the source in messages.
Result<Tensor> decode_npy(const std::string& bytes, const std::string& what);

}  // namespace attn::io
