// Parity with PyTorch's nn.MultiheadAttention, through the same file readers users
// use. The fixtures come from tests/torch_reference/make_fixtures.py (Debian's
// python3-torch) and are committed, so this runs without torch.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/io/npy.h"
#include "app/io/problem.h"

using namespace attn;
namespace fs = std::filesystem;

static const fs::path kFixtures = fs::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "torch";

static double max_diff(const Tensor& got, const Tensor& expected, std::string* where) {
    if (got.shape() != expected.shape()) {
        *where = "shape " + got.shape_string();
        return 1e30;
    }
    const std::vector<float> a = got.to_vector(), b = expected.to_vector();
    double worst = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        double d = std::abs(double(a[i]) - double(b[i]));
        if (std::isinf(a[i]) && a[i] == b[i]) d = 0;  // a masked cell on both sides
        else if (!std::isfinite(d)) d = 1e30;          // NaN or a one-sided infinity
        if (d > worst) {
            worst = d;
            *where = "flat index " + std::to_string(i) + ": ours " + std::to_string(a[i]) + ", torch " + std::to_string(b[i]);
        }
    }
    return worst;
}

static void check_case(const std::string& name) {
    const fs::path dir = kFixtures / name;
    std::ifstream config_file(dir / "config.json");
    REQUIRE_MESSAGE(config_file.good(), "missing fixture ", dir.string());
    const nlohmann::json j = nlohmann::json::parse(config_file);

    AttentionConfig c;
    c.num_heads = j["num_heads"];
    c.mask = parse_mask(j["mask"].get<std::string>()).value();
    c.valid_lengths = j["valid_lengths"].get<std::vector<int>>();
    io::ProblemSources src;
    src.weights_path = (dir / "weights.safetensors").string();
    src.query_path = (dir / "query.npy").string();
    if (j["cross"].get<bool>()) {
        src.key_path = (dir / "key.npy").string();
        src.value_path = (dir / "value.npy").string();
    }
    Result<io::Problem> p = io::build_problem(c, src);
    REQUIRE_MESSAGE(p.ok(), p.error());
    // The files alone decided the sizes; they must agree with what torch used.
    CHECK(p->config.E() == j["hidden_dim"].get<int>());
    CHECK(p->config.L() == j["seq_len"].get<int>());
    CHECK(p->config.S() == j["kv_len"].get<int>());
    CHECK(p->config.key_dim() == j["kdim"].get<int>());
    CHECK(p->config.value_dim() == j["vdim"].get<int>());
    CHECK(p->config.bias == j["bias"].get<bool>());

    Result<Trace> t = run_attention(p->config, p->weights, p->inputs);
    REQUIRE_MESSAGE(t.ok(), t.error());
    // Every step the forward recorded has a torch file of the same name.
    for (const Step& s : t->steps) {
        const std::string step = s.name();
        Result<Tensor> expected = io::read_npy((dir / (step + ".npy")).string());
        REQUIRE_MESSAGE(expected.ok(), expected.error());
        std::string where;
        const double diff = max_diff(s.tensor, expected.value(), &where);
        INFO(name, " / ", step, ": largest difference ", diff, " at ", where);
        CHECK(diff < 1e-5);
    }
}

TEST_CASE("matches torch nn.MultiheadAttention on every committed fixture") {
    const char* cases[] = {"self_basic", "causal", "padding", "cross_kdim_vdim", "cross_padding",
                           "no_bias", "hf_f16", "torch_bf16", "one_token"};
    for (const char* name : cases) {
        SUBCASE(name) { check_case(name); }
    }
}
