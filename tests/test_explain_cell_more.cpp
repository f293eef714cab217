// explain_cell over the articles' options and the trained models: for every step of each
// configuration, corner, middle and random cells recombine to the recorded value
// (tests/explain_cell_checks.h), and no step is left unexplained. The rule-specific
// checks of RoPE, repeat_kv, the head mean, the extra key rows and the model steps are
// here, each recomputed from the configuration or the model's own weights.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>

#include "app/io/model_loader.h"
#include "core/attention.h"
#include "core/explain_cell.h"
#include "core/model/model_forward.h"
#include "core/model/model_trace.h"
#include "core/model/tokenizer.h"
#include "tests/explain_cell_checks.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::test_configs;

namespace attn::test {

void check_option_cell(const Trace& t, const Step& step, const std::vector<int64_t>& index, const CellExplanation& e) {
    const AttentionConfig& c = t.config;
    const DType dtype = c.dtype;
    switch (e.rule) {
        case CellRule::ExtraKey:
            if (e.extra_key == ExtraKeyKind::BiasKv) {
                REQUIRE((step.id == StepId::K || step.id == StepId::V));
                CHECK(index[1] == c.S());
                CHECK(e.value == (step.id == StepId::K ? t.weights().bias_k : t.weights().bias_v)(index[2]));
            } else {
                REQUIRE(e.extra_key == ExtraKeyKind::ZeroAttn);
                CHECK(step.provenance.appended_zero_row);
                CHECK(index[2] == step.tensor.dim(2) - 1);
                CHECK(e.value == 0.0f);
            }
            break;
        case CellRule::RopeAngle: {
            const int64_t n = index[0] + t.block.first, col = index[1], dh = c.head_dim();  // a block's rows start there
            const int64_t frequency = c.rope_style == RopeStyle::Half ? col % (dh / 2) : col / 2;
            const double inv_freq = 1.0 / std::pow(c.rope_base, 2.0 * double(frequency) / double(dh));
            CHECK(e.rope.position == c.position_offset + n);
            CHECK(e.rope.frequency == frequency);
            CHECK(close(e.rope.inv_freq, inv_freq));
            CHECK(close(e.rope.angle, double(c.position_offset + n) * inv_freq, 1e-6));
            CHECK(e.rope.sine == (step.id == StepId::RopeSin));
            const double exact = e.rope.sine ? std::sin(double(e.rope.angle)) : std::cos(double(e.rope.angle));
            CHECK_MESSAGE(rounds_to(exact, e.value, dtype), "trig of the angle ", exact, ", recorded ", e.value);
            break;
        }
        case CellRule::Rotation: {
            const int64_t dh = c.head_dim(), col = index[3], half = dh / 2;
            const int64_t partner = c.rope_style == RopeStyle::Half ? (col < half ? col + half : col - half) : (col ^ 1);
            const float sign = c.rope_style == RopeStyle::Half ? (col < half ? -1.0f : 1.0f) : (col % 2 == 0 ? -1.0f : 1.0f);
            CHECK(e.rope.partner == partner);
            CHECK(e.rope.sign == sign);
            REQUIRE(e.terms.size() == 2);
            const Term& along = e.terms[0];
            const Term& across = e.terms[1];
            const StepId x_step = step.id == StepId::QRot ? StepId::QHeads : StepId::KHeads;
            CHECK(along.a == CellAddress::of_step(x_step, index));
            CHECK(across.a == CellAddress::of_step(x_step, {index[0], index[1], index[2], partner}));
            CHECK(along.b == CellAddress::of_step(StepId::RopeCos, {index[2], col}));
            CHECK(across.b == CellAddress::of_step(StepId::RopeSin, {index[2], col}));
            for (const Term* term : {&along, &across}) {
                CHECK(term->a_value == value_at_cell(t, term->a));
                CHECK(term->b_value == value_at_cell(t, term->b));
            }
            CHECK(along.value == round_to_dtype(dtype, along.a_value * along.b_value));
            CHECK(across.value == round_to_dtype(dtype, sign * across.a_value * across.b_value));
            CHECK(e.value == round_to_dtype(dtype, along.value + across.value));
            break;
        }
        case CellRule::Repeat: {
            const int kv_heads = c.H_kv(), group = c.H() / kv_heads;
            CHECK(e.group_size == group);
            CHECK(e.kv_head == index[1] / group);
            CHECK(e.operand.index == std::vector<int64_t>{index[0], index[1] / group, index[2], index[3]});
            CHECK(e.value == e.operand_value);
            break;
        }
        case CellRule::Mean: {
            REQUIRE(e.omitted_terms == 0);
            REQUIRE(static_cast<int>(e.terms.size()) == c.H());
            float sum = 0.0f;
            for (int h = 0; h < c.H(); ++h) {
                const Term& term = e.terms[static_cast<size_t>(h)];
                // The weights the mean reads: attn_dropped with dropout (what torch returns), else attn_weights.
                const StepId averaged = t.find(StepId::AttnWeightsAvg)->primary_source();
                CHECK(term.a == CellAddress::of_step(averaged, {index[0], h, index[1], index[2]}));
                CHECK(term.a_value == value_at_cell(t, term.a));
                sum += term.a_value;
            }
            CHECK(e.divisor == c.H());
            CHECK(e.value == round_to_dtype(dtype, sum / static_cast<float>(c.H())));
            break;
        }
        default: FAIL("not an option rule");
    }
}

void check_model_cell(const Trace& t, const Step& step, const std::vector<int64_t>& index, const CellExplanation& e,
                      const ModelReference& ref) {
    REQUIRE(ref.model);
    REQUIRE(ref.run);
    const ModelWeights& w = ref.model->weights;
    const ModelRun& run = *ref.run;
    const int layer = t.model.layer;
    switch (e.rule) {
        case CellRule::Lookup: {
            const int64_t position = index[1], column = index[2];
            CHECK(e.lookup.column == column);
            CHECK(e.operand == CellAddress::of_step(StepId::Tokens, {0, position}));
            if (step.id == StepId::TokenEmbedding) {
                const int64_t id = static_cast<int64_t>(t.find(StepId::Tokens)->tensor.at({0, position}));
                CHECK(e.lookup.table == LookupTable::Token);
                CHECK(e.lookup.row == id);
                CHECK(e.lookup.rows == w.token_embedding.rows());
                CHECK(e.value == w.token_embedding(id, column));
            } else {
                CHECK(e.lookup.table == LookupTable::Position);
                CHECK(e.lookup.row == position);
                CHECK(e.lookup.rows == w.position_embedding.rows());
                CHECK(e.value == w.position_embedding(position, column));
            }
            break;
        }
        case CellRule::Add:
            CHECK(e.operand == CellAddress::of_step(step.sources[0], index));
            CHECK(e.operand2 == CellAddress::of_step(step.sources[1], index));
            CHECK(e.operand_value == value_at_cell(t, e.operand));
            CHECK(e.operand2_value == value_at_cell(t, e.operand2));
            CHECK(e.value == e.operand_value + e.operand2_value);
            break;
        case CellRule::Norm: {
            const Tensor& x = t.find(step.primary_source())->tensor;
            const int64_t D = x.dim(2);
            double mean = 0, variance = 0;
            for (int64_t d = 0; d < D; ++d) mean += x.at({0, index[1], d});
            mean /= double(D);
            for (int64_t d = 0; d < D; ++d) variance += std::pow(x.at({0, index[1], d}) - mean, 2);
            variance /= double(D);
            const LayerWeights& lw = w.layers[static_cast<size_t>(layer)];
            CHECK(close(e.norm.mean, mean, 1e-9));
            CHECK(close(e.norm.variance, variance, 1e-9));
            CHECK(e.norm.eps == ref.model->spec.norm_eps);
            CHECK(e.norm.gamma == lw.ln1.weight(index[2]));
            CHECK(e.norm.beta == lw.ln1.bias(index[2]));
            CHECK(e.operand_value == x.at(index));
            const double exact = (e.operand_value - mean) / std::sqrt(variance + e.norm.eps) * e.norm.gamma + e.norm.beta;
            CHECK_MESSAGE(close(exact, e.value), "LayerNorm gives ", exact, ", recorded ", e.value);
            CHECK(close(e.norm.normalized * e.norm.gamma + e.norm.beta, e.value));
            break;
        }
        case CellRule::Prediction: {
            const int64_t position = index[1], word = index[2];
            const Eigen::RowVectorXf logits = run.logits.row(position);
            CHECK(e.operand_value == logits(word));
            CHECK(e.row_max == logits.maxCoeff());
            double sum = 0;
            for (Eigen::Index v = 0; v < logits.size(); ++v) sum += std::exp(double(logits(v)) - logits.maxCoeff());
            CHECK(close(e.sum, sum, 1e-12));
            CHECK(e.term_count == logits.size());
            for (const Term& term : e.terms) CHECK(term.a_value == logits(term.k));
            const double exact = std::exp(double(logits(word)) - logits.maxCoeff()) / sum;
            CHECK_MESSAGE(close(exact, e.value), "softmax of the logits gives ", exact, ", recorded ", e.value);
            CHECK(e.later_layers == ref.model->spec.layers - layer - 1);
            break;
        }
        case CellRule::Argmax: {
            Eigen::Index best = 0;
            run.logits.row(index[1]).maxCoeff(&best);
            CHECK(e.value == static_cast<float>(best));
            REQUIRE_FALSE(e.terms.empty());
            CHECK(e.terms.front().k == best);
            for (size_t k = 1; k < e.terms.size(); ++k) CHECK(e.terms[k - 1].a_value >= e.terms[k].a_value);
            break;
        }
        case CellRule::PreviousLayer: {
            REQUIRE(layer > 0);
            const LayerRun& previous = run.layers[static_cast<size_t>(layer - 1)];
            CHECK(e.previous_layer == layer - 1);
            CHECK(e.operand_value == previous.resid_attn(index[1], index[2]));
            CHECK(e.previous_has_mlp == ref.model->spec.mlp);
            if (ref.model->spec.mlp) CHECK(e.operand2_value == previous.mlp.out(index[1], index[2]));
            CHECK(e.value == e.operand_value + e.operand2_value);
            check_flows(t, e);
            break;
        }
        default: FAIL("not a model rule");
    }
}

}  // namespace attn::test

namespace {

MaskPresets presets(const char* text) { return parse_mask_presets(text).value(); }

// Runs `c` and checks every step; returns the rules seen, so a case can insist on its own.
std::set<CellRule> check_config(const AttentionConfig& c, uint32_t seed) {
    Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    test::check_trace(t.value(), seed, {}, 12);
    std::set<CellRule> rules;
    std::mt19937 rng(seed);
    for (const Step& step : t->steps)
        for (const auto& index : test::sample_cells(step.tensor, rng, 12))
            rules.insert(explain_cell(t.value(), CellAddress::of_step(step.id, index)).rule);
    return rules;
}

}  // namespace

TEST_CASE("explain_cell recombines every step of the articles' options") {
    AttentionConfig c = sized(6, 16, 4, /*batch=*/2);
    std::set<CellRule> expected;
    SUBCASE("rope, half pairs, positions from 3") {
        c.rope = true;
        c.position_offset = 3;
        expected = {CellRule::RopeAngle, CellRule::Rotation};
    }
    SUBCASE("rope, interleaved pairs, large offset") {
        c.rope = true;
        c.rope_style = RopeStyle::Interleaved;
        c.position_offset = 1000;
        expected = {CellRule::RopeAngle, CellRule::Rotation};
    }
    SUBCASE("grouped-query: 2 key/value heads for 4 query heads, with rope") {
        c.num_kv_heads = 2;
        c.rope = true;
        expected = {CellRule::Repeat, CellRule::Rotation};
    }
    SUBCASE("multi-query and averaged weights") {
        c.num_kv_heads = 1;
        c.average_weights = true;
        expected = {CellRule::Repeat, CellRule::Mean};
    }
    SUBCASE("causal + left padding, one item with no valid key (-inf: zeros)") {
        c.mask_presets = presets("causal,left-padding");
        c.valid_lengths = {4, 0};
        expected = {CellRule::MaskFilled, CellRule::FullyMaskedRow};
    }
    SUBCASE("padding with valid length 0 and the -1e20 fill (uniform rows)") {
        c.mask = MaskKind::Padding;
        c.valid_lengths = {3, 0};
        c.mask_fill = parse_mask_fill("-1e20").value();
        expected = {CellRule::MaskFilled, CellRule::Softmax};
    }
    SUBCASE("sliding window with the dtype's lowest fill") {
        c.mask_presets = presets("window");
        c.window = 2;
        c.mask_fill = parse_mask_fill("min").value();
        expected = {CellRule::MaskFilled, CellRule::MaskKept};
    }
    SUBCASE("a number as fill, mask before scale") {
        c.mask = MaskKind::Causal;
        c.mask_fill = parse_mask_fill("-1e4").value();
        c.mask_before_scale = true;
        expected = {CellRule::MaskFilled, CellRule::Scale};
    }
    SUBCASE("-inf fill, mask before scale") {
        c.mask = MaskKind::Causal;
        c.mask_before_scale = true;
        expected = {CellRule::MaskFilled};
    }
    SUBCASE("--scale hidden") { c.scale.kind = ScaleKind::Hidden; }
    SUBCASE("--scale none") { c.scale.kind = ScaleKind::None; }
    SUBCASE("--scale 2.5") {
        c.scale.kind = ScaleKind::Value;
        c.scale.value = 2.5f;
    }
    SUBCASE("a boolean (L, S) mask file with causal") {
        std::vector<float> cells(36, 0.0f);
        cells[1 * 6 + 0] = 1.0f;  // query 1 may not see key 0
        cells[5 * 6 + 2] = 1.0f;
        c.mask = MaskKind::Causal;
        c.mask_file = Tensor::from_values({6, 6}, {"L", "S"}, cells);
        c.mask_file_is_boolean = true;
        expected = {CellRule::MaskFilled};
    }
    SUBCASE("a float (B, 1, L, S) mask file with -inf and finfo.min entries") {
        std::vector<float> cells(2 * 36, 0.0f);
        for (int k = 0; k < 72; k += 5) cells[static_cast<size_t>(k)] = -0.75f;
        cells[3] = -std::numeric_limits<float>::infinity();
        for (int j = 0; j < 6; ++j) cells[static_cast<size_t>(36 + 4 * 6 + j)] = -3.4028234663852886e38f;  // item 1, row 4: all hidden
        c.mask_file = Tensor::from_values({2, 1, 6, 6}, {"B", "H", "L", "S"}, cells);
        expected = {CellRule::MaskAdded, CellRule::MaskKept};
    }
    SUBCASE("add_zero_attn with a causal mask") {
        c.add_zero_attn = true;
        c.mask = MaskKind::Causal;
        expected = {CellRule::ExtraKey};
    }
    SUBCASE("add_bias_kv and add_zero_attn with padding") {
        c.add_bias_kv = true;
        c.add_zero_attn = true;
        c.mask = MaskKind::Padding;
        c.valid_lengths = {2, 6};
        expected = {CellRule::ExtraKey};
    }
    SUBCASE("cross-attention with both extra key columns and padding") {
        c.kv_len = 4;
        c.kdim = 5;
        c.vdim = 3;
        c.add_bias_kv = true;
        c.add_zero_attn = true;
        c.mask = MaskKind::Padding;
        c.valid_lengths = {1, 4};
        expected = {CellRule::ExtraKey, CellRule::MaskKept, CellRule::MaskFilled};
    }
    SUBCASE("no output projection") { c.no_out_proj = true; }
    SUBCASE("input width 5, not E") { c.input_dim = 5; }
    SUBCASE("no q/k/v bias, output bias kept") { c.no_qkv_bias = true; }
    SUBCASE("no output bias") { c.no_out_bias = true; }
    SUBCASE("bfloat16 with rope, GQA, causal, averaged weights and dropout") {
        c.dtype = DType::BFloat16;
        c.rope = true;
        c.num_kv_heads = 2;
        c.mask = MaskKind::Causal;
        c.average_weights = true;
        c.dropout = 0.25f;
        c.dropout_seed = 3;
        expected = {CellRule::Rotation, CellRule::Repeat, CellRule::Mean, CellRule::DropoutKept};
    }
    SUBCASE("float16 with a -1e20 window mask and the zero column") {
        c.dtype = DType::Float16;
        c.mask_presets = presets("window");
        c.window = 3;
        c.mask_fill = parse_mask_fill("min").value();
        c.add_zero_attn = true;
        expected = {CellRule::MaskFilled, CellRule::ExtraKey};
    }
    SUBCASE("stacked and fused variants with rope and a window") {
        c.rope = true;
        c.mask_presets = presets("window");
        c.window = 2;
        c.variant = Variant::Stacked;
        SUBCASE("stacked") {}
        SUBCASE("fused") { c.variant = Variant::Fused; }
        expected = {CellRule::Rotation, CellRule::MaskFilled};
    }
    const std::set<CellRule> seen = check_config(c, 17);
    for (CellRule rule : expected) {
        CAPTURE(static_cast<int>(rule));
        CHECK(seen.count(rule) == 1);
    }
}

TEST_CASE("every trained model's steps are explained and recombine, every layer and variant") {
    for (const char* name : {"tiny-lm", "reverse", "sort"}) {
        CAPTURE(std::string(name));
        Result<std::shared_ptr<const Model>> model = io::load_model(name);
        REQUIRE_MESSAGE(model.ok(), model.error());
        const Model& m = *model.value();
        Result<TokenizedText> tokens = tokenize(m.spec, m.spec.example);
        REQUIRE(tokens.ok());
        for (int layer = 0; layer < m.spec.layers; ++layer) {
            for (Variant variant : {Variant::Split, Variant::Stacked, Variant::Fused}) {
                // The reference run of the same variant: the variants agree only to float rounding.
                Result<ModelRun> run = run_model(m, tokens->ids, variant);
                REQUIRE(run.ok());
                CAPTURE(layer);
                CAPTURE(static_cast<int>(variant));
                Result<Trace> trace = trace_model_layer(m, tokens.value(), layer, variant);
                REQUIRE_MESSAGE(trace.ok(), trace.error());
                test::check_trace(trace.value(), 23 + static_cast<uint32_t>(layer), {&m, &run.value()}, 6);
                // Every token cell: its id, and where it flows (both lookups).
                for (int64_t t = 0; t < trace->find(StepId::Tokens)->tensor.dim(1); ++t)
                    test::check_cell(trace.value(), *trace->find(StepId::Tokens), {0, t}, {&m, &run.value()});
            }
        }
    }
}
