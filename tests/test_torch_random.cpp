// Replay of PyTorch's CPU generator, module init and dropout against Debian's
// python3-torch. The fixtures come from tests/torch_reference/make_init_fixtures.py
// and are committed, so this runs without torch.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "app/io/npy.h"
#include "core/torch_dropout.h"
#include "core/torch_init.h"
#include "core/torch_random.h"
#include "core/torch_vector_math.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

const fs::path kFixtures = fs::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "torch_init";

// Largest |ours - torch| (1e30 when the sizes differ) and where it happened.
struct Comparison {
    double largest = 0;
    int64_t unequal = 0;  // elements whose float differs at all
    std::string where = "nowhere";
};

Comparison compare(const std::vector<float>& ours, const std::vector<float>& torch_values) {
    Comparison c;
    if (ours.size() != torch_values.size()) {
        c.largest = 1e30;
        c.where = "sizes " + std::to_string(ours.size()) + " vs " + std::to_string(torch_values.size());
        return c;
    }
    for (size_t i = 0; i < ours.size(); ++i) {
        double d = std::abs(double(ours[i]) - double(torch_values[i]));
        if (std::isnan(d)) d = 1e30;
        if (d != 0) ++c.unequal;
        if (d > c.largest) {
            c.largest = d;
            c.where = "flat index " + std::to_string(i) + ": ours " + std::to_string(ours[i]) + ", torch " +
                      std::to_string(torch_values[i]);
        }
    }
    return c;
}

std::vector<float> values_of(const Mat& m) { return std::vector<float>(m.data(), m.data() + m.size()); }
std::vector<float> values_of(const Vec& v) { return std::vector<float>(v.data(), v.data() + v.size()); }

std::vector<float> read_fixture(const std::string& file) {
    Result<Tensor> t = io::read_npy((kFixtures / file).string());
    REQUIRE_MESSAGE(t.ok(), t.error());
    return t->to_vector();
}

int64_t product(const nlohmann::json& shape) {
    int64_t n = 1;
    for (const auto& d : shape) n *= d.get<int64_t>();
    return n;
}

// Whether dropout ops are replayed through torch_dropout (values) or through
// torch_dropout_keep_mask (pattern only); both must leave the generator alike.
enum class DropoutReplay { Values, KeepMask };

// What our replay of one fixture op gives, by the fixture's tensor names.
std::map<std::string, std::vector<float>> replay_op(TorchGenerator& gen, const nlohmann::json& op,
                                                    DropoutReplay dropout_replay) {
    const std::string kind = op["op"];
    std::map<std::string, std::vector<float>> out;
    if (kind == "linear") {
        const TorchLinear l = torch_linear(gen, op["in"], op["out"], op["bias"]);
        out["weight"] = values_of(l.weight);
        if (l.bias.size() > 0) out["bias"] = values_of(l.bias);
    } else if (kind == "mha") {
        TorchMhaOptions o;
        o.embed_dim = op["E"];
        o.kdim = op["kdim"];
        o.vdim = op["vdim"];
        o.bias = op["bias"];
        o.add_bias_kv = op["add_bias_kv"];
        const TorchMultiheadAttention m = torch_multihead_attention(gen, o);
        const std::pair<const char*, const Mat*> mats[] = {{"in_proj_weight", &m.in_proj_weight},
                                                           {"q_proj_weight", &m.q_proj_weight},
                                                           {"k_proj_weight", &m.k_proj_weight},
                                                           {"v_proj_weight", &m.v_proj_weight},
                                                           {"out_proj.weight", &m.out_proj.weight}};
        for (const auto& [name, mat] : mats)
            if (mat->size() > 0) out[name] = values_of(*mat);
        const std::pair<const char*, const Vec*> vecs[] = {{"in_proj_bias", &m.in_proj_bias},
                                                           {"out_proj.bias", &m.out_proj.bias},
                                                           {"bias_k", &m.bias_k},
                                                           {"bias_v", &m.bias_v}};
        for (const auto& [name, vec] : vecs)
            if (vec->size() > 0) out[name] = values_of(*vec);
    } else if (kind == "rand") {
        const nlohmann::json& shape = op["shape"];
        const int64_t rows = shape.size() == 1 ? 1 : shape[0].get<int64_t>();
        out["value"] = values_of(torch_rand(gen, rows, product(shape) / rows));
    } else if (kind == "randn") {
        const nlohmann::json& shape = op["shape"];
        const int64_t rows = shape.size() == 1 ? 1 : shape[0].get<int64_t>();
        out["value"] = values_of(torch_randn(gen, rows, product(shape) / rows));
    } else if (kind == "normal") {
        out["value"] = torch_normal(gen, op["numel"], op["mean"], op["std"]);
    } else if (kind == "uniform") {
        out["value"] = torch_uniform(gen, op["numel"], op["lo"], op["hi"]);
    } else if (kind == "dropout") {
        const std::vector<float> input = read_fixture(op["tensors"]["input"]);
        const double p = op["p"];
        std::vector<float> keep;
        if (dropout_replay == DropoutReplay::Values) {
            const std::vector<float> output = torch_dropout(gen, input, p);
            out["input"] = input;
            out["output"] = output;
            for (float y : output) keep.push_back(y != 0.0f ? 1.0f : 0.0f);  // the input has no zeros
        } else {
            for (uint8_t k : torch_dropout_keep_mask(gen, static_cast<int64_t>(input.size()), p))
                keep.push_back(k ? 1.0f : 0.0f);
        }
        out["keep"] = keep;
    } else {
        FAIL("unknown fixture op " << kind);
    }
    return out;
}

nlohmann::json read_manifest() {
    std::ifstream file(kFixtures / "manifest.json");
    REQUIRE_MESSAGE(file.good(), "missing ", (kFixtures / "manifest.json").string(),
                    "; run tests/torch_reference/make_init_fixtures.py");
    return nlohmann::json::parse(file);
}

// Replays one manifest case from its seed and checks every tensor torch recorded.
// Weights and samples within `tolerance`; dropout keep masks exactly.
void check_case(const nlohmann::json& c, DropoutReplay dropout_replay, double tolerance) {
    TorchGenerator gen(c["seed"].get<uint64_t>());
    int op_index = 0;
    for (const nlohmann::json& op : c["ops"]) {
        const std::map<std::string, std::vector<float>> ours = replay_op(gen, op, dropout_replay);
        for (const auto& item : op["tensors"].items()) {
            const std::string tensor_name = item.key();
            const std::string file = item.value();
            if (dropout_replay == DropoutReplay::KeepMask && tensor_name != "keep") continue;
            CAPTURE(op_index);
            CAPTURE(tensor_name);
            const auto found = ours.find(tensor_name);
            REQUIRE_MESSAGE(found != ours.end(), "our replay has no ", tensor_name);
            const Comparison cmp = compare(found->second, read_fixture(file));
            INFO(c["name"].get<std::string>(), " op ", op_index, " (", op["op"].get<std::string>(), ") ",
                 tensor_name, ": largest difference ", cmp.largest, " at ", cmp.where, "; ", cmp.unequal,
                 " elements differ");
            if (tensor_name == "keep") {
                CHECK(cmp.largest == 0.0);
            } else {
                CHECK(cmp.largest <= tolerance);
                // The replay is bit for bit (IEEE arithmetic and fused multiply-adds only,
                // plus the C library's double log/sin/cos on the short normal path).
                CHECK(cmp.unequal == 0);
            }
        }
        // A tensor torch has and the fixture lacks would mean the op was replayed wrongly.
        if (dropout_replay == DropoutReplay::Values) CHECK(ours.size() == op["tensors"].size());
        ++op_index;
    }
}

}  // namespace

TEST_CASE("nn.Linear(3, 2) after torch.manual_seed(123) has the weights torch prints") {
    // Printed by Debian's torch 1.13: torch.manual_seed(123); nn.Linear(3, 2).weight.
    const float expected[] = {-0.2354296f, 0.0191245f, -0.2867459f, 0.2177266f, -0.4919342f, 0.4232231f};
    TorchGenerator gen(123);
    const TorchLinear linear = torch_linear(gen, 3, 2);
    REQUIRE(linear.weight.rows() == 2);
    REQUIRE(linear.weight.cols() == 3);
    for (int i = 0; i < 6; ++i) {
        CAPTURE(i);
        // Seven printed decimals: within half a unit of the last one.
        CHECK(std::abs(linear.weight.data()[i] - expected[i]) < 6e-8);
    }
}

TEST_CASE("the generator is a Mersenne Twister on the seed's low 32 bits, random64 high word first") {
    std::mt19937 reference(123);
    TorchGenerator gen(123);
    CHECK(gen.random() == reference());
    const uint64_t high = reference(), low = reference();
    CHECK(gen.random64() == ((high << 32) | low));

    TorchGenerator wide((uint64_t{1} << 32) + 5), narrow(5);
    for (int i = 0; i < 4; ++i) CHECK(wide.random() == narrow.random());
    CHECK(wide.initial_seed() == (uint64_t{1} << 32) + 5);
}

TEST_CASE("manual_seed restarts the stream and forgets the cached normal") {
    TorchGenerator gen(7);
    const std::vector<float> first = torch_normal(gen, 3, 0.0, 1.0);  // leaves a cached sine half
    REQUIRE(gen.cached_double_normal().has_value());
    gen.manual_seed(7);
    CHECK_FALSE(gen.cached_double_normal().has_value());
    CHECK(torch_normal(gen, 3, 0.0, 1.0) == first);
}

TEST_CASE("the vectorised normal path draws 16 more words for a tail that is not a whole block") {
    // numel 17: 17 uniforms, then the last 16 drawn again: 33 words in all.
    TorchGenerator gen(1);
    torch_normal(gen, 17, 0.0, 1.0);
    std::mt19937 reference(1);
    reference.discard(33);
    CHECK(gen.random() == reference());

    // numel 32: two whole blocks, no redraw.
    TorchGenerator gen32(1);
    torch_normal(gen32, 32, 0.0, 1.0);
    std::mt19937 reference32(1);
    reference32.discard(32);
    CHECK(gen32.random() == reference32());
}

TEST_CASE("torch's AVX2 log and sincos stay within a few float ulps of the true functions") {
    double worst_log = 0, worst_sin = 0, worst_cos = 0;
    for (int i = 1; i <= 20000; ++i) {
        const float u = static_cast<float>(i) / 20000.0f;  // (0, 1], Box-Muller's u1
        worst_log = std::max(worst_log, std::abs(double(torch_avx_log(u)) - std::log(double(u))));
        const float theta = static_cast<float>(2.0 * 3.14159265358979323846) * (static_cast<float>(i - 1) / 20000.0f);
        float s, c;
        torch_avx_sincos(theta, &s, &c);
        worst_sin = std::max(worst_sin, std::abs(double(s) - std::sin(double(theta))));
        worst_cos = std::max(worst_cos, std::abs(double(c) - std::cos(double(theta))));
    }
    CAPTURE(worst_log);
    CAPTURE(worst_sin);
    CAPTURE(worst_cos);
    CHECK(worst_log < 1e-6);
    CHECK(worst_sin < 1e-6);
    CHECK(worst_cos < 1e-6);
    CHECK(std::isnan(torch_avx_log(0.0f)));
}

TEST_CASE("every committed torch init fixture replays within 1e-7, in fact bit for bit") {
    const nlohmann::json manifest = read_manifest();
    REQUIRE(manifest["cases"].size() > 30);
    for (const nlohmann::json& c : manifest["cases"]) {
        const std::string name = c["name"];
        SUBCASE(name.c_str()) { check_case(c, DropoutReplay::Values, 1e-7); }
    }
}

TEST_CASE("dropout keep masks equal torch's exactly, whichever function replays them") {
    const nlohmann::json manifest = read_manifest();
    int dropout_cases = 0;
    for (const nlohmann::json& c : manifest["cases"]) {
        const std::string name = c["name"];
        if (name.rfind("dropout_", 0) != 0) continue;
        ++dropout_cases;
        SUBCASE(name.c_str()) { check_case(c, DropoutReplay::KeepMask, 1e-7); }
    }
    CHECK(dropout_cases == 3);
}

TEST_CASE("dropout scales kept values by 1 / float(1 - p) and keeps roughly 1 - p of them") {
    CHECK(torch_dropout_scale(0.1) == 1.0f / 0.9f);
    CHECK(torch_dropout_scale(0.5) == 2.0f);
    TorchGenerator gen(0);
    const std::vector<uint8_t> keep = torch_dropout_keep_mask(gen, 20000, 0.1);
    int kept = 0;
    for (uint8_t k : keep) kept += k;
    CHECK(kept > 17700);
    CHECK(kept < 18300);

    // p = 0 and p = 1 draw nothing.
    TorchGenerator a(3), b(3);
    CHECK(torch_dropout(a, std::vector<float>{1.f, 2.f}, 0.0) == std::vector<float>{1.f, 2.f});
    CHECK(torch_dropout(a, std::vector<float>{1.f, 2.f}, 1.0) == std::vector<float>{0.f, 0.f});
    CHECK(a.random() == b.random());
}

TEST_CASE("dropout on a (B, H, L, S) tensor keeps its shape and draws in C order") {
    const Tensor weights = Tensor::from_values({1, 2, 2, 3}, {"B", "H", "L", "S"},
                                               {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    TorchGenerator by_tensor(123), by_values(123);
    const Tensor dropped = torch_dropout(by_tensor, weights, 0.5);
    CHECK(dropped.shape() == weights.shape());
    CHECK(dropped.dim_names() == weights.dim_names());
    CHECK(dropped.to_vector() == torch_dropout(by_values, weights.to_vector(), 0.5));
    // A transposed view is read in its logical order, as torch's contiguous noise is.
    TorchGenerator by_view(123), by_copy(123);
    const Tensor view = weights.transpose(2, 3);
    CHECK(torch_dropout(by_view, view, 0.5).to_vector() == torch_dropout(by_copy, view.contiguous(true), 0.5).to_vector());
}

TEST_CASE("to_attention_weights slices torch's packed in_proj_weight into W_q, W_k, W_v") {
    TorchGenerator gen(123);
    TorchMhaOptions o;
    o.embed_dim = 4;
    const TorchMultiheadAttention m = torch_multihead_attention(gen, o);
    const AttentionWeights w = to_attention_weights(m);
    REQUIRE(w.w_q.rows() == 4);
    CHECK(w.w_q == m.in_proj_weight.topRows(4));
    CHECK(w.w_k == m.in_proj_weight.middleRows(4, 4));
    CHECK(w.w_v == m.in_proj_weight.bottomRows(4));
    CHECK(w.w_o == m.out_proj.weight);
    REQUIRE(w.has_bias());
    CHECK(w.b_q.isZero(0));
    CHECK(w.b_o.isZero(0));

    TorchGenerator gen2(123);
    o.kdim = 3;
    o.vdim = 2;
    o.bias = false;
    const AttentionWeights cross = to_attention_weights(torch_multihead_attention(gen2, o));
    CHECK(cross.w_k.cols() == 3);
    CHECK(cross.w_v.cols() == 2);
    CHECK_FALSE(cross.has_bias());
}
