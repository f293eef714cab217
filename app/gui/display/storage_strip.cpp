#include "app/gui/display/storage_strip.h"

#include <algorithm>

namespace attn::gui {

void name_buffer(const Trace& trace, int index, StorageStrip& strip,
                 std::map<const Storage*, std::pair<int, std::string>>& buffers) {
    const Step& step = trace.steps[static_cast<size_t>(index)];
    auto found = buffers.find(step.tensor.storage());
    if (found == buffers.end()) {
        const int id = static_cast<int>(buffers.size()) + 1;
        found = buffers.emplace(step.tensor.storage(), std::make_pair(id, std::string(step.name()))).first;
    } else {
        strip.shares_with = found->second.second;
    }
    strip.buffer_id = found->second.first;
}

StorageStrip make_strip(const Trace& trace, int index, const HeadOf& head_of) {
    const Step& step = trace.steps[static_cast<size_t>(index)];
    const Tensor& t = step.tensor;
    StorageStrip strip;
    const Storage* storage = t.storage();
    strip.storage_elements = storage ? static_cast<int64_t>(storage->size()) : 0;
    strip.strides = t.strides();
    strip.offset = t.offset();
    strip.contiguous = t.is_contiguous();
    if (strip.storage_elements == 0) return strip;

    const int bins = static_cast<int>(std::min<int64_t>(strip.storage_elements, 1024));
    strip.bins.assign(static_cast<size_t>(bins), -1);
    const auto& shape = t.shape();
    const auto& strides = t.strides();
    // Storage position -> logical index: walk the dimensions from the largest stride
    // down (views, transposes and slices keep strides a permutation of a dense layout).
    std::vector<int> order;
    for (int d = 0; d < t.rank(); ++d) {
        if (shape[static_cast<size_t>(d)] > 1) order.push_back(d);
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) { return strides[static_cast<size_t>(a)] > strides[static_cast<size_t>(b)]; });
    std::vector<int64_t> idx(shape.size(), 0);
    const auto head_at = [&](int64_t pos) {
        int64_t rem = pos - t.offset();
        if (rem < 0) return -1;
        std::fill(idx.begin(), idx.end(), 0);
        for (int d : order) {
            const auto du = static_cast<size_t>(d);
            idx[du] = strides[du] > 0 ? rem / strides[du] : 0;
            rem -= idx[du] * strides[du];
            if (idx[du] >= shape[du]) return -1;
        }
        if (rem != 0) return -1;
        const int h = head_of(idx);
        return h >= 0 ? std::min(h, 127) : -2;
    };
    // Several samples per bin: a bin that covers more than one head is drawn as mixed
    // instead of pretending to be whichever head its centre fell on.
    const int64_t per_bin = std::max<int64_t>(1, strip.storage_elements / bins);
    const int samples = static_cast<int>(std::min<int64_t>(per_bin, 16));
    for (int bin = 0; bin < bins; ++bin) {
        const int64_t begin = static_cast<int64_t>(bin) * strip.storage_elements / bins;
        int value = head_at(begin);
        for (int k = 1; k < samples; ++k) {
            if (head_at(begin + per_bin * k / samples) != value) {
                value = -3;
                break;
            }
        }
        strip.bins[static_cast<size_t>(bin)] = static_cast<int8_t>(value);
    }
    // The storage positions of the first logical elements, in logical (C) order.
    const int64_t first = std::min<int64_t>(t.numel(), 16);
    for (int64_t n = 0; n < first; ++n) {
        int64_t r = n, p = t.offset();
        for (int d = t.rank() - 1; d >= 0; --d) {
            const auto du = static_cast<size_t>(d);
            p += (r % shape[du]) * strides[du];
            r /= shape[du];
        }
        strip.first_positions.push_back(p);
    }
    return strip;
}

}  // namespace attn::gui
