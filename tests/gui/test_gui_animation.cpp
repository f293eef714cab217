#include <doctest/doctest.h>

#include "app/gui/display/animation.h"

using namespace attn::gui;

namespace {
void run(Playback& pb, float seconds) {
    for (int i = 0; i < static_cast<int>(seconds * 100.0f); ++i) pb.update(0.01f);
}
}  // namespace

TEST_CASE("next plays the following step from its start to its end") {
    Playback pb;
    pb.set_step_count(5);
    pb.set_position(0, 1.0f);
    pb.next();
    CHECK(pb.step() == 1);
    CHECK(pb.progress() == 0.0f);
    run(pb, Playback::kStepSeconds * 0.5f);
    CHECK(pb.progress() == doctest::Approx(0.5f).epsilon(0.05));
    run(pb, Playback::kStepSeconds);
    CHECK(pb.progress() == 1.0f);
    CHECK_FALSE(pb.animating());
}

TEST_CASE("previous plays the current step backwards, then rests on the one before") {
    Playback pb;
    pb.set_step_count(5);
    pb.set_position(3, 1.0f);
    pb.previous();
    run(pb, Playback::kStepSeconds * 0.5f);
    CHECK(pb.step() == 3);
    CHECK(pb.progress() < 0.6f);
    run(pb, Playback::kStepSeconds * 2.0f);
    CHECK(pb.step() == 2);
    CHECK(pb.progress() == 1.0f);
}

TEST_CASE("back at the first step keeps its finished picture (a clicker's back never blanks the screen)") {
    Playback pb;
    pb.set_step_count(5);
    pb.set_position(0, 1.0f);
    for (int press = 0; press < 3; ++press) {
        pb.previous();
        run(pb, 0.2f);
        CHECK(pb.step() == 0);
        CHECK(pb.progress() == 1.0f);
    }
    // Halfway through the first step's own animation, back finishes it instead of emptying it.
    pb.jump_to(0);
    run(pb, Playback::kStepSeconds * 0.3f);
    REQUIRE(pb.progress() < 1.0f);
    pb.previous();
    run(pb, Playback::kStepSeconds * 2.0f);
    CHECK(pb.step() == 0);
    CHECK(pb.progress() == 1.0f);
    // The next press forward moves on at once, as from any finished step.
    pb.next();
    run(pb, Playback::kStepSeconds * 2.0f);
    CHECK(pb.step() == 1);
}

TEST_CASE("a step's animation can be reversed halfway") {
    Playback pb;
    pb.set_step_count(5);
    pb.set_position(1, 1.0f);
    pb.next();
    run(pb, Playback::kStepSeconds * 0.4f);
    const float halfway = pb.progress();
    REQUIRE(halfway > 0.2f);
    pb.previous();
    run(pb, 0.1f);
    CHECK(pb.progress() < halfway);
}

TEST_CASE("playing walks through every step and stops at the end") {
    Playback pb;
    pb.set_step_count(3);
    pb.set_position(0, 0.0f);
    pb.play();
    run(pb, 20.0f);
    CHECK(pb.step() == 2);
    CHECK(pb.progress() == 1.0f);
    CHECK_FALSE(pb.playing());
}

TEST_CASE("speed scales the animation rate") {
    Playback slow, fast;
    for (Playback* pb : {&slow, &fast}) {
        pb->set_step_count(3);
        pb->set_position(0, 1.0f);
        pb->next();
    }
    fast.set_speed(4.0f);
    run(slow, 0.2f);
    run(fast, 0.2f);
    CHECK(fast.progress() == doctest::Approx(4.0f * slow.progress()).epsilon(0.05));
}

TEST_CASE("positions are clamped to the trace") {
    Playback pb;
    pb.set_step_count(4);
    pb.set_position(10, 3.0f);
    CHECK(pb.step() == 3);
    CHECK(pb.progress() == 1.0f);
    pb.set_step_count(2);
    CHECK(pb.step() == 1);
    pb.jump_to(-4);
    CHECK(pb.step() == 0);
}

TEST_CASE("an empty trace never moves") {
    Playback pb;
    pb.next();
    pb.previous();
    pb.play();
    pb.update(1.0f);
    CHECK(pb.step() == 0);
}

TEST_CASE("raster fill counts cells in reading order") {
    CHECK(raster_state(0.0f, 4, 5).full_rows == 0);
    const RasterState half = raster_state(0.5f, 4, 5);
    CHECK(half.full_rows == 2);
    CHECK(half.partial_cols == 0);
    const RasterState some = raster_state(0.3f, 4, 5);
    CHECK(some.full_rows == 1);
    CHECK(some.partial_cols == 1);
    CHECK(raster_state(1.0f, 4, 5).full_rows == 4);
}

TEST_CASE("views and transposes move panels, products fill cells") {
    CHECK(motion_for(attn::StepKind::Transpose).morph_layout);
    CHECK(motion_for(attn::StepKind::View).morph_layout);
    CHECK(motion_for(attn::StepKind::Concat).morph_layout);
    CHECK(motion_for(attn::StepKind::Scores).fill == StepMotion::Fill::Raster);
    CHECK(motion_for(attn::StepKind::Softmax).fill == StepMotion::Fill::Rows);
    CHECK(motion_for(attn::StepKind::Scores).show_sources);
    CHECK(ease(0.0f) == 0.0f);
    CHECK(ease(1.0f) == 1.0f);
    CHECK(ease(0.5f) == doctest::Approx(0.5f));
}

TEST_CASE("presses during an animation finish it and move one step, never piling up") {
    // 13 Right presses 0.15 s apart (a clicker, an impatient student): the screen must
    // end on the 14th step and stay there once the keys stop.
    Playback pb;
    pb.set_step_count(17);
    pb.set_position(0, 1.0f);
    for (int press = 0; press < 13; ++press) {
        pb.next();
        run(pb, 0.15f);
        CAPTURE(press);
        CHECK(pb.step() == press + 1);
    }
    run(pb, 10.0f);
    CHECK(pb.step() == 13);
    CHECK(pb.progress() == 1.0f);
    CHECK_FALSE(pb.animating());
}

TEST_CASE("a press mid-animation jumps to that step's end before moving on") {
    Playback pb;
    pb.set_step_count(5);
    pb.set_position(1, 1.0f);
    pb.next();
    run(pb, Playback::kStepSeconds * 0.3f);
    REQUIRE(pb.step() == 2);
    REQUIRE(pb.progress() < 1.0f);
    pb.next();
    CHECK(pb.step() == 3);
    CHECK(pb.progress() == 0.0f);
    SUBCASE("the last step stays finished") {
        pb.next();
        pb.next();
        pb.next();
        CHECK(pb.step() == 4);
        CHECK(pb.progress() == 1.0f);
    }
}

TEST_CASE("backward presses during a backward animation do not pile up either") {
    Playback pb;
    pb.set_step_count(10);
    pb.set_position(9, 1.0f);
    for (int press = 0; press < 5; ++press) {
        pb.previous();
        run(pb, 0.15f);
    }
    run(pb, 10.0f);
    CHECK(pb.step() == 4);
    CHECK(pb.progress() == 1.0f);
}
