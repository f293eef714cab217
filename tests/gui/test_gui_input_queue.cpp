#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "app/gui/window/input_queue.h"

using namespace attn::gui;

namespace {
// Stand-in key codes; the queue never interprets them beyond equality.
constexpr int kShift = 340, kCtrl = 341, kA = 65, kT = 84, kBackspace = 259;
constexpr int kPress = 1, kRelease = 0;

InputEvent down(int key, bool modifier = false) { return InputEvent::key_event(key, 0, kPress, 0, false, modifier); }
InputEvent up(int key, bool modifier = false) { return InputEvent::key_event(key, 0, kRelease, 0, true, modifier); }
InputEvent text(unsigned c) { return InputEvent::char_event(c); }

std::vector<std::vector<InputEvent>> drain(InputQueue& q) {
    std::vector<std::vector<InputEvent>> frames;
    while (!q.empty()) frames.push_back(q.take_frame());
    return frames;
}

bool is_down(const InputEvent& e, int key) { return e.kind == InputEvent::Kind::Key && e.key == key && !e.is_release; }
}  // namespace

TEST_CASE("a key pressed and released between two frames is down for exactly one frame") {
    InputQueue q;
    q.push(down(kA));
    q.push(up(kA));
    const auto frames = drain(q);
    REQUIRE(frames.size() == 2);
    CHECK(is_down(frames[0].at(0), kA));
    CHECK(frames[1].at(0).is_release);
}

TEST_CASE("three quick Backspaces reach ImGui as three presses") {
    InputQueue q;
    for (int i = 0; i < 3; ++i) {
        q.push(down(kBackspace));
        q.push(up(kBackspace));
    }
    int presses = 0;
    for (const auto& frame : drain(q)) {
        int in_frame = 0;
        for (const auto& e : frame) in_frame += is_down(e, kBackspace);
        CHECK(in_frame <= 1);
        presses += in_frame;
    }
    CHECK(presses == 3);
}

TEST_CASE("a tapped Shift stays down in the frame that carries its capital letter") {
    // xdotool type "T": Shift down, T down, 'T', T up, Shift up, all between two frames.
    InputQueue q;
    q.push(down(kShift, true));
    q.push(down(kT));
    q.push(text('T'));
    q.push(up(kT));
    q.push(up(kShift, true));
    const auto frames = drain(q);
    REQUIRE(frames.size() >= 2);
    REQUIRE(frames[0].size() == 3);
    CHECK(is_down(frames[0][0], kShift));
    CHECK(frames[0][2].codepoint == 'T');
    for (size_t f = 1; f < frames.size(); ++f)
        for (const auto& e : frames[f]) CHECK(e.is_release);
}

TEST_CASE("Ctrl released right after A still gives Ctrl+A in one frame") {
    InputQueue q;
    q.push(down(kCtrl, true));
    q.push(down(kA));
    q.push(up(kCtrl, true));  // released before A: must wait for the next frame
    q.push(up(kA));
    const auto frames = drain(q);
    REQUIRE(frames.size() >= 2);
    REQUIRE(frames[0].size() == 2);
    CHECK(is_down(frames[0][0], kCtrl));
    CHECK(is_down(frames[0][1], kA));
}

TEST_CASE("text typed before a Backspace is not overtaken by it") {
    // ImGui inserts a frame's characters before it handles its keys.
    InputQueue q;
    q.push(text('x'));
    q.push(down(kBackspace));
    const auto frames = drain(q);
    REQUIRE(frames.size() == 2);
    CHECK(frames[0].at(0).kind == InputEvent::Kind::Char);
    CHECK(is_down(frames[1].at(0), kBackspace));
}

TEST_CASE("random bursts are delivered whole, in order, without a key changing twice in a frame") {
    std::uint32_t seed = 12345;
    auto next = [&seed]() { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
    const int keys[] = {kShift, kCtrl, kA, kT, kBackspace};
    for (int burst = 0; burst < 200; ++burst) {
        CAPTURE(burst);
        InputQueue q;
        std::vector<InputEvent> sent;
        bool held[5] = {};
        for (int i = 0; i < 40; ++i) {
            if (next() % 4 == 0) {
                sent.push_back(text('a' + next() % 26));
            } else {
                const int k = static_cast<int>(next() % 5);
                sent.push_back(held[k] ? up(keys[k], k < 2) : down(keys[k], k < 2));
                held[k] = !held[k];
            }
            q.push(sent.back());
        }
        std::vector<InputEvent> received;
        for (const auto& frame : drain(q)) {
            REQUIRE_FALSE(frame.empty());  // every frame makes progress
            std::vector<int> changed;
            for (const auto& e : frame) {
                if (e.kind == InputEvent::Kind::Key) {
                    for (int c : changed) CHECK(c != e.key);
                    changed.push_back(e.key);
                }
                received.push_back(e);
            }
        }
        REQUIRE(received.size() == sent.size());
        for (size_t i = 0; i < sent.size(); ++i) {
            CHECK(received[i].kind == sent[i].kind);
            CHECK(received[i].key == sent[i].key);
            CHECK(received[i].codepoint == sent[i].codepoint);
            CHECK(received[i].is_release == sent[i].is_release);
        }
    }
}

TEST_CASE("a click's press and release land in separate frames, after the key held with it") {
    // xdotool keydown ctrl click 1 keyup ctrl: Ctrl must be down in the frame of the press.
    InputQueue q;
    q.push(down(kCtrl, true));
    q.push(InputEvent::mouse_event(0, kPress, 0, false));
    q.push(InputEvent::mouse_event(0, kRelease, 0, true));
    q.push(up(kCtrl, true));
    const auto frames = drain(q);
    REQUIRE(frames.size() == 2);
    REQUIRE(frames[0].size() == 2);
    CHECK(is_down(frames[0][0], kCtrl));
    CHECK(frames[0][1].kind == InputEvent::Kind::MouseButton);
    CHECK_FALSE(frames[0][1].is_release);
    CHECK(frames[1][0].is_release);
}

TEST_CASE("mouse button 0 and key 0 are not confused") {
    InputQueue q;
    q.push(InputEvent::key_event(0, 0, kPress, 0, false, false));
    q.push(InputEvent::mouse_event(0, kRelease, 0, true));
    CHECK(q.take_frame().size() == 2);
}
