// Generation with a trained model (core/model/generate.h): every layer decoded one token at
// a time against its own KV cache gives the rows of the whole pass over the same tokens,
// the generated tokens are what the distribution of the row before chose, and a prompt plus
// N that does not fit max_len is refused with how many fit.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/io/model_loader.h"
#include "core/model/generate.h"
#include "core/model/model_forward.h"
#include "core/model/tokenizer.h"
#include "core/step_id.h"
#include "model_fixtures.h"

using namespace attn;

namespace {

std::shared_ptr<const Model> load(const std::string& name) {
    Result<std::shared_ptr<const Model>> model = io::load_model(name);
    REQUIRE_MESSAGE(model.ok(), model.error());
    return model.value();
}

std::vector<int> prompt_ids(const Model& model, const std::string& text) {
    Result<TokenizedText> tokens = tokenize(model.spec, text);
    REQUIRE_MESSAGE(tokens.ok(), tokens.error());
    return tokens->ids;
}

// The largest difference between `rows` of a block and the same rows of the whole pass,
// relative to max(1, |whole|).
double block_vs_whole(const Mat& block_rows, const Mat& whole, int first) {
    const Mat same = whole.middleRows(first, block_rows.rows());
    return ((block_rows - same).array().abs() / same.array().abs().max(1.0f)).maxCoeff();
}

}  // namespace

TEST_CASE("greedy generation decodes every layer against its cache and equals the whole pass row by row") {
    for (const std::string name : {"tiny-lm", "sort"}) {
        CAPTURE(name);
        const auto model = load(name);
        const std::vector<int> prompt = prompt_ids(*model, name == "sort" ? "4 9 2 6 |" : "the dog saw");
        const int N = 4;
        Result<GenerationRun> run = generate(*model, prompt, N, SamplingSettings{});
        REQUIRE_MESSAGE(run.ok(), run.error());
        const int P = static_cast<int>(prompt.size());
        REQUIRE(run->ids.size() == static_cast<size_t>(P + N));
        REQUIRE(run->blocks.size() == static_cast<size_t>(N + 1));
        REQUIRE(run->choices.size() == static_cast<size_t>(N));
        Result<ModelRun> whole = run_model(*model, run->ids);
        REQUIRE(whole.ok());
        for (int step = 0; step <= N; ++step) {
            CAPTURE(step);
            const ModelRun& block = run->blocks[static_cast<size_t>(step)];
            const int first = step == 0 ? 0 : P + step - 1;
            CHECK(block.block.first == first);
            CHECK(block.block.count == (step == 0 ? P : 1));
            CHECK(block_vs_whole(block.logits, whole->logits, first) < 1e-4);
            for (size_t layer = 0; layer < block.layers.size(); ++layer)
                CHECK(block_vs_whole(block.layers[layer].output, whole->layers[layer].output, first) < 1e-4);
        }
        // Each generated token is the argmax of the row before it.
        for (int i = 0; i < N; ++i) CHECK(run->ids[static_cast<size_t>(P + i)] == whole->predicted_ids[static_cast<size_t>(P + i - 1)]);
        for (const KvCache& cache : run->caches) CHECK(cache.length() == P + N);
    }
}

TEST_CASE("a decode step's layer trace has one query row, the cache of every earlier position and the model's steps") {
    const auto model = load("tiny-lm");
    Result<GenerationRun> run = generate(*model, prompt_ids(*model, "the cat sat on"), 3, SamplingSettings{});
    REQUIRE(run.ok());
    const int P = run->prompt_length;
    Result<Trace> trace = trace_generation_step(*model, run.value(), 2, 1);
    REQUIRE_MESSAGE(trace.ok(), trace.error());
    CHECK(trace->decode_position() == P + 1);
    CHECK(trace->model.layer == 1);
    const Step* cache = trace->find(StepId::KCache);
    REQUIRE(cache != nullptr);
    CHECK(cache->tensor.dim(2) == P + 2);
    CHECK(trace->find(StepId::AttnWeights)->tensor.dim(2) == 1);
    CHECK(trace->find(StepId::NextTokenProbs)->tensor.dim(1) == 1);
    CHECK(trace->find(StepId::Tokens)->tensor.dim(1) == 1);
    CHECK(trace->model.tokens.size() == static_cast<size_t>(P + 2));
    CHECK_FALSE(trace_generation_step(*model, run.value(), 4, 0).ok());
}

TEST_CASE("sampled generation is reproducible by seed and records each draw's probability") {
    const auto model = load("tiny-lm");
    const std::vector<int> prompt = prompt_ids(*model, "the");
    SamplingSettings s;
    s.temperature = 1.5f;
    s.top_k = 20;
    s.top_p = 0.95f;
    s.seed = 7;
    Result<GenerationRun> a = generate(*model, prompt, 10, s);
    Result<GenerationRun> b = generate(*model, prompt, 10, s);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a->ids == b->ids);
    bool differs = false;
    for (uint64_t seed = 8; seed < 14 && !differs; ++seed) {
        s.seed = seed;
        differs = generate(*model, prompt, 10, s)->ids != a->ids;
    }
    CHECK(differs);
    for (const NextTokenChoice& c : a->choices) {
        CHECK(c.probability > 0.0f);
        CHECK(c.probability == c.filtered[c.token]);
        CHECK(c.model_probability == c.probs[c.token]);
    }
}

TEST_CASE("a prompt plus N beyond max_len, and bad settings, are refused with one message") {
    const auto model = load("tiny-lm");  // max_len 16
    const std::vector<int> prompt = prompt_ids(*model, "the dog saw the cat");  // <bos> + 5
    Result<GenerationRun> run = generate(*model, prompt, 11, SamplingSettings{});
    REQUIRE_FALSE(run.ok());
    CHECK(run.message().id == "error.generate.too_many");
    CHECK(run.error().find("at most 10 can be generated") != std::string::npos);
    CHECK(generate(*model, prompt, 10, SamplingSettings{}).ok());
    CHECK(generate(*model, prompt, 0, SamplingSettings{}).message().id == "error.generate.too_many");
    SamplingSettings bad;
    bad.top_p = 0;
    CHECK(generate(*model, prompt, 2, bad).message().id == "error.sample.top_p");
}

TEST_CASE("decoding a given sentence from P runs the same steps with the tokens given") {
    const auto model = load("tiny-lm");
    const std::vector<int> ids = prompt_ids(*model, "the dog saw the cat and it ran");
    Result<GenerationRun> run = decode_model(*model, ids, 3);
    REQUIRE_MESSAGE(run.ok(), run.error());
    CHECK(run->ids == ids);
    CHECK(run->choices.empty());
    CHECK(run->steps() == static_cast<int>(ids.size()) - 3);
    Result<ModelRun> whole = run_model(*model, ids);
    REQUIRE(whole.ok());
    CHECK(block_vs_whole(run->blocks.back().logits, whole->logits, static_cast<int>(ids.size()) - 1) < 1e-4);
    CHECK(decode_model(*model, ids, 0).message().id == "error.decode.range");
    CHECK(decode_model(*model, ids, static_cast<int>(ids.size())).message().id == "error.decode.range");
}

// tests/fixtures/generation/greedy.json (tests/torch_reference/make_generation_fixtures.py): a
// plain PyTorch loop over the committed weights, the whole sequence run again at each step
// (no cache) in float64, argmax of the last row.
TEST_CASE("greedy generation from every next-token model equals an independent PyTorch loop") {
    std::ifstream in(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "generation" / "greedy.json");
    REQUIRE(in.good());
    const nlohmann::json cases = nlohmann::json::parse(in)["cases"];
    REQUIRE(cases.size() == 5);
    for (const nlohmann::json& c : cases) {
        const std::string name = c["model"].get<std::string>();
        CAPTURE(name);
        const auto model = load(name);
        const std::vector<int> prompt = c["prompt_ids"].get<std::vector<int>>();
        const std::vector<int> expected = c["generated_ids"].get<std::vector<int>>();
        Result<GenerationRun> run = generate(*model, prompt, static_cast<int>(expected.size()), SamplingSettings{});
        REQUIRE_MESSAGE(run.ok(), run.error());
        CHECK(std::vector<int>(run->ids.begin() + static_cast<std::ptrdiff_t>(prompt.size()), run->ids.end()) == expected);
        const std::vector<double> probabilities = c["probabilities"].get<std::vector<double>>();
        for (size_t i = 0; i < probabilities.size(); ++i)
            CHECK(run->choices[i].model_probability == doctest::Approx(probabilities[i]).epsilon(1e-4));
    }
}
