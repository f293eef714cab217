// FrameContext: what one frame is drawn with besides the state: fonts, scale, the
// texture cache and whether it is the window or an off-screen picture.
#pragma once

#include "app/gui/kit/fonts_theme.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/lesson/lesson.h"  // lesson::Slide

namespace attn::gui {

namespace gl { class Texture; }
struct PresentationLayout;  // views/panels/view_presentation_footer.h

// The slide list's pictures (window only). The window draws them between frames
// (export/slide_thumbnails.h, a layer above the views) and hands them to the views
// through the frame context; the slide list only looks a slide's picture up.
class SlidePictures {
public:
    virtual ~SlidePictures() = default;
    // The slide's picture, or nullptr while it is not drawn yet.
    virtual const gl::Texture* find(const lesson::Slide& slide) const = 0;
};

// A slide picture's logical size (drawn at half size in the list, sharp on a 2x screen).
inline constexpr int kThumbnailWidth = 320, kThumbnailHeight = 200;

struct FrameContext {
    HeatmapCache* cache = nullptr;
    // Compare mode (state/compare.h): B's textures and A − B's, each baked from its own model.
    HeatmapCache* compare_b_cache = nullptr;
    HeatmapCache* difference_cache = nullptr;
    Fonts fonts;
    float scale = 1.0f;       // sizes of canvas drawing (UI scale x export scale)
    bool computing = false;   // the worker is busy: show "computing..."
    bool offscreen = false;   // snapshot/export: no menus, no dialogs, no mouse
    bool canvas_only = false; // draw nothing but the canvas
    bool presentation_header = false;  // offscreen: title and explanation around the canvas
    bool key_beside = false;  // presentation: the canvas's caption and legend are in the side column
    float canvas_type = 1.0f; // presentation: the canvas's type and sizes relative to `scale` (fit_presentation)
    double now = 0;
    const SlidePictures* thumbnails = nullptr;  // the slide list's pictures (window only)
    // Presentation and canvas-only pictures: the title strip and footer frame.cpp measured
    // for this frame, which their views draw.
    const PresentationLayout* presentation = nullptr;
};

// Height of a canvas-only export's title strip, in large-font heights.
constexpr float kCanvasTitleEm = 1.7f;

}  // namespace attn::gui
