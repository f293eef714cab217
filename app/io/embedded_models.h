// The example models (assets/models/*.json and *.safetensors), compiled into the
// binary by embed_files.cmake so `--model tiny-lm` works from any folder.
#pragma once

#include <cstddef>

namespace attn::io::embedded {

struct EmbeddedFile {
    const char* name;           // "tiny-lm.json"
    const unsigned char* data;  // the file's bytes
    size_t size;
};
extern const EmbeddedFile kModelFiles[];
extern const size_t kModelFileCount;

}  // namespace attn::io::embedded
