// The example models run through AttnViz match the same models run in PyTorch: every
// intermediate of tests/fixtures/models/NAME (written by assets/models/train.py) within
// 1e-5, absolute, relative above 1 (assets/models/README.md).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "app/io/model_loader.h"
#include "core/step_id.h"
#include "core/model/model_forward.h"
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
        {"attn_out", StepId::Out}};
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
        const double diff = test::model_diff(ours_for(file, run.value()), ref->to_vector(), &where);
        CAPTURE(file);
        CAPTURE(where);
        CHECK(diff <= 1e-5);
        ++compared;
    }
    CHECK(compared + 1 == static_cast<int>(manifest["files"].size()));
}

}  // namespace

TEST_CASE("tiny-lm matches PyTorch at every intermediate, both layers") { check_model_parity("tiny-lm"); }
TEST_CASE("the reverse model matches PyTorch at every intermediate") { check_model_parity("reverse"); }
TEST_CASE("the sort model matches PyTorch at every intermediate") { check_model_parity("sort"); }
