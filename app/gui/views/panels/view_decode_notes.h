// Under the explanation (DockSlot::RightTop), for a decode step (--decode-from): beside the
// step's one row of scores or weights, the same row of the whole causal pass and their
// largest difference, called float rounding for what it is; on k_cache and v_cache, what the
// cache costs per position, for the configuration on screen and for a real model's sizes.
#pragma once

#include <cstdint>
#include <vector>

#include "app/gui/state/results.h"

namespace attn::gui {

// Draws into the current window after the explanation; nothing for other steps and traces.
// `step`: the index of the step on screen; `head`: the head whose row is drawn.
void draw_decode_notes(const Results& results, int step, int head);
// The token strip's two lines under the tokens for the same steps: the row of `head` beside
// the whole pass's, then "largest difference ...: float rounding" (the full sentence on
// hover); or the cache's size per position at a real model's sizes, MHA, GQA and MQA.
bool has_strip_line(const Results& results, int step);
void draw_strip_line(const Results& results, int step, int head);

// The memory table's rows: name key, key/value heads, bytes per position at 32 layers,
// 32 query heads, d_h 128 and bfloat16 (MHA 32, GQA 8, MQA 1 key/value heads).
struct KvMemoryRow {
    const char* name_key;
    int kv_heads;
    int64_t bytes_per_token;
};
std::vector<KvMemoryRow> kv_memory_table();

}  // namespace attn::gui
