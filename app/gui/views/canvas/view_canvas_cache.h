// The cache view: on k_cache and v_cache, (B, H_kv, S_t, d_h), the rows this trace appended
// (a decode step's one row, or the prefill's P rows) are outlined in every head's panel,
// so clicking through the token strip shows the cache growing one row at a time. Internal
// to app/gui/views.
#pragma once

#include "app/gui/views/canvas/view_canvas_anim.h"

namespace attn::gui {

// Outlines the appended rows of the visible panels when the step on screen is a cache step.
void draw_new_cache_rows(const Painter& p, const ResultDrawn& drawn);

}  // namespace attn::gui
