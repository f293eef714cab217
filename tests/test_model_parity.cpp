// The example models run through AttnViz match the same models run in PyTorch: every
// intermediate of tests/fixtures/models/NAME (written by assets/models/train.py) within
// 1e-5, absolute, relative above 1; scores relative to their row's largest |score| (see
// model_diff; assets/models/README.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "app/io/model_loader.h"
#include "core/step_id.h"
#include "core/model/model_forward.h"
#include "core/model/model_trace.h"
#include "core/model/tokenizer.h"
#include "model_fixtures.h"

using namespace attn;

namespace {

std::vector<float> values_of(const Mat& m) { return std::vector<float>(m.data(), m.data() + m.size()); }

const Tensor& step_tensor(const Trace& trace, StepId id) {
    const Step* step = trace.find(id);
    REQUIRE_MESSAGE(step != nullptr, "the trace has no step ", step_name(id));
    return step->tensor;
}

// Ours for one fixture file ("layer1.scores.npy"), from the model run and its layers' traces.
std::vector<float> ours_for(const std::string& file, const ModelRun& run) {
    const std::string stem = file.substr(0, file.size() - 4);
    if (stem == "token_ids") return {};  // checked separately (ids, not floats)
    if (stem == "token_embedding") return values_of(run.token_embedding);
    if (stem == "position_embedding") return values_of(run.position_embedding);
    if (stem == "embedding_sum") return values_of(run.embedding_sum);
    if (stem == "final_norm") return values_of(run.final_norm);
    if (stem == "logits") return values_of(run.logits);
    if (stem == "probs") return values_of(run.probs);
    REQUIRE_MESSAGE(stem.rfind("layer", 0) == 0, "unknown fixture ", file);
    const size_t dot = stem.find('.');
    const size_t layer = std::stoul(stem.substr(5, dot - 5));
    REQUIRE(layer < run.layers.size());
    const LayerRun& lr = run.layers[layer];
    const std::string part = stem.substr(dot + 1);
    const Trace& t = lr.attention;
    // The attention parts are read from the layer's attention trace: the steps a learner sees.
    static const std::map<std::string, StepId> attention_steps = {
        {"ln1", StepId::Input},         {"q", StepId::QHeads},          {"k", StepId::KHeads},
        {"v", StepId::VHeads},          {"scores", StepId::AttnScores}, {"scaled", StepId::AttnScaled},
        {"weights", StepId::AttnWeights}, {"context", StepId::Context}, {"concat", StepId::Concat},
        {"attn_out", StepId::Out},      {"q_rot", StepId::QRot},        {"k_rot", StepId::KRot}};
    if (part == "masked")  // an encoder records no mask step: its softmax input is `scaled`
        return step_tensor(t, t.find(StepId::AttnMasked) ? StepId::AttnMasked : StepId::AttnScaled).to_vector();
    if (auto it = attention_steps.find(part); it != attention_steps.end()) return step_tensor(t, it->second).to_vector();
    if (part == "resid_attn") return values_of(lr.resid_attn);
    if (part == "ln2") return values_of(lr.ln2);
    if (part == "mlp_fc1") return values_of(lr.mlp.hidden);
    if (part == "mlp_gelu") return values_of(lr.mlp.activated);
    if (part == "mlp_fc2") return values_of(lr.mlp.out);
    if (part == "resid_mlp") return values_of(lr.output);
    FAIL("no counterpart for fixture ", file);
    return {};
}

void check_model_parity(const std::string& name) {
    const auto dir = test::model_fixture_dir(name);
    std::ifstream manifest_file(dir / "manifest.json");
    REQUIRE_MESSAGE(manifest_file.good(), "missing ", (dir / "manifest.json").string());
    const nlohmann::json manifest = nlohmann::json::parse(manifest_file);

    Result<std::shared_ptr<const Model>> model = io::load_model(name);
    REQUIRE_MESSAGE(model.ok(), model.error());
    // The card's tokeniser gives the fixture's tokens from its example sentence.
    Result<TokenizedText> tokens = tokenize(model.value()->spec, model.value()->spec.example);
    REQUIRE_MESSAGE(tokens.ok(), tokens.error());
    CHECK(tokens->tokens == manifest["tokens"].get<std::vector<std::string>>());
    CHECK(tokens->ids == manifest["token_ids"].get<std::vector<int>>());

    Result<ModelRun> run = run_model(*model.value(), tokens->ids);
    REQUIRE_MESSAGE(run.ok(), run.error());
    int compared = 0;
    for (const auto& entry : manifest["files"]) {
        const std::string file = entry["file"].get<std::string>();
        if (file == "token_ids.npy") continue;
        Result<Tensor> ref = io::read_npy((dir / file).string());
        REQUIRE_MESSAGE(ref.ok(), ref.error());
        std::string where;
        // Scores and logits are sums of products: a value near 0 is what is left after terms of
        // the row's size cancel, so it is held to its row's largest |value| (model_diff).
        const bool scores = file.find("scores") != std::string::npos || file.find("scaled") != std::string::npos ||
                            file.find("masked") != std::string::npos || file == "logits.npy";
        const size_t row = scores ? static_cast<size_t>(ref->dim(ref->rank() - 1)) : 0;
        const double diff = test::model_diff(ours_for(file, run.value()), ref->to_vector(), &where, row);
        CAPTURE(file);
        CAPTURE(where);
        CHECK(diff <= 1e-5);
        ++compared;
    }
    CHECK(compared + 1 == static_cast<int>(manifest["files"].size()));
}

}  // namespace

TEST_CASE("tiny-lm matches PyTorch at every intermediate, both layers") { check_model_parity("tiny-lm"); }
TEST_CASE("tiny-lm-zh matches PyTorch at every intermediate, both layers") { check_model_parity("tiny-lm-zh"); }
TEST_CASE("the reverse model matches PyTorch at every intermediate") { check_model_parity("reverse"); }
TEST_CASE("the sort model matches PyTorch at every intermediate") { check_model_parity("sort"); }
TEST_CASE("tiny-llama matches PyTorch at every intermediate: RMSNorm, RoPE, grouped-query heads, no biases") {
    check_model_parity("tiny-llama");
}
TEST_CASE("the induction model matches PyTorch at every intermediate") { check_model_parity("induction"); }

// The same check through the trace a learner steps through: every step of every layer's
// trace (embeddings, layer input, norm, attention, residual, prediction) against torch.
static void check_trace_parity(const std::string& name) {
    const auto dir = test::model_fixture_dir(name);
    const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(dir / "manifest.json"));
    Result<std::shared_ptr<const Model>> model = io::load_model(name);
    REQUIRE_MESSAGE(model.ok(), model.error());
    const Model& m = *model.value();
    Result<TokenizedText> tokens = tokenize(m.spec, m.spec.example);
    REQUIRE(tokens.ok());
    const auto fixture = [&](const std::string& file) {
        Result<Tensor> t = io::read_npy((dir / file).string());
        REQUIRE_MESSAGE(t.ok(), t.error());
        return t->to_vector();
    };
    // predicted_tokens: the argmax of torch's logits, (L, V) -> (L).
    std::vector<float> torch_argmax;
    {
        Result<Tensor> logits = io::read_npy((dir / "logits.npy").string());
        REQUIRE(logits.ok());
        const std::vector<float> v = logits->to_vector();
        const int64_t L = logits->dim(0), V = logits->dim(1);
        for (int64_t t = 0; t < L; ++t)
            torch_argmax.push_back(static_cast<float>(std::max_element(v.begin() + t * V, v.begin() + (t + 1) * V) - (v.begin() + t * V)));
    }
    for (int layer = 0; layer < m.spec.layers; ++layer) {
        for (Variant variant : {Variant::Split, Variant::Stacked, Variant::Fused}) {
            Result<Trace> trace = trace_model_layer(m, tokens.value(), layer, variant);
            REQUIRE_MESSAGE(trace.ok(), trace.error());
            CHECK(trace->model.tokens == tokens->tokens);
            const std::string prefix = "layer" + std::to_string(layer) + ".";
            const std::string previous = "layer" + std::to_string(layer - 1) + (m.spec.mlp ? ".resid_mlp.npy" : ".resid_attn.npy");
            for (const Step& step : trace->steps) {
                std::vector<float> ref;
                switch (step.id) {
                    case StepId::Tokens: ref = fixture("token_ids.npy"); break;
                    case StepId::TokenEmbedding: ref = fixture("token_embedding.npy"); break;
                    case StepId::PositionEmbedding: ref = fixture("position_embedding.npy"); break;
                    case StepId::EmbeddingSum: ref = fixture("embedding_sum.npy"); break;
                    case StepId::LayerInput: ref = fixture(previous); break;
                    case StepId::Norm:
                    case StepId::Input: ref = fixture(prefix + "ln1.npy"); break;
                    case StepId::Q:
                    case StepId::K:
                    case StepId::V:
                    case StepId::Qkv:
                    case StepId::QSplit:
                    case StepId::KSplit:
                    case StepId::VSplit:
                    case StepId::ContextSplit:
                    case StepId::KeyInput:
                    case StepId::ValueInput:
                    case StepId::AttnDropped: continue;  // token-major layouts of the head tensors below, or absent
                    case StepId::RopeCos:  // option steps: no model here uses RoPE, GQA or averaged weights
                    case StepId::RopeSin:
                    case StepId::QRot:
                    case StepId::KRot:
                    case StepId::KCache:  // no model is decoded yet
                    case StepId::VCache:
                    case StepId::KRepeated:
                    case StepId::VRepeated:
                    case StepId::AttnWeightsAvg: FAIL_CHECK("unexpected step ", step.name()); continue;
                    case StepId::QHeads: ref = fixture(prefix + "q.npy"); break;
                    case StepId::KHeads: ref = fixture(prefix + "k.npy"); break;
                    case StepId::VHeads: ref = fixture(prefix + "v.npy"); break;
                    case StepId::AttnScores: ref = fixture(prefix + "scores.npy"); break;
                    case StepId::AttnScaled: ref = fixture(prefix + "scaled.npy"); break;
                    case StepId::AttnMasked: ref = fixture(prefix + "masked.npy"); break;
                    case StepId::AttnWeights: ref = fixture(prefix + "weights.npy"); break;
                    case StepId::Context: ref = fixture(prefix + "context.npy"); break;
                    case StepId::Concat: ref = fixture(prefix + "concat.npy"); break;
                    case StepId::Out: ref = fixture(prefix + "attn_out.npy"); break;
                    case StepId::Residual: ref = fixture(prefix + "resid_attn.npy"); break;
                    case StepId::NextTokenProbs: ref = fixture("probs.npy"); break;
                    case StepId::PredictedTokens: ref = torch_argmax; break;
                }
                std::string where;
                CAPTURE(layer);
                CAPTURE(to_string(variant));
                CAPTURE(step.name());
                const bool scores = step.id == StepId::AttnScores || step.id == StepId::AttnScaled || step.id == StepId::AttnMasked;
                const size_t row = scores ? static_cast<size_t>(step.tensor.dim(step.tensor.rank() - 1)) : 0;
                const double diff = test::model_diff(step.tensor.to_vector(), ref, &where, row);
                CAPTURE(where);
                CHECK(diff <= 1e-5);
            }
            // The steps a learner needs are there, in order.
            CHECK(trace->steps.front().id == StepId::Tokens);
            CHECK((trace->find(StepId::LayerInput) != nullptr) == (layer > 0));
            CHECK(trace->index_of(StepId::Norm) + 1 == trace->index_of(StepId::Input));
            CHECK(trace->index_of(StepId::Out) + 1 == trace->index_of(StepId::Residual));
            CHECK(trace->steps.back().id ==
                  (m.spec.kind == ModelKind::Language ? StepId::NextTokenProbs : StepId::PredictedTokens));
        }
    }
}

TEST_CASE("every step of tiny-lm's layer traces matches PyTorch, in all three variants") { check_trace_parity("tiny-lm"); }
TEST_CASE("every step of the induction model's layer traces matches PyTorch") { check_trace_parity("induction"); }
TEST_CASE("every step of tiny-lm-zh's layer traces matches PyTorch") { check_trace_parity("tiny-lm-zh"); }
TEST_CASE("every step of the reverse model's trace matches PyTorch") { check_trace_parity("reverse"); }
TEST_CASE("every step of the sort model's trace matches PyTorch") { check_trace_parity("sort"); }
