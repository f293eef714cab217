// The example models (assets/models/*.json and *.safetensors), compiled into the
// binary by cmake/embed_bytes.cmake so `--model tiny-lm` works from any folder.
#pragma once

#include <cstddef>

#include "app/embed/embedded_file.h"

namespace attn::io::embedded {

using embed::EmbeddedFile;
extern const EmbeddedFile kModelFiles[];
extern const std::size_t kModelFilesCount;

}  // namespace attn::io::embedded
