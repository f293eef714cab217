// Presentation's footer: the step's explanation under the canvas, as large as it fits in
// at most a third of the screen (longer ones take smaller type, down to 80%, and when even
// that is too long the footer scrolls and shows its scrollbar, so a cut-off text is never
// mistaken for all). When the picture gains clearly bigger cells from it (a 2x2 grid of
// heads on a 4:3 projector), the explanation goes into a column beside the canvas instead,
// under the canvas's caption and legend.
//
// frame.cpp measures the title strip and the footer once a frame (PresentationLayout) and
// hands them to both views through the frame context; the registry draws them.
#pragma once

#include <imgui.h>

#include <string>

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/views/frame_context.h"
#include "app/gui/views/panels/view_title_strip.h"

namespace attn::gui {

struct FooterText {
    float height = 0, font_scale = 1;
    bool scrolls = false;
};
// The footer's (and the side column's) padding: the style's at `base` of its size.
ImVec2 footer_padding(float base);
// How `text` fits a footer `w` wide and at most `most_h` high, at `base` of the type size.
FooterText fit_footer(const std::string& text, float w, float most_h, float base);

// What the presentation's title strip and footer show this frame.
struct PresentationLayout {
    TitleStrip strip;
    FooterText footer;
    bool beside = false;  // the explanation goes into a column right of the canvas
};

// The views (view_registry.cpp): nothing unless ctx.presentation is set.
Actions draw_presentation_title(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area);
Actions draw_presentation_footer(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area);

}  // namespace attn::gui
