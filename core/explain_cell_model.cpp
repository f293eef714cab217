// explain_cell for a trained model's steps around its attention (core/model/):
// the embedding lookups, the sums, LayerNorm, the prediction and a later layer's input.
// What no step holds (LN1's gamma and beta, the final logits, the previous layer's two
// parts) the model trace records in Trace::model (core/model/model_trace.cpp); the
// embedding tables themselves are not copied: a lookup names its row and the recorded
// value is that row's number.
#include <algorithm>
#include <cmath>

#include "core/explain_cell_parts.h"
#include "core/model/layer_norm.h"
#include "core/softmax.h"

namespace attn::explain_parts {

namespace {

// Every cell of row `position` of a (B, L, D) step.
StepCells row_cells(const Trace& trace, StepId step, int64_t b, int64_t position) {
    const Tensor& t = tensor_of(trace, step);
    StepCells cells{step, {}};
    for (int64_t d = 0; d < t.dim(2); ++d) cells.cells.push_back({b, position, d});
    return cells;
}

int later_layers(const Trace& trace) { return std::max(0, trace.model.layers - trace.model.layer - 1); }

}  // namespace

// token_embedding[0, t, d] = tok_emb[id_t, d]; position_embedding[0, t, d] = pos_emb[t, d].
void explain_lookup(const Trace& trace, const Step& step, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;  // (b, t, d)
    set_operand(trace, e, step.primary_source(), {idx[0], idx[1]});
    const bool token = step.id == StepId::TokenEmbedding;
    e.lookup.table = token ? LookupTable::Token : LookupTable::Position;
    e.lookup.row = token ? static_cast<int64_t>(e.operand_value) : idx[1];
    e.lookup.rows = token ? static_cast<int64_t>(trace.model.vocabulary.size()) : trace.model.position_rows;
    e.lookup.column = idx[2];
    e.rule = CellRule::Lookup;
}

// embedding_sum = token + position; residual = layer input + attention out (float adds).
void explain_add(const Trace& trace, const Step& step, CellExplanation& e) {
    set_operand(trace, e, step.sources[0], e.cell.index);
    set_operand2(trace, e, step.sources[1], e.cell.index);
    e.rule = CellRule::Add;
}

// norm[0, t, d] = (x[t, d] - mean_t) / sqrt(var_t + eps) * gamma[d] + beta[d], the row's
// statistics in double (core/model/layer_norm.h); RMSNorm: x[t, d] / sqrt(mean(x_t^2) + eps)
// * gamma[d] (mean 0 and no beta, which stays NaN).
void explain_norm(const Trace& trace, const Step& step, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;  // (b, t, d)
    const StepId src = step.primary_source();
    const Tensor& x = tensor_of(trace, src);
    const TraceModelInfo& m = trace.model;
    Eigen::RowVectorXf row(x.dim(2));
    for (int64_t d = 0; d < x.dim(2); ++d) row(d) = x.at({idx[0], idx[1], d});
    const LayerNormStats stats = norm_stats(row, m.norm_eps, m.norm);  // RMSNorm: mean 0, mean of squares
    e.operand = CellAddress::of_step(src, idx);
    e.operand_value = x.at(idx);
    e.norm.mean = stats.mean;
    e.norm.variance = stats.variance;
    e.norm.inv_std = stats.inv_std;
    e.norm.normalized = (static_cast<double>(e.operand_value) - stats.mean) * stats.inv_std;
    e.norm.eps = m.norm_eps;
    e.norm.gamma = idx[2] < m.norm_weight.size() ? m.norm_weight(idx[2]) : std::nanf("");
    const bool has_beta = m.norm == NormKind::LayerNorm && idx[2] < m.norm_bias.size();  // RMSNorm has none
    e.norm.beta = has_beta ? m.norm_bias(idx[2]) : std::nanf("");
    e.highlights.push_back(row_cells(trace, src, idx[0], idx[1]));  // the mean and variance read the whole row
    e.rule = CellRule::Norm;
}

// next_token_probs[0, t, v] = softmax of the last layer's logits row t (in double, by
// softmax_rows_of); predicted_tokens[0, t] = that row's argmax. The logits come from the
// layers after this one, the final norm and lm_head: Trace::model.logits records them.
void explain_prediction(const Trace& trace, const Step& step, const ExplainOptions& options, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;
    const int64_t t = idx[1];
    const Mat& logits = trace.model.logits;  // (L, V)
    e.later_layers = later_layers(trace);
    e.highlights.push_back(row_cells(trace, step.primary_source(), idx[0], t));
    if (t >= logits.rows() || logits.cols() == 0) return;  // cannot happen for a model trace
    const int64_t V = logits.cols();
    e.row_max = logits.row(t).maxCoeff();
    std::vector<Term> terms;
    terms.reserve(static_cast<size_t>(V));
    if (step.id == StepId::PredictedTokens) {
        for (int64_t v = 0; v < V; ++v) {
            Term term;
            term.k = v;
            term.a_value = term.value = logits(t, v);
            terms.push_back(term);
        }
        // The largest logits first: the winner, then the runners-up it beat.
        std::stable_sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.value > b.value; });
        e.term_count = V;
        terms.resize(static_cast<size_t>(std::min<int64_t>(V, V <= options.all_terms_up_to ? V : options.largest_terms)));
        e.omitted_terms = V - static_cast<int64_t>(terms.size());
        e.terms = std::move(terms);
        e.operand_value = e.row_max;
        e.rule = CellRule::Argmax;
        return;
    }
    const int64_t v_cell = idx[2];
    // The model's own exponentials and sum (softmax_rows_of): the same helper on the same
    // double row in fresh (aligned) storage, so every number is the one the model used.
    const Eigen::RowVectorXd row = logits.row(t).cast<double>();
    Eigen::RowVectorXd exps(V);
    softmax_exponentials(row.data(), V, softmax_row_max(row.data(), V), exps.data());
    const double exp_sum = exps.sum();
    for (int64_t v = 0; v < V; ++v) {
        Term term;
        term.k = v;
        term.a_value = logits(t, v);
        term.value = static_cast<float>(exps(v));
        term.output = tensor_of(trace, step.id).at({idx[0], t, v});
        if (v == v_cell) e.exp_value = term.value;
        terms.push_back(term);
    }
    keep_terms(std::move(terms), options, e);
    e.operand_value = logits(t, v_cell);
    e.sum = exp_sum;
    e.exp_sum = static_cast<float>(exp_sum);
    e.inv_sum = static_cast<float>(1.0 / exp_sum);
    e.rule = CellRule::Prediction;
}

// layer_input[0, t, d] (layer k > 0) = layer k-1's stream after its attention + its MLP output.
void explain_layer_input(const Trace& trace, CellExplanation& e) {
    const TraceModelInfo& m = trace.model;
    const int64_t t = e.cell.index[1], d = e.cell.index[2];
    e.previous_layer = m.layer - 1;
    e.operand_value = m.previous_attention_residual(t, d);
    e.previous_has_mlp = m.previous_mlp_out.size() > 0;
    e.operand2_value = e.previous_has_mlp ? m.previous_mlp_out(t, d) : 0.0f;
    model_input_flows(trace, e);
    e.rule = CellRule::PreviousLayer;
}

void model_input_flows(const Trace& trace, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;
    for (const Step& s : trace.steps) {
        if (std::find(s.sources.begin(), s.sources.end(), e.cell.step) == s.sources.end()) continue;
        // A token id picks a whole row; the mean and variance of row t read all of it.
        if (s.kind == StepKind::Lookup || s.kind == StepKind::Norm) e.flows.push_back(row_cells(trace, s.id, idx[0], idx[1]));
        if (s.kind == StepKind::Add) e.flows.push_back({s.id, {idx}});
    }
}

}  // namespace attn::explain_parts
