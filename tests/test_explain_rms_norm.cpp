// A Llama-style model normalises with RMSNorm (its card's architecture.norm): the norm cell's
// explanation divides by the root mean square, subtracts no mean and adds no beta, and the
// trace says which norm it is so the texts name it (the inspector said "LayerNorm" before).
#include <doctest/doctest.h>

#include <cmath>

#include "app/io/model_loader.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "core/explain_cell.h"
#include "core/model/model_trace.h"
#include "core/model/tokenizer.h"

using namespace attn;

TEST_CASE("tiny-llama's norm cells are explained as its card's RMSNorm, tiny-lm's as LayerNorm") {
    for (const char* name : {"tiny-llama", "tiny-lm"}) {
        CAPTURE(std::string(name));
        Result<std::shared_ptr<const Model>> model = io::load_model(name);
        REQUIRE_MESSAGE(model.ok(), model.error());
        const Model& m = *model.value();
        const bool rms = std::string(name) == "tiny-llama";
        CHECK(m.spec.norm == (rms ? NormKind::RmsNorm : NormKind::LayerNorm));
        Result<TokenizedText> tokens = tokenize(m.spec, m.spec.example);
        REQUIRE(tokens.ok());
        Result<Trace> trace = trace_model_layer(m, tokens.value(), 1);
        REQUIRE_MESSAGE(trace.ok(), trace.error());
        CHECK(trace->model.norm == m.spec.norm);
        const Step* norm = trace->find(StepId::Norm);
        REQUIRE(norm != nullptr);
        const Tensor& x = trace->find(norm->primary_source())->tensor;  // (1, L, D)
        const int64_t D = x.dim(2);
        for (int64_t t : {int64_t{1}, int64_t{4}}) {
            for (int64_t d : {int64_t{0}, D - 1}) {
                CAPTURE(t);
                CAPTURE(d);
                const CellExplanation e = explain_cell(trace.value(), CellAddress::of_step(StepId::Norm, {0, t, d}));
                REQUIRE(e.rule == CellRule::Norm);
                double mean = 0, squares = 0;
                for (int64_t j = 0; j < D; ++j) {
                    mean += x.at({0, t, j});
                    squares += double(x.at({0, t, j})) * x.at({0, t, j});
                }
                mean /= double(D);
                squares /= double(D);
                if (rms) {
                    CHECK(e.norm.mean == 0.0);
                    CHECK(e.norm.variance == doctest::Approx(squares).epsilon(1e-12));  // the mean of squares
                    CHECK(std::isnan(e.norm.beta));
                } else {
                    CHECK(e.norm.mean == doctest::Approx(mean).epsilon(1e-12));
                }
                // The explanation's parts give the cell's value, as the model computed it.
                const double beta = rms ? 0.0 : e.norm.beta;
                const double exact = (x.at({0, t, d}) - e.norm.mean) / std::sqrt(e.norm.variance + e.norm.eps) * e.norm.gamma + beta;
                CHECK(exact == doctest::Approx(e.value).epsilon(1e-5));
                CHECK(e.norm.normalized * e.norm.gamma + beta == doctest::Approx(e.value).epsilon(1e-5));
            }
        }
    }
}

TEST_CASE("tiny-llama's norm step is titled, written and explained as RMSNorm in every language") {
    Result<std::shared_ptr<const Model>> model = io::load_model("tiny-llama");
    REQUIRE_MESSAGE(model.ok(), model.error());
    Result<TokenizedText> tokens = tokenize(model.value()->spec, model.value()->spec.example);
    REQUIRE(tokens.ok());
    Result<Trace> trace = trace_model_layer(*model.value(), tokens.value(), 0);
    REQUIRE_MESSAGE(trace.ok(), trace.error());
    const Step* norm = trace->find(StepId::Norm);
    REQUIRE(norm != nullptr);
    for (const std::string& code : text::language_codes()) {
        CAPTURE(code);
        const text::Catalogue& cat = *text::find_language(code);
        const text::StepText words = text::describe_step(*norm, trace.value(), cat);
        CHECK(words.title.find("RMSNorm") != std::string::npos);
        CHECK(words.formula.find("mean(x^2)") != std::string::npos);
        CHECK(words.formula.find("+ b") == std::string::npos);  // no beta
        CHECK(words.explanation.find("RMSNorm") != std::string::npos);
        CHECK(text::step_title(*norm, trace.value(), cat) == words.title);
    }
}

TEST_CASE("a trained model's input and next-token texts and formula name its own norm; plain attention's name either") {
    for (const char* name : {"tiny-llama", "tiny-lm"}) {
        CAPTURE(name);
        Result<std::shared_ptr<const Model>> model = io::load_model(name);
        REQUIRE_MESSAGE(model.ok(), model.error());
        Result<TokenizedText> tokens = tokenize(model.value()->spec, model.value()->spec.example);
        REQUIRE(tokens.ok());
        Result<Trace> trace = trace_model_layer(*model.value(), tokens.value(), 0);
        REQUIRE_MESSAGE(trace.ok(), trace.error());
        const bool rms = trace->model.norm == NormKind::RmsNorm;
        CHECK(rms == (std::string(name) == "tiny-llama"));
        for (const std::string& code : text::language_codes()) {
            CAPTURE(code);
            const text::Catalogue& cat = *text::find_language(code);
            const std::string own = cat.text(rms ? "model.norm.rms_norm" : "model.norm.layer_norm");
            const std::string other = cat.text(rms ? "model.norm.layer_norm" : "model.norm.rms_norm");
            for (StepId id : {StepId::Input, StepId::NextTokenProbs}) {
                const Step* step = trace->find(id);
                REQUIRE(step != nullptr);
                const std::string words = text::describe_step(*step, trace.value(), cat).explanation;
                CAPTURE(words);
                CHECK(words.find(own) != std::string::npos);
                CHECK(words.find(other) == std::string::npos);  // no hedge naming both
            }
            // The formula names the final norm the same way: RMSNorm_f for an RMSNorm model.
            const std::string formula = text::describe_step(*trace->find(StepId::NextTokenProbs), trace.value(), cat).formula;
            CHECK(formula == (rms ? "softmax(RMSNorm_f(x_last) W_head^T)" : "softmax(LN_f(x_last) W_head^T)"));
        }
    }
    // Without a trace (or with plain attention) the text cannot know: it names both.
    const text::Catalogue& en = *text::find_language("en");
    const std::string plain = text::describe_step(StepId::Input, AttentionConfig{}, en).explanation;
    CHECK(plain.find(en.text("model.norm.per_card")) != std::string::npos);
}
