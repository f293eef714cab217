// Validation messages and the memory budget.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/attention.h"
#include "core/softmax.h"

using namespace attn;

static std::string error_of(const AttentionConfig& c) {
    Status s = validate(c);
    return s.ok() ? std::string() : s.error();
}

TEST_CASE("hidden_dim not divisible by num_heads names both and the nearest valid choices") {
    AttentionConfig c;
    c.hidden_dim = 10;
    c.num_heads = 3;
    const std::string e = error_of(c);
    CHECK(e.find("hidden_dim 10") != std::string::npos);
    CHECK(e.find("num_heads 3") != std::string::npos);
    CHECK(e.find("num_heads 2 or 5") != std::string::npos);
    CHECK(e.find("hidden_dim 9 or 12") != std::string::npos);
    CHECK(nearest_valid_heads(12, 5) == std::vector<int>{4, 6});
    CHECK(nearest_valid_heads(12, 4) == std::vector<int>{4});
    CHECK(nearest_valid_hidden(10, 4) == std::vector<int>{8, 12});
    CHECK(nearest_valid_hidden(2, 4) == std::vector<int>{4});
}

TEST_CASE("sizes, lengths and dropout outside their ranges are refused with a message") {
    AttentionConfig c;
    SUBCASE("zero sequence") { c.seq_len = 0; CHECK(error_of(c).find("seq_len must be at least 1") != std::string::npos); }
    SUBCASE("zero heads") { c.num_heads = 0; CHECK(error_of(c).find("num_heads") != std::string::npos); }
    SUBCASE("dropout 1") { c.dropout = 1.0f; CHECK(error_of(c).find("dropout") != std::string::npos); }
    SUBCASE("dropout NaN") { c.dropout = std::nanf(""); CHECK_FALSE(error_of(c).empty()); }
    SUBCASE("valid length too long") {
        c.mask = MaskKind::Padding;
        c.valid_lengths = {5};
        CHECK(error_of(c).find("outside 0..4") != std::string::npos);
    }
    SUBCASE("valid length zero is allowed (padding: an item with no key)") { c.mask = MaskKind::Padding; c.valid_lengths = {0}; CHECK(error_of(c).empty()); }
    SUBCASE("wrong count of lengths") {
        c.batch = 3;
        c.mask = MaskKind::Padding;
        c.valid_lengths = {1, 2};
        CHECK(error_of(c).find("one valid length per batch item") != std::string::npos);
    }
    SUBCASE("fused cross-attention") { c.variant = Variant::Fused; c.kv_len = 6; CHECK(error_of(c).find("fused") != std::string::npos); }
    SUBCASE("a good config passes") { CHECK(error_of(c).empty()); }
}

TEST_CASE("configurations over the memory budget are refused before allocating") {
    AttentionConfig c;
    c.seq_len = 100000;
    c.hidden_dim = 64;
    c.num_heads = 16;
    const std::string e = error_of(c);
    CHECK(e.find("memory budget of 2.0 GiB") != std::string::npos);
    CHECK(e.find("needs about") != std::string::npos);
    Result<Trace> t = run_attention(c);  // must fail fast, not try to allocate ~2 TB
    CHECK_FALSE(t.ok());
    c.seq_len = 64;
    c.max_memory_bytes = 1000;
    CHECK(error_of(c).find("over the memory budget of 1000 B") != std::string::npos);
}

TEST_CASE("softmax is stable for huge scores and exact for masked entries") {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> scores = {1000.0f, 999.0f, -inf, 1000.0f, -inf, -inf, -inf, -inf, 3.0f, 3.0f, 3.0f, 3.0f};
    std::vector<float> weights(12);
    std::vector<unsigned char> flags(3, 9);
    const int fully = masked_softmax_rows(scores.data(), weights.data(), 3, 4, flags.data());
    CHECK(fully == 1);
    CHECK(flags == std::vector<unsigned char>{0, 1, 0});
    const double e1 = std::exp(-1.0);
    CHECK(weights[0] == doctest::Approx(1.0 / (2 + e1)));
    CHECK(weights[1] == doctest::Approx(e1 / (2 + e1)));
    CHECK(weights[2] == 0.0f);
    for (int j = 4; j < 8; ++j) CHECK(weights[size_t(j)] == 0.0f);
    for (int j = 8; j < 12; ++j) CHECK(weights[size_t(j)] == doctest::Approx(0.25));
}
