// Where the tour's bubble goes: beside the parts of the window a slide points at, never
// over them, and inside the screen. Pure geometry (the view measures its words).
#pragma once

#include <functional>
#include <vector>

#include "app/gui/display/layout.h"

namespace attn::gui {

// The smallest rectangle around all of `rects` (an empty Rect for none).
Rect bounding_rect(const std::vector<Rect>& rects);
bool rects_overlap(const Rect& a, const Rect& b);

// A bubble `height_of(width)` tall, at one of `widths` (widest first), `gap` away from
// `target`: to its right, left, below or above, the first that fits inside `screen`
// without touching `target`. When none does (the target fills the screen), the narrowest
// bubble in the screen corner where it covers the least of the target.
Rect place_bubble(const Rect& screen, const Rect& target, float gap, const std::vector<float>& widths,
                  const std::function<float(float)>& height_of);

}  // namespace attn::gui
