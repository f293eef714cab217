// The safetensors format: 8-byte little-endian header length N, N bytes of JSON
// ({"name": {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}),
// then the raw little-endian tensor bytes, offsets counted from the end of the header.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/tensor.h"

namespace attn::io {

// Tensors sorted by name, converted to float32. Reads F32, F16, BF16 and F64.
using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

Result<NamedTensors> read_safetensors(const std::string& path);
// Parses the bytes of a file; `what` names the source in messages.
Result<NamedTensors> decode_safetensors(const std::string& bytes, const std::string& what);

// Writes float32 tensors (in the given order) as a safetensors file.
Status write_safetensors(const std::string& path, const NamedTensors& tensors);
std::string encode_safetensors(const NamedTensors& tensors);

// IEEE half and bfloat16 to float, exactly.
float half_to_float(uint16_t bits);
float bfloat16_to_float(uint16_t bits);

}  // namespace attn::io
