// The step table (core/step_id.h): ids in order, names unique and round-tripping, and
// every column against what real traces record (attention in each variant, grouped-query
// heads, RoPE, a mask, dropout, cross-attention, and the trained models).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "app/io/model_loader.h"
#include "core/attention.h"
#include "core/model/model_trace.h"
#include "core/model/tokenizer.h"
#include "core/ops.h"
#include "core/step_id.h"

using namespace attn;

namespace {

// A forward that records every attention step of its variant but key_input and
// value_input: RoPE, a causal mask, the head mean, dropout and, in the split variant
// (the only one that has them), grouped-query heads (H = 4, H_kv = 2, d_h = 4).
AttentionConfig everything_config(Variant variant) {
    AttentionConfig c;
    c.batch = 2;
    c.seq_len = 5;
    c.hidden_dim = 16;
    c.num_heads = 4;
    c.num_kv_heads = variant == Variant::Split ? 2 : 0;
    c.rope = true;
    c.mask = MaskKind::Causal;
    c.average_weights = true;
    c.dropout = 0.25f;
    c.dropout_seed = 3;
    c.variant = variant;
    c.seed = 11;
    return c;
}

Trace traced(const AttentionConfig& c) {
    Result<Trace> trace = run_attention(c);
    REQUIRE_MESSAGE(trace.ok(), trace.error());
    return trace.value();
}

// tiny-lm (a language model, two layers) and reverse (an algorithmic one), every layer.
std::vector<Trace> model_traces() {
    std::vector<Trace> traces;
    for (const char* name : {"tiny-lm", "reverse"}) {
        Result<std::shared_ptr<const Model>> model = io::load_model(name);
        REQUIRE_MESSAGE(model.ok(), model.error());
        const Model& m = *model.value();
        Result<TokenizedText> tokens = tokenize(m.spec, m.spec.example);
        REQUIRE(tokens.ok());
        for (int layer = 0; layer < m.spec.layers; ++layer) {
            Result<Trace> trace = trace_model_layer(m, tokens.value(), layer, Variant::Split);
            REQUIRE_MESSAGE(trace.ok(), trace.error());
            traces.push_back(trace.value());
        }
    }
    return traces;
}

std::vector<DimRole> table_roles(StepId id) {
    const StepDims& d = step_info(id).dims;
    return std::vector<DimRole>(d.roles.begin(), d.roles.begin() + d.rank);
}

// Sums of the tensor's rows along its last axis.
std::vector<double> row_sums(const Tensor& t) {
    const std::vector<float> values = t.to_vector();
    const size_t width = static_cast<size_t>(t.dim(t.rank() - 1));
    std::vector<double> sums(values.size() / width, 0.0);
    for (size_t i = 0; i < values.size(); ++i) sums[i / width] += values[i];
    return sums;
}

bool rows_sum_to_one(const Tensor& t) {
    const std::vector<double> sums = row_sums(t);
    return std::all_of(sums.begin(), sums.end(), [](double s) { return std::fabs(s - 1.0) < 1e-4; });
}

// The number of heads a step holds: its head axis, or the heads its feature axis packs.
int heads_held(const Step& s, int head_dim) {
    const int h = s.tensor.find_dim(DimRole::Head);
    if (h >= 0) return static_cast<int>(s.tensor.dim(h));
    const int e = s.tensor.find_dim(DimRole::Embedding);
    return e >= 0 ? static_cast<int>(s.tensor.dim(e)) / head_dim : 0;
}

// The columns every trace can be checked against: dimension roles, side, paintable,
// residual and the editable input.
void check_rows_against(const Trace& trace) {
    const Step* first_projection = nullptr;
    for (const Step& s : trace.steps)
        if (!first_projection && s.kind == StepKind::Projection) first_projection = &s;
    REQUIRE(first_projection != nullptr);
    for (const Step& s : trace.steps) {
        const StepInfo& row = step_info(s.id);
        CAPTURE(std::string(row.name));
        CHECK(s.tensor.dim_roles() == table_roles(s.id));
        const bool queries = s.tensor.find_dim(DimRole::QueryPos) >= 0, keys = s.tensor.find_dim(DimRole::KeyPos) >= 0;
        CHECK((row.side == StepSide::Map) == (queries && keys));
        CHECK((row.side == StepSide::Query) == (queries && !keys));
        CHECK((row.side == StepSide::Key || row.side == StepSide::Value) == (keys && !queries));
        CHECK(row.paintable() == (queries && keys && s.kind != StepKind::Dropout));
        const bool adds_attention_output =
            s.kind == StepKind::Add && std::find(s.sources.begin(), s.sources.end(), StepId::Out) != s.sources.end();
        CHECK(row.residual() == adds_attention_output);
        CHECK(row.editable_input() == (s.kind == StepKind::Input && first_projection->primary_source() == s.id));
        CHECK(row.vocabulary_axis() == (s.tensor.find_dim(DimRole::Vocabulary) == s.tensor.rank() - 1));
    }
}

}  // namespace

TEST_CASE("step table: every id has a row in enum order and a distinct name that parses back to it") {
    std::set<std::string> names;
    for (size_t i = 0; i < kAllStepIds.size(); ++i) {
        const StepId id = kAllStepIds[i];
        CHECK(static_cast<size_t>(id) == i);  // record order == enum order
        CHECK(step_info(id).id == id);
        const std::string name = step_name(id);
        CAPTURE(name);
        CHECK(!name.empty());
        CHECK(names.insert(name).second);
        const auto parsed = parse_step_name(name);
        REQUIRE(parsed.has_value());
        CHECK(*parsed == id);
        CHECK(step_info(id).dims.rank >= 1);
    }
    CHECK(names.size() == kStepIdCount);
    CHECK_FALSE(parse_step_name("attn_score").has_value());
    CHECK_FALSE(parse_step_name("").has_value());
}

TEST_CASE("step table: kinds, roles and sides are what the forwards and the models record") {
    std::set<StepId> seen;
    const auto check_kinds = [&](const Trace& trace, Variant variant) {
        check_rows_against(trace);
        for (const Step& s : trace.steps) {
            seen.insert(s.id);
            const StepInfo& row = step_info(s.id);
            CAPTURE(std::string(row.name));
            CAPTURE(to_string(variant));
            if (s.kind == row.kind) continue;
            // The documented differences: fused slices q, k, v out of qkv; stacked projects each head.
            if (variant == Variant::Fused) {
                CHECK(row.kind == StepKind::Projection);
                CHECK(s.kind == StepKind::Slice);
                CHECK(s.primary_source() == StepId::Qkv);
            } else {
                CHECK(variant == Variant::Stacked);
                CHECK(row.kind == StepKind::Transpose);
                CHECK(s.kind == StepKind::Projection);
                CHECK(step_info(s.primary_source()).kind == StepKind::Input);
            }
        }
    };
    for (Variant variant : {Variant::Split, Variant::Fused, Variant::Stacked})
        check_kinds(traced(everything_config(variant)), variant);
    AttentionConfig cross = everything_config(Variant::Split);
    cross.kv_len = 7;
    cross.kdim = 5;
    cross.vdim = 9;
    cross.rope = false;  // RoPE needs self-attention
    check_kinds(traced(cross), Variant::Split);
    for (const Trace& trace : model_traces()) check_kinds(trace, Variant::Split);
    // A decode step against the KV cache (no dropout in generation).
    AttentionConfig decoding = everything_config(Variant::Split);
    decoding.dropout = 0.0f;
    KvCache cache;
    const auto weights = std::make_shared<const AttentionWeights>(default_weights(decoding));
    REQUIRE(run_attention_block(decoding, weights, default_inputs(decoding), cache, {0, 3}).ok());
    Result<Trace> decode_step = run_attention_block(decoding, weights, default_inputs(decoding), cache, {3, 1});
    REQUIRE_MESSAGE(decode_step.ok(), decode_step.error());
    check_kinds(decode_step.value(), Variant::Split);
    // Every row was checked against some trace.
    CHECK(seen.size() == kStepIdCount);
}

TEST_CASE("step table: kv-head steps are the ones with H_kv heads in a grouped-query trace") {
    const AttentionConfig c = everything_config(Variant::Split);
    REQUIRE(c.H_kv() < c.H());
    const Trace trace = traced(c);
    int flagged = 0;
    for (const Step& s : trace.steps) {
        CAPTURE(std::string(s.name()));
        CHECK(step_info(s.id).holds_kv_heads() == (heads_held(s, c.head_dim()) == c.H_kv()));
        flagged += step_info(s.id).holds_kv_heads();
    }
    CHECK(flagged > 0);
}

TEST_CASE("step table: probability steps hold distributions, masked-row steps show the mask") {
    const AttentionConfig c = everything_config(Variant::Split);
    const Trace trace = traced(c);
    REQUIRE(trace.count_fully_masked_rows() == 0);  // causal: every query sees itself
    const Tensor& weights = trace.find(StepId::AttnWeights)->tensor;
    for (const Step& s : trace.steps) {
        const StepInfo& row = step_info(s.id);
        CAPTURE(std::string(row.name));
        if (row.probability() && s.kind == StepKind::Dropout) {
            // Dropout's weights: each either dropped (0) or kept and scaled by 1 / (1 - p).
            const std::vector<float> dropped = s.tensor.to_vector(), kept = weights.to_vector();
            REQUIRE(dropped.size() == kept.size());
            for (size_t i = 0; i < dropped.size(); ++i)
                if (dropped[i] != 0.0f) CHECK(dropped[i] == doctest::Approx(kept[i] * dropout_keep_scale(c.dropout)));
        } else if (row.probability() && s.kind == StepKind::HeadMean && c.dropout > 0.0f) {
            // With dropout the head mean averages the dropped weights (what torch returns):
            // still within 0..1/(1-p), no longer rows summing to 1.
            for (float v : s.tensor.to_vector()) CHECK((v >= 0.0f && v <= dropout_keep_scale(c.dropout) + 1e-6f));
        } else {
            CHECK(row.probability() == rows_sum_to_one(s.tensor));
        }
        // Query 0 may not see key 1: the steps that show the mask hold -inf or 0 there.
        if (row.side == StepSide::Map) {
            std::vector<int64_t> cell = {0, 0, 0, 1};
            if (s.tensor.rank() == 3) cell = {0, 0, 1};
            const float v = s.tensor.at(cell);
            CHECK(row.shows_masked_rows() == (v == 0.0f || v == -INFINITY));
        } else {
            CHECK_FALSE(row.shows_masked_rows());
        }
    }
    // In the models too (no dropout there): the weights, and a language model's next-word distribution.
    for (const Trace& model : model_traces()) {
        for (const Step& s : model.steps) {
            CAPTURE(std::string(s.name()));
            CHECK(step_info(s.id).probability() == rows_sum_to_one(s.tensor));
        }
    }
}

TEST_CASE("step table: token-id steps hold token ids, the vocabulary axis has a word per column") {
    for (const Trace& trace : model_traces()) {
        const int64_t vocabulary = static_cast<int64_t>(trace.model.vocabulary.size());
        REQUIRE(vocabulary > 0);
        for (const Step& s : trace.steps) {
            const StepInfo& row = step_info(s.id);
            CAPTURE(std::string(row.name));
            const std::vector<float> values = s.tensor.to_vector();
            const bool ids = std::all_of(values.begin(), values.end(), [&](float v) {
                return v == std::floor(v) && v >= 0.0f && v < static_cast<float>(vocabulary);
            });
            CHECK(row.token_ids() == ids);
            if (row.vocabulary_axis()) CHECK(s.tensor.dim(s.tensor.rank() - 1) == vocabulary);
        }
    }
}

TEST_CASE("step table: the notes on a model's words sit before its attention or from its output on") {
    for (const Trace& trace : model_traces()) {
        const int input = trace.index_of(StepId::Input), out = trace.index_of(StepId::Out);
        REQUIRE(input >= 0);
        REQUIRE(out > input);
        for (int i = 0; i < static_cast<int>(trace.steps.size()); ++i) {
            const Step& s = trace.steps[static_cast<size_t>(i)];
            const StepInfo& row = step_info(s.id);
            CAPTURE(std::string(row.name));
            CHECK((row.note == ModelNote::Prediction) == (i >= out));
            if (row.note == ModelNote::UnknownWords) CHECK((s.kind == StepKind::Input && row.token_ids()));
            if (row.note == ModelNote::SameRow || row.note == ModelNote::SumsDiffer) {
                CHECK(i < input);
                CHECK((s.kind == StepKind::Lookup || s.kind == StepKind::Add));
            }
        }
    }
}
