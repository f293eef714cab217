#include "app/gui/window/lesson_keys.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace attn::gui {

int slide_key_target(KeyPresses& presses, int current, int count) {
    int target = current;
    for (auto it = presses.begin(); it != presses.end();) {
        const int key = it->first;
        const bool next = key == GLFW_KEY_RIGHT || key == GLFW_KEY_PAGE_DOWN;
        const bool back = key == GLFW_KEY_LEFT || key == GLFW_KEY_PAGE_UP;
        if (!next && !back) {
            ++it;
            continue;
        }
        target = std::clamp(target + (next ? 1 : -1), 0, std::max(0, count - 1));
        it = presses.erase(it);
    }
    return target == current ? -1 : target;
}

}  // namespace attn::gui
