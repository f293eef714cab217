// OffscreenRenderer: draws ImGui frames into a framebuffer of any size, independent of
// the window (snapshots, exports, the render bench). It has its own ImGui context and
// renderer backend so its fonts and scale never disturb the window's.
// Needs a current OpenGL 3.3 context.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/kit/fonts_theme.h"
#include "app/gui/gl/gl_objects.h"
#include "core/message.h"

struct ImGuiContext;

namespace attn::gui {

class OffscreenRenderer {
public:
    // width x height logical pixels, drawn at `scale` (the image is width*scale x height*scale);
    // `type_scale` enlarges type and widgets within that image (presentation mode's 1.5).
    OffscreenRenderer(int width, int height, float scale, bool light, float type_scale = 1.0f);
    ~OffscreenRenderer();
    OffscreenRenderer(const OffscreenRenderer&) = delete;
    OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

    bool valid() const { return fbo_.valid(); }
    const Message& error() const { return error_; }
    int pixel_width() const { return fbo_.width(); }
    int pixel_height() const { return fbo_.height(); }
    float scale() const { return scale_; }  // resolution x type scale: what fonts and widgets are drawn at
    // The font atlas's texture, in pixels (it grows with the glyphs the language needs).
    std::pair<int, int> font_atlas_size() const;

    // One frame: `build` is called between NewFrame and Render with this renderer's fonts.
    void render(const std::function<void(const Fonts&)>& build, float dt = 1.0f / 60.0f);
    // The last frame's pixels, RGBA8, top row first.
    std::vector<unsigned char> pixels() const { return fbo_.read_rgba(); }

private:
    ImGuiContext* context_ = nullptr;
    ImGuiContext* previous_ = nullptr;
    gl::Framebuffer fbo_;
    Fonts fonts_;
    float scale_ = 1.0f;
    bool light_ = false;
    Message error_;
};

}  // namespace attn::gui
