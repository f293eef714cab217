// Small file helpers shared by the readers and writers.
#pragma once

#include <string>

#include "core/result.h"

namespace attn::io {

// The whole file as bytes, or a message naming the path and the reason.
Result<std::string> read_file_bytes(const std::string& path);
// Writes `bytes` to `path` (truncating), or a message naming the path and the reason.
Status write_file_bytes(const std::string& path, const std::string& bytes);

}  // namespace attn::io
