#include "app/gui/export/slide_thumbnails.h"

#include "app/gui/export/snapshot.h"
#include "app/gui/state/lesson_apply.h"

namespace attn::gui {

std::string slide_picture_key(const lesson::Slide& slide) {
    lesson::Lesson one;
    one.slides.push_back(slide);
    one.slides.back().title.clear();
    one.slides.back().note.clear();
    one.slides.back().number = 1;
    return lesson::write_lesson(one);
}

const gl::Texture* SlideThumbnails::find(const lesson::Slide& slide) const {
    const auto it = textures_.find(slide_picture_key(slide));
    return it == textures_.end() ? nullptr : &it->second;
}

bool SlideThumbnails::draw_one_missing(const LessonDoc& doc, const UiSettings& settings) {
    for (const lesson::OpenedSlide& opened : doc.opened.slides) {
        std::string key = slide_picture_key(opened.slide);
        if (textures_.count(key)) continue;
        // The slide on a state of its own, as `attnviz snapshot --lesson` draws it.
        AppState state;
        state.settings = settings;
        ComputeRequest request = apply_slide(state, opened);
        accept_result(state, ComputeWorker::compute(request, 0), 0.0);
        if (!renderer_ || renderer_light_ != settings.light_theme) {
            renderer_.reset();
            renderer_ = std::make_unique<OffscreenRenderer>(kThumbnailWidth, kThumbnailHeight, 1.0f, settings.light_theme);
            renderer_light_ = settings.light_theme;
        }
        gl::Texture& texture = textures_[std::move(key)];  // an empty one when it cannot be drawn: not tried again
        if (!renderer_->valid() || !state.results.trace) return true;
        cache_.reset(state.results.model, canvas_palette(settings.light_theme).masked);
        render_state(*renderer_, state, cache_, SnapshotLayout::CanvasOnly);
        const std::vector<unsigned char> pixels = renderer_->pixels();
        texture = gl::Texture(gl::Texture::Format::RGBA8, renderer_->pixel_width(), renderer_->pixel_height(), pixels.data(), true);
        return true;
    }
    return false;
}

}  // namespace attn::gui
