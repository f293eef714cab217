// The tour's overlay, drawn over the whole window after every other view: a rectangle
// around each part of the window the slide on screen points at ("highlight", recorded in
// UiState::elements this frame) and, while Help > Tour runs, a bubble beside them with the
// slide's title and text, its number, and Back, Next and Close (state/tour.h).
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/tour.h"
#include "app/gui/state/ui_state.h"
#include "app/gui/views/view_registry.h"

namespace attn::gui {

// `screen`: the whole window; `interactive` false in pictures (no buttons, the words stay).
Actions draw_tour_overlay(const TourState& tour, const lesson::SlideView& marks, const ElementRects& elements,
                          const Rect& screen, bool interactive);

// Records where dock slot `slot` was drawn (`area`) under its element ID (the canvas,
// the controls, the timeline, the inspector, ...); the menu bar's slot has no area of its
// own: the bar along the top is recorded.
void record_slot_element(ElementRects& elements, DockSlot slot, const Rect& area);

}  // namespace attn::gui
