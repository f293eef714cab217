#include "app/gui/display/head_groups.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/text/languages.h"
#include "app/text/text_join.h"

namespace attn::gui {

HeadGroups head_groups(const AttentionConfig& config) { return HeadGroups{config.H(), config.H_kv()}; }

Rgb step_head_color(const AttentionConfig& config, StepId id, int head) {
    const HeadGroups g = head_groups(config);
    if (!g.grouped() || head < 0) return head_color(head);
    if (step_info(id).holds_kv_heads()) return head_color(head);
    // A query head: its group's hue, lightness spread over the group (OKLab, so equal
    // steps look equal) so that members still read apart.
    const Rgb base = srgb_to_oklab(head_color(g.group_of(head)));
    const int member = head % g.share();
    const float spread = g.share() > 1 ? static_cast<float>(member) / static_cast<float>(g.share() - 1) - 0.5f : 0.0f;
    const float lightness = std::clamp(base.r + spread * 0.2f, 0.4f, 0.86f);
    // Less chroma away from the base lightness keeps the shade inside sRGB, where clipping
    // would turn the hue.
    const float chroma = 1.0f - std::fabs(spread) * 0.6f;
    return oklab_to_srgb(lightness, base.g * chroma, base.b * chroma);
}

std::string step_head_label(const AttentionConfig& config, StepId id, int head, bool brief) {
    const HeadGroups g = head_groups(config);
    if (!g.grouped()) return text::trf(brief ? "canvas.head_short" : "canvas.head_label", {{"head", head}});
    if (step_info(id).holds_kv_heads())
        return text::trf(brief ? "canvas.kv_head_short" : "canvas.kv_head_label", {{"head", head}});
    return text::trf(brief ? "canvas.head_kv_short" : "canvas.head_kv_label", {{"head", head}, {"group", g.group_of(head)}});
}

std::string head_groups_note(const AttentionConfig& config, StepId id) {
    const HeadGroups g = head_groups(config);
    if (!g.grouped()) return "";
    if (step_info(id).holds_kv_heads()) {
        return text::trf("canvas.note.kv_heads", {{"kv_heads", g.kv_heads}, {"share", g.share()}, {"share_minus_one", g.share() - 1}});
    }
    std::vector<std::string> groups;
    const int shown = std::min(g.kv_heads, 4);  // a long list would not fit on one line
    for (int k = 0; k < shown; ++k)
        groups.push_back(text::trf("canvas.note.kv_group", {{"first", k * g.share()}, {"last", (k + 1) * g.share() - 1}, {"group", k}}));
    if (shown < g.kv_heads) groups.push_back("...");
    return text::trf("canvas.note.kv_groups", {{"groups", text::join_list(groups)}, {"kv_heads", g.kv_heads}, {"share", g.share()}});
}

}  // namespace attn::gui
