// Grouped-query attention on the canvas (head_groups.h): query heads that share a
// key/value head are drawn in that head's hue (lighter and darker shades of it), the
// key/value steps in the group colours themselves, and the panel titles and a note
// under the canvas say which heads share.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>

#include "app/gui/display/head_groups.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

// OKLab hue angle of a colour.
float hue(Rgb c) {
    const Rgb lab = srgb_to_oklab(c);
    return std::atan2(lab.b, lab.g);
}

bool same_rgb(Rgb a, Rgb b) { return std::fabs(a.r - b.r) < 1e-6f && std::fabs(a.g - b.g) < 1e-6f && std::fabs(a.b - b.b) < 1e-6f; }

}  // namespace

TEST_CASE("without grouping every head keeps its own colour and title") {
    AttentionConfig c = grouped(sized(4, 8, 4), 2);
    c.num_kv_heads = 0;
    for (int h = 0; h < 4; ++h) {
        CHECK(same_rgb(step_head_color(c, StepId::AttnWeights, h), head_color(h)));
        CHECK(same_rgb(step_head_color(c, StepId::KHeads, h), head_color(h)));
        CHECK(step_head_label(c, StepId::AttnWeights, h, false) == text::trf("canvas.head_label", {{"head", h}}));
    }
    CHECK(head_groups_note(c, StepId::AttnWeights).empty());
}

TEST_CASE("query heads sharing a key/value head take its hue; key/value steps show the group colours") {
    const AttentionConfig c = grouped(sized(4, 8, 4), 2);  // heads 0, 1 read kv 0; heads 2, 3 read kv 1
    for (int g = 0; g < 2; ++g) {
        CAPTURE(g);
        CHECK(same_rgb(step_head_color(c, StepId::KHeads, g), head_color(g)));
        CHECK(same_rgb(step_head_color(c, StepId::VHeads, g), head_color(g)));
        for (int member = 0; member < 2; ++member) {
            const int h = g * 2 + member;
            CAPTURE(h);
            for (StepId id : {StepId::QHeads, StepId::KRepeated, StepId::VRepeated, StepId::AttnWeights, StepId::Context}) {
                // Within 0.12 rad (7 degrees): the same hue family (sRGB clipping turns it a little).
                CHECK(std::fabs(hue(step_head_color(c, id, h)) - hue(head_color(g))) < 0.12f);
            }
        }
        // The two members still read apart (lightness differs).
        CHECK(std::fabs(srgb_to_oklab(step_head_color(c, StepId::AttnWeights, g * 2)).r -
                        srgb_to_oklab(step_head_color(c, StepId::AttnWeights, g * 2 + 1)).r) > 0.08f);
    }
    // Head 1 no longer has head 1's own (different) hue.
    CHECK(std::fabs(hue(step_head_color(c, StepId::AttnWeights, 1)) - hue(head_color(1))) > 0.3f);
    CHECK(step_head_label(c, StepId::AttnWeights, 3, false) == text::trf("canvas.head_kv_label", {{"head", 3}, {"group", 1}}));
    CHECK(step_head_label(c, StepId::KHeads, 1, false) == text::trf("canvas.kv_head_label", {{"head", 1}}));
}

TEST_CASE("the canvas titles grouped heads by their key/value head and explains the grouping") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(grouped(sized(4, 8, 4), 2));
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    imgui.frame(state);
    const std::string weights = drawn_text("Canvas");
    CHECK(shows(weights, text::trf("canvas.head_kv_label", {{"head", 3}, {"group", 1}})));
    CHECK(shows(weights, text::trf("canvas.note.kv_group", {{"first", 2}, {"last", 3}, {"group", 1}})));
    state.ui.playback.set_position(state.results.trace->index_of(StepId::KHeads), 1.0f);
    imgui.frame(state);
    const std::string keys = drawn_text("Canvas");
    CHECK(shows(keys, text::trf("canvas.kv_head_label", {{"head", 1}})));
    CHECK(shows(keys, head_groups_note(state.results.trace->config, StepId::KHeads)));
}
