// Helpers for the example-model tests: the fixture folders, and a comparison that
// uses the models README's tolerance (absolute, relative for |x| > 1).
#pragma once

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
inline double model_diff(const std::vector<float>& ours, const std::vector<float>& ref, std::string* where) {
    if (ours.size() != ref.size()) {
        *where = "sizes differ: ours " + std::to_string(ours.size()) + ", torch " + std::to_string(ref.size());
        return 1e30;
    }
    double worst = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
        if (ours[i] == ref[i]) continue;  // includes matching -inf
        const double d = std::abs(double(ours[i]) - double(ref[i])) / std::max(1.0, std::abs(double(ref[i])));
        if (!(d <= worst)) {
            worst = std::isnan(d) ? 1e30 : d;
            *where = "flat index " + std::to_string(i) + ": ours " + std::to_string(ours[i]) + ", torch " + std::to_string(ref[i]);
        }
    }
    return worst;
}

}  // namespace attn::test
