#include "app/gui/display/fp32_difference.h"

#include <cmath>
#include <limits>
#include <set>

#include "core/mask_spec.h"

namespace attn::gui {
namespace {

// Calls visit(offset_in_a, offset_in_b) for every logical element of two tensors of one shape.
template <typename Visit>
void for_each_element(const Tensor& a, const Tensor& b, Visit&& visit) {
    const int rank = a.rank();
    const int64_t n = a.numel();
    std::vector<int64_t> index(static_cast<size_t>(rank), 0);
    for (int64_t k = 0; k < n; ++k) {
        visit(a.offset_of(index), b.offset_of(index));
        for (int d = rank - 1; d >= 0; --d) {
            if (++index[static_cast<size_t>(d)] < a.dim(d)) break;
            index[static_cast<size_t>(d)] = 0;
        }
    }
}

float difference(float a, float b) {
    const bool hidden_a = a <= kFloatMaskHidesKey, hidden_b = b <= kFloatMaskHidesKey;
    if (hidden_a && hidden_b) return -std::numeric_limits<float>::infinity();  // masked in both: drawn as masked
    if (std::isnan(a) && std::isnan(b)) return 0.0f;
    const float d = std::fabs(a - b);
    return std::isfinite(d) ? d : std::numeric_limits<float>::max();
}

}  // namespace

Message make_difference_trace(Trace& lowered, const Trace& float32) {
    if (lowered.steps.size() != float32.steps.size()) return Message("canvas.difference.mismatch");
    for (size_t i = 0; i < lowered.steps.size(); ++i) {
        const Step& a = lowered.steps[i];
        const Step& b = float32.steps[i];
        if (a.id != b.id || a.tensor.shape() != b.tensor.shape()) return Message("canvas.difference.mismatch");
    }
    // Each buffer once, through the first step that reads it (a view's base comes before
    // it), so a value is never differenced twice.
    std::set<const Storage*> done;
    for (size_t i = 0; i < lowered.steps.size(); ++i) {
        Tensor t = lowered.steps[i].tensor;  // shares the storage: writing through it writes the trace
        const Tensor& reference = float32.steps[i].tensor;
        if (t.empty() || t.numel() == 0 || !done.insert(t.storage()).second) continue;
        float* out = t.mutable_data();
        const float* ref = reference.data();
        for_each_element(t, reference, [&](int64_t at, int64_t ref_at) { out[at] = difference(out[at], ref[ref_at]); });
    }
    lowered.parameters = std::make_shared<const AttentionWeights>();
    return {};
}

}  // namespace attn::gui
