#include "app/gui/window/frame_loop.h"

namespace attn::gui {

bool run_frame_loop(std::function<bool()> frame) {
    while (frame()) {
    }
    return true;
}

}  // namespace attn::gui
