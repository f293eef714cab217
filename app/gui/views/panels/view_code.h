// The code panel: the PyTorch module that File > Export as PyTorch writes and runs
// (app/io/torch_code.h), beside the canvas. The lines that produce the shown step are
// highlighted, with the tensor's real shape written under them; lines of steps this
// configuration does not record are dimmed. A recipe's class is shown as its article
// writes it (io::article_lines), and a left margin names each line's step. Clicking a
// line shows its step.
#pragma once

#include "app/gui/display/animation.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/state/ui_state.h"
#include "core/trace.h"

namespace attn::gui {

// `trace` null: a placeholder. Writes `playback` (a click jumps to the line's step) and
// `code` (the hovered line, the step last scrolled to).
void draw_code_panel(const Trace* trace, Playback& playback, CodeUi& code, bool light_theme, const Fonts& fonts);

}  // namespace attn::gui
