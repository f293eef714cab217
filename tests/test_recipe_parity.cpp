// Every recipe against its PyTorch module (assets/code/recipe_modules.py):
// each case of tests/fixtures/recipes is one recipe, one size and one seed (0, 1, 123)
// with --init torch; its `attnviz` options go through the real option table, the trace
// must record exactly the steps the module kept, each within 1e-5, and the first rows
// of the weights and the drawn inputs must be torch's own numbers.
#include <doctest/doctest.h>

#include <set>

#include "core/attention.h"
#include "core/recipe.h"
#include "tests/option_fixture_util.h"
#include "tests/recipe_fixture_util.h"

using namespace attn;

namespace {

// The first row torch printed for a named parameter, read from our weights.
// Names are those make_recipe_fixtures.py writes; rows in torch's (out, in) layout.
std::vector<float> our_first_row(const std::string& name, const AttentionWeights& w, int head_dim) {
    const auto row = [](const Mat& m) { return std::vector<float>(m.data(), m.data() + m.cols()); };
    const auto vec = [](const Vec& v) { return std::vector<float>(v.data(), v.data() + v.size()); };
    if (name == "W_query (head 0)") {  // nn.Parameter (d_in, d_h): its row 0 is column 0 of our first d_h rows
        std::vector<float> r;
        for (int j = 0; j < head_dim; ++j) r.push_back(w.w_q(j, 0));
        return r;
    }
    if (name == "Wq.weight" || name == "W_query.weight" || name == "q_proj.weight" || name == "first nn.Linear weight" || name == "in_proj_weight" ||
        name == "q_proj_weight")
        return row(w.w_q);
    if (name == "k_proj_weight") return row(w.w_k);
    if (name == "o_proj.weight" || name == "out_proj.weight") return row(w.w_o);
    if (name == "Wo.bias" || name == "out_proj.bias") return vec(w.b_o);
    if (name == "q_proj.bias") return vec(w.b_q);
    if (name == "first nn.Linear bias") {  // a fused (3E) bias runs on into b_k and b_v
        std::vector<float> r = vec(w.b_q), k = vec(w.b_k), v = vec(w.b_v);
        r.insert(r.end(), k.begin(), k.end());
        r.insert(r.end(), v.begin(), v.end());
        return r;
    }
    FAIL("no mapping for the parameter ", name);
    return {};
}

}  // namespace

TEST_CASE("every recipe's trace equals its PyTorch module at every step (seeds 0, 1, 123; two sizes)") {
    const std::vector<std::string> cases = recipe_fixtures::all_cases();
    REQUIRE(cases.size() >= 60);  // 10 recipes x 2 sizes x 3 seeds, plus dropout cases
    std::set<std::string> recipes_seen;
    for (const std::string& name : cases) {
        CAPTURE(name);
        const nlohmann::json j = recipe_fixtures::case_json(name);
        recipes_seen.insert(j["recipe"].get<std::string>());
        Result<io::Problem> problem = recipe_fixtures::problem_from_args(j["args"].get<std::vector<std::string>>());
        REQUIRE_MESSAGE(problem.ok(), problem.error());
        CHECK(problem->config.recipe == j["recipe"].get<std::string>());
        CHECK(problem->config.init == InitKind::Torch);
        Result<Trace> trace = run_attention(problem->config, problem->weights, problem->inputs);
        REQUIRE_MESSAGE(trace.ok(), trace.error());

        // The same steps: none missing, none extra.
        std::set<std::string> expected, ours;
        for (const auto& s : j["steps"]) expected.insert(s.get<std::string>());
        for (const Step& s : trace->steps) ours.insert(s.name());
        CHECK(ours == expected);

        for (const std::string& step : expected) {
            const std::optional<StepId> id = parse_step_name(step);
            REQUIRE(id.has_value());
            const Step* recorded = trace->find(*id);
            if (recorded == nullptr) continue;  // reported by the set comparison above
            const option_cases::Difference d = option_cases::compare(recorded->tensor.contiguous(), option_cases::read_fixture("../recipes/" + name, step + ".npy"));
            CAPTURE(step);
            CAPTURE(d.where);
            CHECK(d.largest <= 1e-5);
        }
        // Dropout: the kept/dropped pattern itself is torch's (a kept cell is never zero here).
        if (const Step* dropped = trace->find(StepId::AttnDropped)) {
            const std::vector<float> ours_values = dropped->tensor.to_vector();
            const std::vector<float> torch_values = option_cases::read_fixture("../recipes/" + name, "attn_dropped.npy").to_vector();
            const std::vector<float> weights = trace->find(StepId::AttnWeights)->tensor.to_vector();
            REQUIRE(ours_values.size() == torch_values.size());
            int differing = 0, dropped_cells = 0;
            for (size_t i = 0; i < ours_values.size(); ++i) {
                if (weights[i] == 0.0f) continue;  // masked: zero either way
                differing += (ours_values[i] == 0.0f) != (torch_values[i] == 0.0f);
                dropped_cells += torch_values[i] == 0.0f;
            }
            CHECK(differing == 0);
            CHECK(dropped_cells > 0);
        }
        // Inputs the recipe draws (torch.rand / torch.randn) and the example are torch's bits.
        for (const char* step : {"input", "key_input", "value_input"}) {
            const Step* recorded = trace->find(*parse_step_name(step));
            if (recorded == nullptr) continue;
            const option_cases::Difference bits = option_cases::compare_bits(recorded->tensor.contiguous(), option_cases::read_fixture("../recipes/" + name, std::string(step) + ".npy"));
            CAPTURE(step);
            CAPTURE(bits.where);
            CHECK(bits.largest == 0);
        }
        // Init replay: the first row of each weight exactly as torch has it.
        for (const auto& item : j["first_rows"].items()) {  // no structured bindings: clang 14 cannot CAPTURE them
            const std::string param = item.key();
            const auto& values = item.value();
            CAPTURE(param);
            const std::vector<float> ours_row = our_first_row(param, *problem->weights, problem->config.head_dim());
            const std::vector<double> torch_row = values.get<std::vector<double>>();
            REQUIRE(ours_row.size() >= torch_row.size());
            for (size_t i = 0; i < torch_row.size(); ++i) {
                CAPTURE(i);
                CHECK(std::abs(double(ours_row[i]) - torch_row[i]) <= 1e-7);
            }
        }
    }
    CHECK(recipes_seen.size() == recipes().size());  // every recipe has its PyTorch cases
}
