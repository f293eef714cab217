// The recipes' decode paths against their PyTorch modules (assets/code/recipe_modules.py):
// each case of tests/fixtures/recipes_decode (make_decode_fixtures.py) is one recipe, one
// size and one seed, run by the module as a generating model runs it (the prefill, then
// one row at a time against its own cache: the book's cache_k / cache_v, or Hugging
// Face's DynamicCache); AttnViz's run_attention_block must record every step the module
// kept, in every block, each within 1e-5 (k_cache as (B, H_kv, S_t, d_h), keys after RoPE).
#include <doctest/doctest.h>

#include <set>

#include "core/attention.h"
#include "core/kv_cache.h"
#include "tests/option_fixture_util.h"
#include "tests/recipe_fixture_util.h"

using namespace attn;

TEST_CASE("every recipe's decode steps equal its PyTorch module's, block by block, against the kept cache") {
    const std::vector<std::string> cases = recipe_fixtures::decode_cases();
    REQUIRE(cases.size() >= 12);  // scratch-kv-cache and llama, two sizes each, three seeds
    std::set<std::string> recipes_seen;
    for (const std::string& name : cases) {
        CAPTURE(name);
        const nlohmann::json j = recipe_fixtures::decode_case_json(name);
        recipes_seen.insert(j["recipe"].get<std::string>());
        Result<io::Problem> problem = recipe_fixtures::problem_from_args(j["args"].get<std::vector<std::string>>());
        REQUIRE_MESSAGE(problem.ok(), problem.error());
        const AttentionConfig& c = problem->config;
        REQUIRE(c.decode_from == j["decode_from"].get<int>());
        KvCache cache;
        const std::vector<std::string> blocks = j["blocks"].get<std::vector<std::string>>();
        REQUIRE(static_cast<int>(blocks.size()) == c.L() - c.decode_from + 1);
        for (size_t b = 0; b < blocks.size(); ++b) {
            CAPTURE(blocks[b]);
            const QueryBlock block = b == 0 ? QueryBlock{0, c.decode_from} : QueryBlock{c.decode_from + static_cast<int>(b) - 1, 1};
            const Result<Trace> trace = run_attention_block(c, problem->weights, problem->inputs, cache, block);
            REQUIRE_MESSAGE(trace.ok(), trace.error());
            for (const std::string& step : j["steps"][blocks[b]].get<std::vector<std::string>>()) {
                CAPTURE(step);
                const std::optional<StepId> id = parse_step_name(step);
                REQUIRE(id.has_value());
                const Step* recorded = trace->find(*id);
                REQUIRE_MESSAGE(recorded != nullptr, "AttnViz records no ", step, " where the module keeps it");
                const option_cases::Difference d = option_cases::compare(
                    recorded->tensor.contiguous(), option_cases::read_fixture("../recipes_decode/" + name + "/" + blocks[b], step + ".npy"));
                CAPTURE(d.where);
                CHECK(d.largest <= 1e-5);
            }
        }
    }
    CHECK(recipes_seen == std::set<std::string>{"scratch-kv-cache", "llama"});
}
