#include "core/trace_difference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/mask_spec.h"

namespace attn {
namespace {

// A cell a mask hid (the -inf fill, or a finite fill such as -1e20 or finfo.min).
bool hidden(float v) { return v <= kFloatMaskHidesKey; }

float signed_difference(float a, float b) {
    if (hidden(a) || hidden(b)) return -std::numeric_limits<float>::infinity();  // drawn hatched
    if (std::isnan(a) && std::isnan(b)) return 0.0f;
    return a - b;
}

Comparable comparable_step(const Step& a, const Trace& b) {
    const Step* other = b.find(a.id);
    if (!other) return Comparable::MissingInB;
    return other->tensor.shape() == a.tensor.shape() ? Comparable::Yes : Comparable::ShapeDiffers;
}

// A fresh contiguous tensor with A's shape and dimension names holding A − B (both read
// in logical order, whatever their strides).
Tensor difference_tensor(const Tensor& a, const Tensor* b) {
    Tensor out = a.contiguous(/*force_copy=*/true);
    float* values = out.mutable_data();
    const int64_t n = out.numel();
    if (!b) {
        std::fill(values, values + n, 0.0f);
        return out;
    }
    const Tensor b_logical = b->contiguous();
    const float* bv = b_logical.data();
    for (int64_t k = 0; k < n; ++k) values[k] = signed_difference(values[k], bv[k]);
    return out;
}

}  // namespace

TraceDifference subtract_traces(const Trace& a, const Trace& b) {
    TraceDifference d;
    auto trace = std::make_shared<Trace>();
    trace->config = a.config;
    trace->model = a.model;
    trace->fully_masked_rows = a.fully_masked_rows;
    trace->steps.reserve(a.steps.size());
    for (const Step& step : a.steps) {
        const Comparable c = step.tensor.empty() ? Comparable::MissingInB : comparable_step(step, b);
        d.comparable.push_back(c);
        Step copy;
        copy.id = step.id;
        copy.kind = step.kind;
        copy.sources = step.sources;
        copy.provenance = step.provenance;
        // Every difference has a buffer of its own: it is no view of another.
        if (!step.tensor.empty()) copy.tensor = difference_tensor(step.tensor, c == Comparable::Yes ? &b.find(step.id)->tensor : nullptr);
        trace->steps.push_back(std::move(copy));
    }
    d.trace = std::move(trace);
    return d;
}

Message why_not_comparable(const Trace& a, const Trace& b, const TraceDifference& d, int a_index) {
    if (a_index < 0 || a_index >= static_cast<int>(d.comparable.size())) return {};
    const Step& step = a.steps[static_cast<size_t>(a_index)];
    switch (d.comparable[static_cast<size_t>(a_index)]) {
        case Comparable::Yes: return {};
        case Comparable::MissingInB: return Message("compare.missing_in_b", {{"step", step.name()}});
        case Comparable::ShapeDiffers:
            return Message("compare.shapes_differ", {{"step", step.name()},
                                                     {"a", step.tensor.shape_string()},
                                                     {"b", b.find(step.id)->tensor.shape_string()}});
    }
    return {};
}

float largest_difference(const TraceDifference& d, int index) {
    if (!d.trace || index < 0 || index >= static_cast<int>(d.comparable.size())) return 0.0f;
    if (d.comparable[static_cast<size_t>(index)] != Comparable::Yes) return 0.0f;
    const Tensor& t = d.trace->steps[static_cast<size_t>(index)].tensor;
    const float* v = t.data();
    float largest = 0.0f;
    for (int64_t k = 0; k < t.numel(); ++k)
        if (std::isfinite(v[k])) largest = std::max(largest, std::fabs(v[k]));
    return largest;
}

}  // namespace attn
