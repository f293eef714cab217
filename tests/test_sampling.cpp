// Choosing the next token (core/model/sampling.h): temperature, then top-k, then top-p as
// Hugging Face orders them, ties to the lower id, and draws that the seed alone decides.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/model/sampling.h"

using namespace attn;

namespace {

Vec row(std::vector<float> values) { return Eigen::Map<const Vec>(values.data(), static_cast<Eigen::Index>(values.size())); }

std::vector<int> kept_ids(const std::vector<uint8_t>& kept) {
    std::vector<int> ids;
    for (size_t i = 0; i < kept.size(); ++i)
        if (kept[i]) ids.push_back(static_cast<int>(i));
    return ids;
}

// `count` tokens drawn from the same logits with `settings`.
std::vector<int> draws(const Vec& logits, const SamplingSettings& settings, int count) {
    Rng rng = sample_rng(settings.seed);
    std::vector<int> tokens;
    for (int i = 0; i < count; ++i) tokens.push_back(choose_next_token(logits, settings, rng).token);
    return tokens;
}

}  // namespace

TEST_CASE("greedy picks the largest logit, the lower id among equal ones, and draws nothing") {
    Rng rng = sample_rng(1);
    Rng untouched = sample_rng(1);
    const NextTokenChoice c = choose_next_token(row({0.5f, 2.0f, -1.0f, 2.0f}), SamplingSettings{}, rng);
    CHECK(c.token == 1);
    CHECK(c.probability == 1.0f);
    CHECK(c.model_probability == doctest::Approx(c.probs[1]));
    CHECK(kept_ids(c.kept) == std::vector<int>{1});
    CHECK(c.uniform == -1);
    CHECK(rng.next_u64() == untouched.next_u64());  // greedy reads no random number
}

TEST_CASE("top-k keeps the k largest, the lower ids first among equal values") {
    const Vec logits = row({1.0f, 3.0f, 2.0f, 3.0f, 2.0f});
    CHECK(kept_ids(top_k_keep(logits, 1)) == std::vector<int>{1});
    CHECK(kept_ids(top_k_keep(logits, 2)) == std::vector<int>{1, 3});
    CHECK(kept_ids(top_k_keep(logits, 3)) == std::vector<int>{1, 2, 3});
    CHECK(kept_ids(top_k_keep(logits, 0)).size() == 5);
    CHECK(kept_ids(top_k_keep(logits, 9)).size() == 5);
}

TEST_CASE("top-p keeps the tokens until their sum reaches p, the one that crosses p included") {
    const Vec probs = row({0.1f, 0.5f, 0.3f, 0.1f});
    const std::vector<uint8_t> all(4, 1);
    CHECK(kept_ids(top_p_keep(probs, all, 0.5f)) == std::vector<int>{1});        // 0.5 reaches 0.5
    CHECK(kept_ids(top_p_keep(probs, all, 0.6f)) == std::vector<int>{1, 2});     // 0.5 < 0.6: 0.3 crosses
    CHECK(kept_ids(top_p_keep(probs, all, 0.85f)) == std::vector<int>{0, 1, 2}); // equal 0.1s: id 0 first
    CHECK(kept_ids(top_p_keep(probs, all, 0.01f)) == std::vector<int>{1});       // the most likely always stays
    CHECK(kept_ids(top_p_keep(probs, all, 1.0f)).size() == 4);
}

TEST_CASE("the filters apply in order: temperature, top-k, then top-p on what top-k left") {
    SamplingSettings s;
    s.temperature = 2.0f;
    s.top_k = 3;
    s.top_p = 0.6f;
    Rng rng = sample_rng(3);
    const Vec logits = row({4.0f, 3.0f, 2.0f, 1.0f, 0.0f});
    const NextTokenChoice c = choose_next_token(logits, s, rng);
    // softmax(logits / 2) over ids 0..2 is 0.506, 0.307, 0.186: 0.506 < 0.6, so id 1 crosses.
    CHECK(kept_ids(c.kept) == std::vector<int>{0, 1});
    CHECK(c.filtered[0] == doctest::Approx(1.0 / (1.0 + std::exp(-0.5))).epsilon(1e-6));
    CHECK(c.filtered[2] == 0.0f);
    CHECK(c.tempered.sum() == doctest::Approx(1.0));
    CHECK(c.tempered[0] < c.probs[0]);  // T > 1 flattens
    CHECK(c.probability == c.filtered[c.token]);
}

TEST_CASE("a seed decides every draw: the same seed the same tokens, another seed others") {
    const Vec logits = row({1.0f, 1.2f, 0.8f, 1.1f, 0.9f, 1.0f});
    SamplingSettings s;
    s.temperature = 1.0f;
    s.seed = 42;
    const std::vector<int> first = draws(logits, s, 40);
    CHECK(first == draws(logits, s, 40));
    s.seed = 43;
    CHECK(first != draws(logits, s, 40));
    int distinct = 0;
    for (int id = 0; id < 6; ++id) distinct += std::count(first.begin(), first.end(), id) > 0;
    CHECK(distinct >= 4);  // a near-flat distribution: the draws spread
}

TEST_CASE("a draw takes the first token whose cumulative probability passes the uniform number") {
    SamplingSettings s;
    s.temperature = 1.0f;
    for (uint64_t seed = 0; seed < 20; ++seed) {
        s.seed = seed;
        Rng rng = sample_rng(seed);
        const NextTokenChoice c = choose_next_token(row({0.0f, 1.0f, 2.0f}), s, rng);
        CAPTURE(seed);
        double below = 0;
        for (int i = 0; i < c.token; ++i) below += c.filtered[i];
        CHECK(c.uniform >= below - 1e-7);
        CHECK(c.uniform < below + c.filtered[c.token] + 1e-7);
    }
}

TEST_CASE("bad sampling settings are refused with the value and the range") {
    SamplingSettings s;
    s.temperature = -0.5f;
    CHECK(check_sampling(s).message().id == "error.sample.temperature");
    s.temperature = std::nanf("");
    CHECK(check_sampling(s).message().id == "error.sample.temperature");
    s = {};
    s.top_k = -1;
    CHECK(check_sampling(s).message().id == "error.sample.top_k");
    s = {};
    for (float p : {0.0f, -0.1f, 1.5f}) {
        s.top_p = p;
        CHECK(check_sampling(s).message().id == "error.sample.top_p");
    }
    s = {};
    s.temperature = 0.7f;
    s.top_k = 5;
    s.top_p = 0.9f;
    CHECK(check_sampling(s).ok());
}

// tests/fixtures/generation/filters.json (tests/torch_reference/make_generation_fixtures.py):
// Hugging Face's warpers written from torch.topk and the cumulative top-p cut, and the tokens
// the specified generator (SplitMix64, 53-bit uniforms, cumulative sum by id) must draw,
// computed there independently.
TEST_CASE("the filters keep what the PyTorch reference keeps, and the seed draws the reference's tokens") {
    std::ifstream in(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "generation" / "filters.json");
    REQUIRE(in.good());
    const nlohmann::json cases = nlohmann::json::parse(in)["cases"];
    REQUIRE(cases.size() >= 6);
    for (size_t n = 0; n < cases.size(); ++n) {
        const nlohmann::json& c = cases[n];
        CAPTURE(n);
        const std::vector<float> values = c["logits"].get<std::vector<float>>();
        SamplingSettings s;
        s.temperature = c["temperature"].get<float>();
        s.top_k = c["top_k"].get<int>();
        s.top_p = c["top_p"].get<float>();
        s.seed = c["seed"].get<uint64_t>();
        Rng rng = sample_rng(s.seed);
        const NextTokenChoice first = choose_next_token(row(values), s, rng);
        CHECK(kept_ids(first.kept) == c["kept"].get<std::vector<int>>());
        const std::vector<double> filtered = c["filtered"].get<std::vector<double>>();
        for (size_t i = 0; i < filtered.size(); ++i) CHECK(first.filtered[static_cast<Eigen::Index>(i)] == doctest::Approx(filtered[i]).epsilon(1e-6));
        std::vector<int> drawn = {first.token};
        while (drawn.size() < c["draws"].size()) drawn.push_back(choose_next_token(row(values), s, rng).token);
        CHECK(drawn == c["draws"].get<std::vector<int>>());
    }
}
