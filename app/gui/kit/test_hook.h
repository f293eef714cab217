// Test-only layout report for the GUI tests in tests/gui/monkey/, which drive the real
// window with xdotool and need to know where the widgets are wherever the layout puts them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

struct ImDrawData;

namespace attn::gui {

// When ATTNVIZ_TEST_LAYOUT names a file, rewrites it (via a temporary file and a rename)
// whenever the window list, the keyboard-focused item or the hovered item changed: one line
// per visible ImGui window ("window x y w h name"), then "focus x0 y0 x1 y1 id window",
// "mouse x y", "hovered id", "active id", "text_input 0|1" and "pending_input n" (keyboard events still
// waiting in the window's input queue), then one "message <text>" line per non-empty
// message the window shows in its controls or status line (`messages`), so a test can
// check that bad input was answered, and last "sentence <text>" (the sentence box's text,
// so a typing test can check that every key arrived), "seq_len <L>" (the L of the
// configuration being shown) and "tokens <t1> <t2> ..." (the query tokens on screen, as the
// worker split the sentence). Call once per frame after
// ImGui::Render(). Does nothing, and costs one getenv at start-up, when the variable is unset.
void report_layout_for_tests(std::size_t pending_input, const std::vector<std::string>& messages = {},
                             const std::string& sentence = {}, int seq_len = 0,
                             const std::vector<std::string>& tokens = {});
// Adds "item <name> x0 y0 x1 y1" (the last ImGui item's rectangle) to this frame's report, so
// a test can click a widget the Tab order does not name (the model card's claim buttons).
void note_item_for_tests(const std::string& name);
// Adds "<line>" to this frame's report (the window's state a test checks, such as the step,
// head and layer on screen). Both do nothing when ATTNVIZ_TEST_LAYOUT is unset.
void note_for_tests(const std::string& line);
// True when ATTNVIZ_TEST_LAYOUT is set (the reports above write something).
bool layout_report_enabled();
// False while the window being drawn is laid out unseen (its first frame: ImGui measures an
// auto-sized popup, then centres it) or skipped: its items are not where they will be shown.
bool current_window_is_placed();
// True when an ImGui window appeared in this frame or was laid out unseen (an auto-sized
// popup is measured in one frame and shown, centred, in the next): the loop draws another
// frame instead of waiting for input, so a dialog never waits for the next mouse move.
bool window_still_settling();

// One run of text as it was drawn, read back from the draw lists: glyph quads on one
// baseline, each starting where the one before ended, with a space where they stand a
// space apart (a gap over 0.6 em starts another run). A glyph the fonts lack (ImGui draws
// the fallback glyph) is written as U+FFFD.
struct DrawnRun {
    std::string text;
    float x = 0, y = 0;  // top-left of the first glyph, in screen pixels
    std::string window;  // the ImGui window that drew it ("Name###id", a child "Parent/Child_...")
    // The run starts at or before its clip rectangle's left edge, or reaches its right
    // edge: a word there may be cut (ImGui drops the glyphs outside), so "sof" can be the
    // visible part of softmax.
    bool cut_start = false, cut_end = false;
    // The box its glyphs cover: right edge of the last glyph's advance, and the highest top
    // and lowest bottom of any glyph (upright text; for overlap checks).
    float right = 0, top = 0, bottom = 0;
};
// Every run of text in `draw_data` (the frame ImGui::Render() just made), in drawing order.
std::vector<DrawnRun> drawn_runs(const ImDrawData& draw_data);

// When ATTNVIZ_TEST_TEXT names a file, appends to it every run of text drawn this frame
// not written before ("x<TAB>y<TAB>window<TAB>cut<TAB>text" per line, cut: "-" or "<", ">",
// "<>" for cut_start and cut_end), so a test driving the real window can read all
// the words it showed. Call once per frame after ImGui::Render(). Nothing when unset.
void report_drawn_text_for_tests();

}  // namespace attn::gui
