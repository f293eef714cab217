// Number and label formatting for cells, legends, tooltips and file names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::gui {

// Numbers in heatmap cells follow one rule: a number drawn is the value rounded to a
// fixed count of decimals (sign kept, but a value that rounds to zero prints "0.0", never
// "-0.0" or ".32"), and every cell of a step uses the same count (the canvas chooses it
// over all panels of the step). When no count fits every cell, the step shows colours
// only and says so.
//
// The decimals (2, 1 or 0) for a panel whose cells hold `count` values, each drawn in at
// most `max_chars` characters; -1 when none fits. Fewer decimals are taken only while the
// panel's largest |value| keeps two significant digits (0.32 needs 2, 1.1 needs 1). -inf (a masked
// score) is drawn as "-inf" when 4 characters fit and ignored otherwise, a finite mask
// fill (is_fill_value) likewise; nan and +inf are not drawn and do not count.
int choose_cell_decimals(const float* values, size_t count, int max_chars);
// `value` with `decimals` decimals ("-0.06" -> "-0.1", "-0.03" -> "0.0" at 1); "-inf" for
// -inf; a finite mask fill as "-3e+38"; "" for nan/+inf or decimals < 0.
std::string format_cell_fixed(float value, int decimals);
// Differences (compare mode's A − B, differences from float32) whose "-0.48" or "2.9e-3"
// does not fit their cells print in units of 10^-k instead: the power of ten that gives
// the largest |value| two digits (0.4803 -> 2, 0.0069 -> 4; never below 0), and each
// value as the whole number round(value x 10^k) ("-48", "7"; never "-0"). The canvas
// says which unit under the picture. 0 for a largest of 0.
int scaled_exponent(float largest);
std::string format_cell_scaled(float value, int exponent);
// "100", "10000", then "1e+06": the factor the scaled numbers were multiplied by.
std::string format_power_of_ten(int exponent);
// A finite value so large it can only be a mask fill (float32's lowest, -1e20): it is
// not a number to read in a cell, and must not decide the decimals of the others.
bool is_fill_value(float value);
// A value for tooltips and legends: up to `significant` (default 4) significant digits,
// "-inf", "nan"; zero is "0" whatever its sign.
std::string format_value(float value, int significant = 4);
// "(L=4, H=2, d_h=3)" from sizes and names (names may be shorter than sizes).
std::string format_shape(const std::vector<int64_t>& shape, const std::vector<std::string>& names);
// "03_attn_scores.png": the 2-digit position in the trace, then the step name.
std::string snapshot_file_name(int position, const std::string& step_name);
// Lines of `text` no wider than `max_width` (by `width_of`), broken only at spaces so a
// number such as "0.1756" or "-inf" is never split; a single word wider than the line
// gets a line of its own.
template <typename WidthOf>
std::vector<std::string> wrap_at_spaces(const std::string& text, float max_width, WidthOf width_of) {
    std::vector<std::string> lines;
    std::string line;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        const std::string joined = line.empty() ? word : line + " " + word;
        if (!line.empty() && width_of(joined) > max_width) {
            lines.push_back(line);
            line = word;
        } else {
            line = joined;
        }
        start = end + 1;
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}
// Milliseconds with one decimal: "12.3".
std::string format_ms(double ms);
// A label that fits `max_chars` characters (UTF-8 characters, not bytes): "elephant" -> "elep~".
std::string clip_label(const std::string& label, int max_chars);

}  // namespace attn::gui
