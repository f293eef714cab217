#include "app/gui/compute/decode_rows.h"

#include "app/gui/display/panel_pixels.h"  // read_slice

#include <algorithm>
#include <cmath>

namespace attn::gui {
namespace {

// Row `row` of head h of a (B, H, rows, S) map for batch item b: its first `keys` values,
// read through the strides (Tensor::at per cell cost 2 ms of a decode click at S_t = 1024).
std::vector<float> map_row(const Tensor& map, int b, int h, int row, int keys) {
    return read_slice(map, {b, h, row, 0}, -1, 3, 1, keys);
}

}  // namespace

DecodeRowCompare compare_decode_row(const Trace& decode, const Trace& whole, int b) {
    DecodeRowCompare out;
    const int p = decode.decode_position();
    if (p < 0) return out;
    out.position = p;
    for (StepId id : {StepId::AttnScores, StepId::AttnScaled, StepId::AttnMasked, StepId::AttnWeights}) {
        const Step* one = decode.find(id);
        const Step* all = whole.find(id);
        if (!one || !all) continue;
        const int heads = static_cast<int>(one->tensor.dim(1)), keys = static_cast<int>(one->tensor.dim(3));
        DecodeRowStep step;
        step.id = id;
        float largest = 0;  // the whole pass's largest finite |value| in this row
        for (int h = 0; h < heads; ++h) {
            step.decode.push_back(map_row(one->tensor, b, h, 0, keys));   // (1, S_t): the step's one row
            step.whole.push_back(map_row(all->tensor, b, h, p, keys));    // row p of (L, S), keys 0..p
            for (int j = 0; j < keys; ++j) {
                const float x = step.decode.back()[static_cast<size_t>(j)], y = step.whole.back()[static_cast<size_t>(j)];
                if (!std::isfinite(x) || !std::isfinite(y)) continue;  // masked cells: -inf in both
                step.largest_difference = std::max(step.largest_difference, std::abs(x - y));
                largest = std::max(largest, std::abs(y));
            }
        }
        step.largest_relative = largest > 0 ? step.largest_difference / largest : 0.0f;
        out.steps.push_back(std::move(step));
    }
    return out;
}

}  // namespace attn::gui
