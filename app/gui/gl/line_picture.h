// LinePicture: a layer of many long thin lines (the lines view's up to 64 x 64 pairs per
// head) drawn once into a texture and then shown as one image for as long as the lines do
// not change. Under llvmpipe each long line costs its rasterisation on every frame
// (about 15 µs: 1,800 lines made a 64-token, 8-head frame 34 ms against 5 ms for the same
// step's heatmaps); as a picture they cost one textured rectangle. A hover, a pin or the
// fan animation changes the lines and redraws the picture.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>

#include "app/gui/display/layout.h"
#include "app/gui/gl/gl_objects.h"

namespace attn::gui {

class LinePicture {
public:
    // Draws into `into` the image of what `draw` adds to a draw list over `area` (screen
    // pixels) on an opaque `background`, redrawing the image only when `key` (a digest of
    // the lines) or the size changed. Without a GL renderer (headless tests) `draw` draws
    // straight into `into`.
    void draw(ImDrawList& into, const Rect& area, uint32_t background, uint64_t key, const std::function<void(ImDrawList&)>& draw);

private:
    void redraw(const Rect& area, uint32_t background, const std::function<void(ImDrawList&)>& draw);
    gl::Framebuffer target_;
    uint64_t key_ = 0;
    bool drawn_ = false;
};

// FNV-1a over the bytes of `value`, continuing `hash`: the digest LinePicture keys on.
template <typename T>
uint64_t digest(uint64_t hash, const T& value) {
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&value);
    for (size_t i = 0; i < sizeof(T); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
    return hash;
}
inline constexpr uint64_t kDigestStart = 1469598103934665603ull;

}  // namespace attn::gui
