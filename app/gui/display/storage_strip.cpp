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

namespace {

// True when the tensor covers its whole buffer from position 0 and its strides are a
// permutation of a dense layout's (a contiguous tensor, or a view or transpose of one):
// every storage position is then an element, and its index along dimension d is
// position / stride[d] % shape[d], with no walk over the other dimensions.
bool covers_buffer_densely(const Tensor& t, const std::vector<int>& by_stride, int64_t storage_elements) {
    if (t.offset() != 0 || t.numel() != storage_elements) return false;
    int64_t dense = 1;
    for (auto d = by_stride.rbegin(); d != by_stride.rend(); ++d) {
        const auto du = static_cast<size_t>(*d);
        if (t.strides()[du] != dense) return false;
        dense *= t.shape()[du];
    }
    return true;
}

}  // namespace

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
    const bool dense = covers_buffer_densely(t, order, strip.storage_elements);
    const int hd = head_of.dim();
    const auto head_at = [&](int64_t pos) {
        if (dense) {  // the same answer as the walk below, one division instead of one per dimension
            if (hd < 0) return -2;
            const auto du = static_cast<size_t>(hd);
            const int h = shape[du] > 1 ? head_of.at(pos / strides[du] % shape[du]) : head_of.at(0);
            return h >= 0 ? std::min(h, 127) : -2;
        }
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
        // Dense: the samples share one head when the first and last lie in the same run of
        // stride[head dimension] positions.
        const int64_t last = begin + per_bin * (samples - 1) / samples;
        const bool one_run = dense && hd >= 0 && begin / strides[static_cast<size_t>(hd)] == last / strides[static_cast<size_t>(hd)];
        for (int k = 1; k < samples && !one_run; ++k) {
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
