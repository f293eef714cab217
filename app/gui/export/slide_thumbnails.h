// The slide list's small pictures: each slide drawn off-screen once (canvas only), kept as
// a texture. A picture is keyed by what the slide shows (its setup and view, not its title
// or note), so reordering, undo and title edits reuse it, and an updated slide is drawn again.
// Needs the window's GL context; draw between frames, never inside an ImGui frame.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "app/gui/gl/gl_objects.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/gl/offscreen.h"
#include "app/gui/state/lesson_doc.h"
#include "app/gui/state/settings.h"
#include "app/gui/views/frame_context.h"  // SlidePictures

namespace attn::gui {

// The pictures are kThumbnailWidth x kThumbnailHeight (views/frame_context.h).
class SlideThumbnails : public SlidePictures {
public:
    // The slide's picture, or nullptr while it is not drawn yet.
    const gl::Texture* find(const lesson::Slide& slide) const override;
    // Draws the first slide of `doc` that has no picture yet (one per call, so the window
    // stays responsive after a lesson is opened). Returns true when it drew one.
    bool draw_one_missing(const LessonDoc& doc, const UiSettings& settings);
    // Forgets every picture (they are drawn again, one per call of draw_one_missing).
    void forget_all() { textures_.clear(); }

private:
    std::map<std::string, gl::Texture> textures_;
    std::unique_ptr<OffscreenRenderer> renderer_;
    bool renderer_light_ = false;
    HeatmapCache cache_;
};

// What a slide shows, as text: its JSON without title, note and number (the key).
std::string slide_picture_key(const lesson::Slide& slide);

}  // namespace attn::gui
