// The articles' options end to end: every case in tests/fixtures/torch_options is loaded the way `attnviz
// trace` loads it (io::build_problem with the case's weights, inputs and mask files and
// its config.json options), run through run_attention, and EVERY recorded step compared
// with PyTorch's: the same steps in the same order, each within 1e-5 in float32 and
// within the README's tolerances in bfloat16/float16. Where torch has NaN (a row with no
// key left under the -inf fill) the trace must hold zero weights and flag the row.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "app/io/problem.h"
#include "core/attention.h"
#include "tests/option_fixture_util.h"

using namespace attn;

namespace {

// The case's configuration under the option names, plus the files it reads.
struct CaseSetup {
    AttentionConfig config;
    io::ProblemSources sources;
};

CaseSetup setup_for(const std::string& name, const nlohmann::json& j) {
    const nlohmann::json& cfg = j["config"];
    CaseSetup s;
    AttentionConfig& c = s.config;
    c.num_heads = cfg["num_heads"].get<int>();
    c.batch = cfg["batch"].get<int>();
    c.seq_len = cfg["seq_len"].get<int>();
    const std::string mask = cfg["mask"].get<std::string>();
    if (Result<MaskKind> legacy = parse_mask(mask); legacy) c.mask = legacy.value();
    else c.mask_presets = parse_mask_presets(mask).value();
    // Only the padding presets read valid lengths (a case may list the ones its mask file was built from).
    if (c.mask_spec().presets.padding || c.mask_spec().presets.left_padding)
        c.valid_lengths = cfg["valid_lengths"].get<std::vector<int>>();
    c.window = cfg["window"].get<int>();
    c.mask_fill = parse_mask_fill(cfg["mask_fill"].get<std::string>()).value();
    const nlohmann::json& scale = cfg["scale"];
    c.scale = parse_scale(scale.is_string() ? scale.get<std::string>() : std::to_string(scale.get<double>())).value();
    c.mask_before_scale = cfg["mask_before_scale"].get<bool>();
    c.rope = cfg["rope"].get<bool>();
    c.rope_base = cfg["rope_base"].get<double>();
    c.rope_style = parse_rope_style(cfg["rope_style"].get<std::string>()).value();
    c.position_offset = cfg["position_offset"].get<int>();
    c.add_zero_attn = cfg["add_zero_attn"].get<bool>();
    c.seq_first = cfg["seq_first"].get<bool>();
    c.average_weights = cfg["average_weights"].get<bool>();
    c.dtype = parse_dtype(cfg["dtype"].get<std::string>()).value();
    // The variant_* cases: the same forward written as stacked heads or one fused projection.
    c.variant = parse_variant(cfg["variant"].get<std::string>()).value();
    // The weights file decides d_in, E, H_kv, kdim/vdim, the biases, the output projection
    // and bias_k/bias_v; the input files decide B, L and S.
    const nlohmann::json& files = j["files"];
    const auto path = [&](const char* key) { return (option_cases::fixture_dir(name) / files[key].get<std::string>()).string(); };
    s.sources.weights_path = path("weights");
    s.sources.query_path = path("query");
    if (files.contains("key")) s.sources.key_path = path("key");
    if (files.contains("value")) s.sources.value_path = path("value");
    if (!cfg["mask_file"].is_null()) s.sources.mask_path = (option_cases::fixture_dir(name) / "mask.npy").string();
    return s;
}

// The README's tolerances: float32 1e-5 for every step; bfloat16 0.02 on the score maps
// and 0.008 elsewhere (torch's small bmm kernel sums in bf16); float16 files hold the
// emulation itself.
double tolerance_for(DType dtype, const std::string& step) {
    const bool score_map = step == "attn_scores" || step == "attn_scaled" || step == "attn_masked";
    switch (dtype) {
        case DType::Float32: return 1e-5;
        case DType::BFloat16: return score_map ? 0.02 : 0.008;
        case DType::Float16: return 2e-3;
    }
    return 1e-5;
}

// torch's NaN cells (rows with no key under -inf) replaced by what the project records:
// weights 0 there, and whatever follows from them downstream (context 0, out = b_o).
Tensor torch_with_project_rows(const Tensor& torch_values, const Tensor& ours, int* nan_cells) {
    std::vector<float> values = torch_values.to_vector();
    const std::vector<float> mine = ours.to_vector();
    for (size_t k = 0; k < values.size() && k < mine.size(); ++k)
        if (std::isnan(values[k])) {
            values[k] = mine[k];
            ++*nan_cells;
        }
    return Tensor::from_values(torch_values.shape(), torch_values.dim_names(), values);
}

}  // namespace

TEST_CASE("every torch_options fixture case: run_attention records torch's steps in order, each within tolerance") {
    int cases_checked = 0;
    for (const std::string& name : option_cases::all_cases()) {
        CAPTURE(name);
        const nlohmann::json j = option_cases::case_json(name);
        const CaseSetup setup = setup_for(name, j);
        Result<io::Problem> problem = io::build_problem(setup.config, setup.sources);
        REQUIRE_MESSAGE(problem.ok(), name, ": ", problem.error());
        Result<Trace> trace = run_attention(problem->config, problem->weights, problem->inputs);
        REQUIRE_MESSAGE(trace.ok(), name, ": ", trace.error());

        std::vector<std::string> torch_steps, our_steps;
        for (const auto& s : j["steps"]) torch_steps.push_back(s["name"].get<std::string>());
        for (const Step& s : trace->steps) our_steps.push_back(s.name());
        CHECK(our_steps == torch_steps);

        // Rows with no key left, as torch saw them: [b, h, i].
        std::set<std::vector<int>> torch_rows;
        for (const auto& r : j["fully_masked_rows"]) torch_rows.insert(r.get<std::vector<int>>());
        std::set<std::vector<int>> our_rows;
        const int H = trace->config.H(), L = trace->config.L();
        for (size_t k = 0; k < trace->fully_masked_rows.size(); ++k)
            if (trace->fully_masked_rows[k])
                our_rows.insert({static_cast<int>(k) / (H * L), static_cast<int>(k) / L % H, static_cast<int>(k) % L});
        CHECK(our_rows == torch_rows);
        const nlohmann::json& torch_result = j["torch_fully_masked_result"];
        const bool torch_nan_rows = torch_result.is_string() && torch_result.get<std::string>() == "nan";

        for (const std::string& step_name : torch_steps) {
            CAPTURE(step_name);
            const std::optional<StepId> id = parse_step_name(step_name);
            REQUIRE(id.has_value());
            const Step* ours = trace->find(*id);
            if (ours == nullptr) continue;  // the order check above already failed
            int nan_cells = 0;
            const Tensor expected =
                torch_with_project_rows(option_cases::read_fixture(name, step_name + ".npy"), ours->tensor, &nan_cells);
            if (nan_cells > 0) {
                CHECK_MESSAGE(torch_nan_rows, "torch has NaN only on fully masked rows under -inf");
                if (*id == StepId::AttnWeights) {  // the project's result on those rows: zeros
                    const Tensor torch_values = option_cases::read_fixture(name, "attn_weights.npy");
                    const std::vector<float> t = torch_values.to_vector(), o = ours->tensor.to_vector();
                    for (size_t k = 0; k < t.size(); ++k)
                        if (std::isnan(t[k])) REQUIRE(o[k] == 0.0f);
                }
            }
            const option_cases::Difference d = option_cases::compare(ours->tensor, expected);
            INFO(name, " / ", step_name, ": largest difference ", d.largest, " at ", d.where);
            CHECK(d.largest <= tolerance_for(trace->config.dtype, step_name));
        }
        ++cases_checked;
    }
    CHECK(cases_checked == 79);
}

TEST_CASE("grouped-query attention with num_kv_heads = num_heads is plain multi-head attention") {
    AttentionConfig plain;
    plain.seq_len = 5;
    plain.hidden_dim = 8;
    plain.num_heads = 4;
    plain.mask = MaskKind::Causal;
    AttentionConfig gqa = plain;
    gqa.num_kv_heads = 4;
    const Result<Trace> a = run_attention(plain), b = run_attention(gqa);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(b->find(StepId::KRepeated) == nullptr);
    REQUIRE(a->steps.size() == b->steps.size());
    for (size_t i = 0; i < a->steps.size(); ++i) {
        CAPTURE(a->steps[i].name());
        CHECK(a->steps[i].tensor.to_vector() == b->steps[i].tensor.to_vector());
    }
    SUBCASE("and fewer key heads change the result") {
        AttentionConfig two = plain;
        two.num_kv_heads = 2;
        const Result<Trace> c = run_attention(two);
        REQUIRE(c.ok());
        REQUIRE(c->find(StepId::KRepeated) != nullptr);
        CHECK(c->find(StepId::KRepeated)->tensor.shape() == std::vector<int64_t>{1, 4, 5, 2});
        CHECK(c->find(StepId::K)->tensor.shape() == std::vector<int64_t>{1, 5, 4});
    }
}

TEST_CASE("a fully masked row under -1e20 is uniform and sums to 1; under -inf it is zeros; both flagged") {
    AttentionConfig c;
    c.batch = 2;
    c.seq_len = 4;
    c.hidden_dim = 6;
    c.num_heads = 2;
    c.mask = MaskKind::Padding;
    c.valid_lengths = {4, 0};  // item 1 has no key at all
    for (const char* fill : {"-1e20", "min", "-inf"}) {
        CAPTURE(fill);
        c.mask_fill = parse_mask_fill(fill).value();
        const Result<Trace> t = run_attention(c);
        REQUIRE_MESSAGE(t.ok(), t.error());
        CHECK(t->count_fully_masked_rows() == c.num_heads * c.seq_len);
        const Tensor& w = t->find(StepId::AttnWeights)->tensor;  // (B, H, L, S)
        const std::vector<float> values = w.to_vector();
        const size_t per_item = values.size() / 2;
        for (int64_t row = 0; row < c.num_heads * c.seq_len; ++row) {
            double sum = 0;
            for (int64_t j = 0; j < 4; ++j) {
                const float v = values[per_item + static_cast<size_t>(row * 4 + j)];
                if (std::string(fill) == "-inf") CHECK(v == 0.0f);
                else CHECK(v == doctest::Approx(0.25f).epsilon(1e-7));
                sum += v;
            }
            CHECK(sum == doctest::Approx(std::string(fill) == "-inf" ? 0.0 : 1.0).epsilon(1e-6));
        }
    }
}
