// The token strip (DockSlot::TokenStrip, above the canvas): with --decode-from P, the prompt
// (rows 0..P-1, the prefill) and then each decoded token, one chip per position. A click
// asks for that decode step's trace (Actions::decode_step; made against the kept cache,
// state/decode_choice.h). Under the chips, the KV cache's memory line for the configuration
// on screen, and on a score, weight or cache step one line more (view_decode_notes.h).
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/results.h"

namespace attn::gui {

// Height of the strip in pixels (two lines of chips and text); 0 when `results` holds no
// generation (the canvas then keeps the whole centre).
// `step`: the step on screen, whose row beside the whole pass's (or the cache's size at a
// real model's sizes) takes a third line (view_decode_notes.h).
float token_strip_height(const Results& results, int step);
// Draws into the current window (the caller has begun it); `head` is the head in focus.
Actions draw_token_strip(const Results& results, int step, int head, bool light_theme);

// The KV cache's size per position for `config` with `layers` layers:
// 2 x layers x H_kv x d_h x bytes of the dtype (core/kv_cache.h), as one sentence.
std::string kv_memory_line(const AttentionConfig& config, int layers, int64_t positions);

}  // namespace attn::gui
