// Test-only layout report for the GUI tests in tests/gui/monkey/, which drive the real
// window with xdotool and need to know where the widgets are wherever the layout puts them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn::gui {

// When ATTNVIZ_TEST_LAYOUT names a file, rewrites it (via a temporary file and a rename)
// whenever the window list, the keyboard-focused item or the hovered item changed: one line
// per visible ImGui window ("window x y w h name"), then "focus x0 y0 x1 y1 id window",
// "mouse x y", "hovered id", "active id", "text_input 0|1" and "pending_input n" (keyboard events still
// waiting in the window's input queue), then one "message <text>" line per non-empty
// message the window shows in its controls or status line (`messages`), so a test can
// check that bad input was answered, and last "sentence <text>" (the sentence box's text,
// so a typing test can check that every key arrived) and "seq_len <L>" (the L of the
// configuration being shown). Call once per frame after
// ImGui::Render(). Does nothing, and costs one getenv at start-up, when the variable is unset.
void report_layout_for_tests(std::size_t pending_input, const std::vector<std::string>& messages = {},
                             const std::string& sentence = {}, int seq_len = 0);
// Adds "item <name> x0 y0 x1 y1" (the last ImGui item's rectangle) to this frame's report, so
// a test can click a widget the Tab order does not name (the model card's claim buttons).
void note_item_for_tests(const std::string& name);
// Adds "<line>" to this frame's report (the window's state a test checks, such as the step,
// head and layer on screen). Both do nothing when ATTNVIZ_TEST_LAYOUT is unset.
void note_for_tests(const std::string& line);

}  // namespace attn::gui
