// Helpers for the example-model tests: the fixture folders, and a comparison that
// uses the models README's tolerance (absolute, relative for |x| > 1).
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "app/io/npy.h"
#include "core/tensor.h"

namespace attn::test {

inline std::filesystem::path model_fixture_dir(const std::string& model) {
    return std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "models" / model;
}

// Largest |ours - ref| / max(1, |ref|) over all elements (equal infinities count as 0);
// `where` says which element and both values. Element counts must match (shapes may
// differ by a leading batch dimension of 1); otherwise 1e30.
// row_length > 0 (attention scores, (.., L, S) with S = row_length): each difference is
// relative to the largest |score| of its row instead of its own size. A score is a float32
// dot product whose rounding follows the size of its terms, not of the result: in the trained
// tiny-lm, terms of +-40 cancel to -0.85, and without FMA (the portable build) that score
// comes out 1.0e-5 away from the exact value. Softmax only sees differences within a row, so
// the row's scale is what an error there must be small against.
inline double model_diff(const std::vector<float>& ours, const std::vector<float>& ref, std::string* where,
                         size_t row_length = 0) {
    if (ours.size() != ref.size()) {
        *where = "sizes differ: ours " + std::to_string(ours.size()) + ", torch " + std::to_string(ref.size());
        return 1e30;
    }
    std::vector<double> row_scale;
    if (row_length > 0 && ref.size() % row_length == 0) {
        row_scale.assign(ref.size() / row_length, 1.0);
        for (size_t i = 0; i < ref.size(); ++i)
            if (std::isfinite(ref[i])) row_scale[i / row_length] = std::max(row_scale[i / row_length], std::abs(double(ref[i])));
    }
    double worst = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
        if (ours[i] == ref[i]) continue;  // includes matching -inf
        const double scale = row_scale.empty() ? std::max(1.0, std::abs(double(ref[i]))) : row_scale[i / row_length];
        const double d = std::abs(double(ours[i]) - double(ref[i])) / scale;
        if (!(d <= worst)) {
            worst = std::isnan(d) ? 1e30 : d;
            *where = "flat index " + std::to_string(i) + ": ours " + std::to_string(ours[i]) + ", torch " + std::to_string(ref[i]);
        }
    }
    return worst;
}

}  // namespace attn::test
