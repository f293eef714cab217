// Number and label formatting for cells, legends, tooltips and file names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::gui {

// A value short enough for a heatmap cell: "0.42", "-1.3", "12", "1e+03", "-inf".
// `max_chars` bounds the result's length (at least 3).
std::string format_cell_value(float value, int max_chars = 5);
// A value for tooltips and legends: up to 4 significant digits, "-inf", "nan".
std::string format_value(float value);
// "(L=4, H=2, d_h=3)" from sizes and names (names may be shorter than sizes).
std::string format_shape(const std::vector<int64_t>& shape, const std::vector<std::string>& names);
// "03_attn_scores.png": the 2-digit position in the trace, then the step name.
std::string snapshot_file_name(int position, const std::string& step_name);
// Milliseconds with one decimal: "12.3".
std::string format_ms(double ms);
// A label that fits `max_chars` characters: "elephant" -> "elep~".
std::string clip_label(const std::string& label, int max_chars);

}  // namespace attn::gui
