#include "app/gui/window/lesson_keys.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace attn::gui {
namespace {

// The digit a key types (the main row or the keypad), or -1.
int digit_of(int key) {
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return key - GLFW_KEY_0;
    if (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_9) return key - GLFW_KEY_KP_0;
    return -1;
}

// A slide number typed and Enter: its index, clamped to the lesson; the digits are used up.
int typed_target(std::string& typed, int count) {
    const int number = typed.empty() ? 0 : std::stoi(typed);
    typed.clear();
    return std::clamp(number - 1, 0, std::max(0, count - 1));
}

}  // namespace

int slide_key_target(KeyPresses& presses, int current, int count, std::string* typed) {
    constexpr size_t kMaxDigits = 3;  // kMaxSlides is 200
    int target = current;
    const int last = std::max(0, count - 1);
    for (auto it = presses.begin(); it != presses.end();) {
        const auto [key, mods] = *it;
        const bool plain = (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) == 0;
        const bool next = key == GLFW_KEY_RIGHT || key == GLFW_KEY_PAGE_DOWN;
        const bool back = key == GLFW_KEY_LEFT || key == GLFW_KEY_PAGE_UP;
        const bool enter = key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER;
        const int digit = plain ? digit_of(key) : -1;
        if (typed && digit >= 0) {
            if (typed->size() < kMaxDigits) *typed += static_cast<char>('0' + digit);
        } else if (typed && enter && !typed->empty()) {
            target = typed_target(*typed, count);
        } else if (next || back) {
            target = std::clamp(target + (next ? 1 : -1), 0, last);
        } else if (key == GLFW_KEY_HOME || key == GLFW_KEY_END) {
            target = key == GLFW_KEY_HOME ? 0 : last;
        } else {
            if (typed) typed->clear();
            ++it;
            continue;
        }
        if (typed && digit < 0 && !enter) typed->clear();
        it = presses.erase(it);
    }
    return target == current ? -1 : target;
}

int slide_grid_keys(KeyPresses& presses, PresentUi& present, int count) {
    const int columns = slide_grid_columns(count), last = std::max(0, count - 1);
    int& choice = present.grid_choice;
    int shown = -1;
    for (const auto& [key, mods] : presses) {
        switch (key) {
            case GLFW_KEY_RIGHT: choice = std::min(last, choice + 1); break;
            case GLFW_KEY_LEFT: choice = std::max(0, choice - 1); break;
            case GLFW_KEY_DOWN: choice = std::min(last, choice + columns); break;
            case GLFW_KEY_UP: choice = std::max(0, choice - columns); break;
            case GLFW_KEY_HOME: choice = 0; break;
            case GLFW_KEY_END: choice = last; break;
            case GLFW_KEY_ENTER:
            case GLFW_KEY_KP_ENTER:
                shown = choice;
                present.grid = false;
                break;
            case GLFW_KEY_G:
            case GLFW_KEY_ESCAPE: present.grid = false; break;
            default: break;
        }
        if (!present.grid) break;
    }
    presses.clear();
    return shown;
}

}  // namespace attn::gui
