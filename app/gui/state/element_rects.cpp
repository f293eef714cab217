#include "app/gui/state/element_rects.h"

#include <cassert>

namespace attn::gui {
namespace {

int element_index(const std::string& id) {
    for (size_t i = 0; i < lesson::kElementIds.size(); ++i)
        if (id == lesson::kElementIds[i]) return static_cast<int>(i);
    return -1;
}

}  // namespace

void ElementRects::record(const std::string& id, const Rect& r) {
    const int i = element_index(id);
    assert(i >= 0 && "ElementRects::record: not one of lesson::kElementIds");
    if (i >= 0 && r.w > 0.0f && r.h > 0.0f) rects[static_cast<size_t>(i)] = r;
}

std::optional<Rect> ElementRects::find(const std::string& id) const {
    const int i = element_index(id);
    if (i < 0 || rects[static_cast<size_t>(i)].w <= 0.0f) return std::nullopt;
    return rects[static_cast<size_t>(i)];
}

}  // namespace attn::gui
