// The order the softmax sums a row's exponentials in (core/softmax.h, lane_sum): written in
// the code, so the forward, explain_cell and the step texts agree on every machine.
#include <doctest/doctest.h>

#include <vector>

#include "core/softmax.h"

using namespace attn;

namespace {

// lane_sum as its header says it: entry j into lane j % 16, each lane from the left, then
// lane k += lane k + w for w = 8, 4, 2, 1.
float documented_sum(const std::vector<float>& x) {
    std::vector<float> lane(kSumLanes, 0.0f);
    for (size_t j = 0; j < x.size(); ++j) lane[j % kSumLanes] += x[j];
    for (int width = kSumLanes / 2; width > 0; width /= 2)
        for (int k = 0; k < width; ++k) lane[static_cast<size_t>(k)] += lane[static_cast<size_t>(k + width)];
    return lane[0];
}

}  // namespace

TEST_CASE("a row's exponentials are summed in sixteen lanes, in the order the header gives") {
    for (const int n : {1, 5, 16, 17, 100, 1024, 1031}) {
        CAPTURE(n);
        // Magnitudes far apart, so another order would round differently.
        std::vector<float> x(static_cast<size_t>(n));
        for (int j = 0; j < n; ++j) x[static_cast<size_t>(j)] = (j % 7 == 0 ? 1.0e7f : 0.1f) * static_cast<float>(1 + j % 3);
        CHECK(lane_sum(x.data(), n) == documented_sum(x));
    }
    // Where the order shows: added from the left this is 1 + 1e8 - 1e8 + ... ; in lanes the
    // two large values meet first.
    std::vector<float> x(32, 0.0f);
    x[0] = 1.0f;
    x[1] = 1.0e8f;
    x[17] = -1.0e8f;
    float from_left = 0.0f;
    for (float v : x) from_left += v;
    CHECK(from_left == 0.0f);
    CHECK(lane_sum(x.data(), 32) == 1.0f);
}
