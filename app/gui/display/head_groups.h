// Head groups of grouped-query attention (num_kv_heads H_kv < num_heads H): query head h
// reads key/value head h / (H / H_kv), which repeat_kv copies into k_repeated and
// v_repeated. The canvas colours heads by group so the learner sees which query heads
// share a key/value head: a group takes its key/value head's colour, and its query
// heads are lighter and darker shades of it. Without grouping every head keeps its own
// colour (head_color). Pure logic: no GL, no ImGui.
#pragma once

#include <string>

#include "app/gui/display/colormap.h"
#include "core/config.h"
#include "core/repeat_kv.h"
#include "core/step_id.h"

namespace attn::gui {

struct HeadGroups {
    int heads = 1;     // H, query heads
    int kv_heads = 1;  // H_kv, key/value heads (divides H)
    bool grouped() const { return kv_heads > 0 && kv_heads < heads; }
    int share() const { return kv_heads > 0 ? heads / kv_heads : 1; }  // query heads per key/value head
    // The key/value head query head `query_head` reads (core/repeat_kv.h says how).
    int group_of(int query_head) const { return grouped() ? kv_head_of(query_head, heads, kv_heads) : query_head; }
};
HeadGroups head_groups(const AttentionConfig& config);

// The colour of head `head` as step `id` of a forward with `config` draws it.
Rgb step_head_color(const AttentionConfig& config, StepId id, int head);

// The panel title of that head: "head 2" normally; under grouping "head 2 · kv 1" for a
// query head and "kv head 1" for a key/value head (`brief`: "h2·kv1", "kv1").
std::string step_head_label(const AttentionConfig& config, StepId id, int head, bool brief);

// The canvas's note on grouping for step `id` ("" without grouping or for steps without heads).
std::string head_groups_note(const AttentionConfig& config, StepId id);

}  // namespace attn::gui
