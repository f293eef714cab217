// One file compiled into the binary by cmake/embed_bytes.cmake (language catalogues,
// the PyTorch code, the example models), so the app runs from any folder.
#pragma once

#include <cstddef>
#include <string_view>

namespace attn::embed {

struct EmbeddedFile {
    const char* name;           // "en" (languages) or "tiny-lm.json"
    const unsigned char* data;  // the file's bytes, followed by one 0 byte not counted in size
    std::size_t size;

    // The bytes as text (the files are UTF-8; nothing is copied).
    std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};

}  // namespace attn::embed
