// The RoPE dials under q_rot and k_rot (rotation_pairs.h, views/canvas/view_canvas_rotation.h):
// the pairs read from the trace start at the source's coordinates and, turned by their
// whole angle, land on the rotated step's values, for both pairings and with a position
// offset; the canvas draws the dials' title on rotation steps only.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>

#include "app/gui/display/rotation_pairs.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

}  // namespace

TEST_CASE("a rotation's pairs start at the source and, turned by their angle, land on the rotated values") {
    for (RopeStyle style : {RopeStyle::Half, RopeStyle::Interleaved}) {
        for (int offset : {0, 7}) {
            CAPTURE(static_cast<int>(style));
            CAPTURE(offset);
            AppState state = state_for(rotated(sized(5, 16, 2), style, offset));
            REQUIRE(state.results.trace);
            const Trace& trace = *state.results.trace;
            for (StepId id : {StepId::QRot, StepId::KRot}) {
                const int index = trace.index_of(id);
                REQUIRE(index >= 0);
                for (int head = 0; head < 2; ++head)
                    for (int row = 0; row < 5; ++row) {
                        const std::vector<RotationPair> pairs = rotation_pairs(trace, index, 0, head, row);
                        REQUIRE(pairs.size() == 4);
                        for (const RotationPair& pair : pairs) {
                            CAPTURE(pair.first);
                            CHECK(pair.second == (style == RopeStyle::Half ? pair.first + 4 : pair.first + 1));
                            float x = 0, y = 0;
                            rotated_at(pair, 0.0f, x, y);
                            CHECK(x == pair.x0);
                            CHECK(y == pair.y0);
                            rotated_at(pair, 1.0f, x, y);
                            CHECK(x == doctest::Approx(pair.x1).epsilon(1e-4).scale(1.0));
                            CHECK(y == doctest::Approx(pair.y1).epsilon(1e-4).scale(1.0));
                            // Half-way it is still the same length (a rotation, not a blend).
                            rotated_at(pair, 0.5f, x, y);
                            CHECK(std::hypot(x, y) == doctest::Approx(std::hypot(pair.x0, pair.y0)).epsilon(1e-5));
                            // The angle grows with the position.
                            CHECK(pair.angle >= 0.0f);
                        }
                        if (row + offset > 0) CHECK(pairs.front().angle == doctest::Approx(static_cast<float>(row + offset)));
                    }
            }
            CHECK(rotation_pairs(trace, trace.index_of(StepId::QHeads), 0, 0, 0).empty());
        }
    }
}

TEST_CASE("the canvas draws the rotation dials under q_rot and k_rot only") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(rotated(sized(5, 16, 2), RopeStyle::Half, 2));
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    const std::string title_start = "at position 6";  // the last query (row 4) after an offset of 2
    state.ui.playback.set_position(state.results.trace->index_of(StepId::QRot), 1.0f);
    imgui.frame(state);
    CHECK(shows(drawn_text("Canvas"), title_start));
    CHECK(shows(drawn_text("Canvas"), text::trf("canvas.rope.angle", {{"degrees", "344"}})));  // 6 rad of pair (0, 4)
    state.ui.playback.set_position(state.results.trace->index_of(StepId::KRot), 0.5f);
    imgui.frame(state);
    CHECK(shows(drawn_text("Canvas"), title_start));
    state.ui.playback.set_position(state.results.trace->index_of(StepId::QHeads), 1.0f);
    imgui.frame(state);
    CHECK_FALSE(shows(drawn_text("Canvas"), title_start));
}
