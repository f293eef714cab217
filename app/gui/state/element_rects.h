// Where the parts of the window are this frame, by the IDs a lesson slide points at
// (lesson::kElementIds: "controls", "timeline", "canvas", ...). The frame records each dock
// slot's rectangle as it draws it, the canvas its storage strip; the tour's overlay
// (views/panels/view_tour.h), drawn last, reads them.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "app/gui/display/layout.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

struct ElementRects {
    std::array<Rect, lesson::kElementIds.size()> rects{};  // by kElementIds position; w == 0: not drawn
    void clear() { rects.fill(Rect{}); }
    // Keeps `r` as element `id`'s rectangle this frame (an unknown ID is a programmer's error).
    void record(const std::string& id, const Rect& r);
    // The element's rectangle this frame, or none when it was not drawn.
    std::optional<Rect> find(const std::string& id) const;
};

}  // namespace attn::gui
