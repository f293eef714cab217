// Reading tests/fixtures/torch_options (made by tests/torch_reference/make_option_fixtures.py)
// and comparing tensors with the largest difference and its index reported.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/io/npy.h"
#include "core/tensor.h"

namespace option_cases {

inline std::filesystem::path fixture_dir(const std::string& name) {
    return std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "torch_options" / name;
}

// The case's config.json (the whole file: "config", "steps", "fully_masked_rows", ...).
inline nlohmann::json case_json(const std::string& name) {
    std::ifstream file(fixture_dir(name) / "config.json");
    REQUIRE_MESSAGE(file.good(), "missing fixture ", name);
    return nlohmann::json::parse(file);
}

// Every case name in cases.json.
inline std::vector<std::string> all_cases() {
    std::ifstream file(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "torch_options" / "cases.json");
    REQUIRE(file.good());
    std::vector<std::string> names;
    for (const auto& c : nlohmann::json::parse(file)) names.push_back(c["case"].get<std::string>());
    return names;
}

inline bool has_step(const nlohmann::json& j, const std::string& step) {
    for (const auto& s : j["steps"])
        if (s["name"] == step) return true;
    return false;
}

// A step's .npy (or any file in the case folder), which must exist.
inline attn::Tensor read_fixture(const std::string& name, const std::string& file) {
    attn::Result<attn::Tensor> t = attn::io::read_npy((fixture_dir(name) / file).string());
    REQUIRE_MESSAGE(t.ok(), t.error());
    return t.value();
}

struct Difference {
    double largest = 0;  // largest |ours - torch| / max(1, |torch|)
    std::string where;   // "flat index i: ours x, torch y" of the largest
};

// Largest difference, relative for magnitudes above 1 (fills such as -1e20 and
// finfo.min compare by their leading digits), absolute below. Infinities and NaNs
// must match exactly (callers replace torch's NaN rows first where the project differs).
inline Difference compare(const attn::Tensor& ours, const attn::Tensor& torch_values) {
    Difference d;
    if (ours.shape() != torch_values.shape()) {
        d.largest = 1e30;
        d.where = "shape " + attn::shape_text(ours.shape()) + " vs torch " + attn::shape_text(torch_values.shape());
        return d;
    }
    const std::vector<float> a = ours.to_vector(), b = torch_values.to_vector();
    for (size_t i = 0; i < a.size(); ++i) {
        double diff;
        if (std::isinf(b[i]) || std::isinf(a[i]) || std::isnan(a[i]) || std::isnan(b[i]))
            diff = (a[i] == b[i]) ? 0.0 : 1e30;
        else
            diff = std::abs(double(a[i]) - double(b[i])) / std::max(1.0, std::abs(double(b[i])));
        if (diff > d.largest || (i == 0 && diff >= d.largest)) {
            d.largest = diff;
            d.where = "flat index " + std::to_string(i) + ": ours " + std::to_string(a[i]) + ", torch " + std::to_string(b[i]);
        }
    }
    return d;
}

// Bit-level comparison: the number of elements whose float32 bits differ, and the first.
inline Difference compare_bits(const attn::Tensor& ours, const attn::Tensor& torch_values) {
    Difference d;
    if (ours.shape() != torch_values.shape()) {
        d.largest = 1e30;
        d.where = "shape differs";
        return d;
    }
    const std::vector<float> a = ours.to_vector(), b = torch_values.to_vector();
    for (size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) {
            if (d.largest == 0)
                d.where = "flat index " + std::to_string(i) + ": ours " + std::to_string(a[i]) + ", torch " + std::to_string(b[i]);
            d.largest += 1;
        }
    return d;
}

}  // namespace option_cases
