// explain_cell. Sections:
//   [1] Addresses and weights   reading a cell of a step, a weight or a bias
//   [2] Terms                   listing a sum's terms, the largest first when there are many
//   [3] One function per kind   projection, scores, softmax, dropout, sum, move (scale, mask
//                               and the articles' steps: explain_cell_options.cpp; a trained
//                               model's steps: explain_cell_model.cpp)
//   [4] Flows                   where an input or a weight element goes: explain_cell_flows.cpp
//   [5] explain_cell            the dispatch over StepKind
#include "core/explain_cell.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/explain_cell_parts.h"
#include "core/ops.h"
#include "core/softmax.h"

namespace attn {

CellAddress CellAddress::of_step(StepId step, std::vector<int64_t> index) {
    CellAddress a;
    a.kind = Kind::Step;
    a.step = step;
    a.index = std::move(index);
    return a;
}

CellAddress CellAddress::of_weight(WeightId weight, int64_t row, int64_t col) {
    CellAddress a;
    a.kind = Kind::Weight;
    a.weight = weight;
    a.row = row;
    a.col = col;
    return a;
}

CellAddress CellAddress::of_bias(WeightId weight, int64_t row) {
    CellAddress a;
    a.kind = Kind::Bias;
    a.weight = weight;
    a.row = row;
    return a;
}

int64_t CellExplanation::highlight_count() const {
    int64_t n = 0;
    for (const StepCells& s : highlights) n += static_cast<int64_t>(s.cells.size());
    return n;
}

namespace {

using explain_parts::weight_row;

// ---------------------------------------------------------------------------
// [1] Addresses and weights
// ---------------------------------------------------------------------------

bool index_fits(const Tensor& t, const std::vector<int64_t>& index) {
    if (static_cast<int>(index.size()) != t.rank()) return false;
    for (int d = 0; d < t.rank(); ++d)
        if (index[static_cast<size_t>(d)] < 0 || index[static_cast<size_t>(d)] >= t.dim(d)) return false;
    return true;
}

float weight_value(const Trace& trace, WeightId weight, int64_t row, int64_t col) {
    WeightId part;
    int64_t r;
    if (!weight_row(trace, weight, row, part, r)) return std::numeric_limits<float>::quiet_NaN();
    const Mat& w = linear_params(trace.weights(), part).weight;
    if (col < 0 || col >= w.cols()) return std::numeric_limits<float>::quiet_NaN();
    return w(r, col);
}

float bias_value(const Trace& trace, WeightId weight, int64_t row) {
    WeightId part;
    int64_t r;
    if (!weight_row(trace, weight, row, part, r)) return std::numeric_limits<float>::quiet_NaN();
    const Vec& b = linear_params(trace.weights(), part).bias;
    return r < b.size() ? b(r) : std::numeric_limits<float>::quiet_NaN();
}

}  // namespace

namespace explain_parts {

// Row `row` of `weight` as (part, row inside the part): Wqkv's rows are W_q's, W_k's, W_v's.
bool weight_row(const Trace& trace, WeightId weight, int64_t row, WeightId& part, int64_t& part_row) {
    for (WeightId p : weight_parts(weight)) {
        const int64_t rows = linear_params(trace.weights(), p).weight.rows();
        if (row < rows) {
            part = p;
            part_row = row;
            return row >= 0;
        }
        row -= rows;
    }
    return false;
}

const Tensor& tensor_of(const Trace& trace, StepId id) { return trace.find(id)->tensor; }

int64_t index_of_role(const Tensor& t, const std::vector<int64_t>& index, DimRole role) {
    const int d = t.find_dim(role);
    return d >= 0 ? index[static_cast<size_t>(d)] : 0;
}

ExtraKeyKind extra_key_of_column(const AttentionConfig& config, int64_t j) {
    if (j < config.S()) return ExtraKeyKind::None;
    // bias_k's column comes first (it is appended before the split), the zero column last.
    return config.add_bias_kv && j == config.S() ? ExtraKeyKind::BiasKv : ExtraKeyKind::ZeroAttn;
}

// ---------------------------------------------------------------------------
// [2] Terms
// ---------------------------------------------------------------------------

// Keeps every term when there are few; otherwise the largest |value| first and the rest
// counted and summed, so the listed terms plus omitted_sum still give the whole sum.
void keep_terms(std::vector<Term> all, const ExplainOptions& options, CellExplanation& e) {
    e.term_count = static_cast<int64_t>(all.size());
    double total = 0.0;
    for (const Term& t : all) total += t.value;
    if (static_cast<int64_t>(all.size()) > options.all_terms_up_to) {
        const size_t keep = static_cast<size_t>(std::max(0, std::min<int>(options.largest_terms, static_cast<int>(all.size()))));
        std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                          [](const Term& x, const Term& y) { return std::fabs(x.value) > std::fabs(y.value); });
        double listed = 0.0;
        for (size_t i = 0; i < keep; ++i) listed += all[i].value;
        all.resize(keep);
        e.omitted_terms = e.term_count - static_cast<int64_t>(keep);
        e.omitted_sum = total - listed;
    }
    e.terms = std::move(all);
    e.sum = total;
}

void set_operand(const Trace& trace, CellExplanation& e, StepId step, std::vector<int64_t> index) {
    e.operand = CellAddress::of_step(step, std::move(index));
    e.operand_value = tensor_of(trace, step).at(e.operand.index);
    e.highlights.push_back({step, {e.operand.index}});
}

void set_operand2(const Trace& trace, CellExplanation& e, StepId step, std::vector<int64_t> index) {
    e.operand2 = CellAddress::of_step(step, std::move(index));
    e.operand2_value = tensor_of(trace, step).at(e.operand2.index);
    e.highlights.push_back({step, {e.operand2.index}});
}

}  // namespace explain_parts

namespace {

using namespace explain_parts;

// sum = terms (+ bias); flags a rounding (float32, or the --dtype's) a reader would see
// at 4 significant digits.
void close_dot_product(CellExplanation& e) {
    e.rule = CellRule::DotProduct;
    if (e.has_bias) e.sum += e.bias;
    e.sum_rounds_visibly = std::fabs(e.sum - e.value) > 1e-4 * (1.0 + std::fabs(e.sum));
}

// ---------------------------------------------------------------------------
// [3] One function per kind
// ---------------------------------------------------------------------------

// y[b, n, o] = sum_i x[b, n, i] W[o, i] + b[o]; stacked: o = h*d_h + d of y[b, h, n, d].
void explain_projection(const Trace& trace, const Step& step, const ExplainOptions& options, CellExplanation& e) {
    const std::vector<int64_t>& idx = e.cell.index;
    const Provenance& p = step.provenance;
    const int64_t b = idx[0];
    int64_t n = 0, o = 0;
    if (p.per_head) {
        n = idx[2];
        o = idx[1] * step.tensor.dim(3) + idx[3];
    } else {
        n = idx[1];
        o = idx[2];
    }
    const StepId x_step = step.primary_source();
    const Tensor& x = tensor_of(trace, x_step);
    const int64_t in = x.dim(2);
    std::vector<Term> terms;
    terms.reserve(static_cast<size_t>(in));
    StepCells x_row{x_step, {}};
    for (int64_t i = 0; i < in; ++i) {
        Term t;
        t.k = i;
        t.a = CellAddress::of_step(x_step, {b, n, i});
        t.b = CellAddress::of_weight(p.weight, o, i);
        t.a_value = x.at(t.a.index);
        t.b_value = weight_value(trace, p.weight, o, i);
        t.value = t.a_value * t.b_value;
        terms.push_back(t);
        x_row.cells.push_back(t.a.index);
    }
    if (step.id == StepId::Out && trace.config.H() > 1 && trace.config.head_dim() > 0) {
        const int64_t dh = trace.config.head_dim();
        e.head_subtotals.assign(static_cast<size_t>(trace.config.H()), 0.0);
        for (const Term& t : terms) e.head_subtotals[static_cast<size_t>(t.k / dh)] += t.value;
    }
    keep_terms(std::move(terms), options, e);
    // Each projection has its own bias or none (--no-qkv-bias keeps b_o, --no-out-bias drops it).
    e.bias = bias_value(trace, p.weight, o);
    e.has_bias = !std::isnan(e.bias);
    if (e.has_bias) e.bias_cell = CellAddress::of_bias(p.weight, o);
    else e.bias = 0.0f;
    e.highlights.push_back(std::move(x_row));
    close_dot_product(e);
}

// A sum over one dimension of two source cells' products: scores (q . k over d) and the
// weighted sum (weights . v over keys j).
void explain_sum_of_products(const Trace& trace, const Step& step, const ExplainOptions& options, CellExplanation& e) {
    const StepId a_step = step.sources[0], b_step = step.sources[1];
    const Tensor& a = tensor_of(trace, a_step);
    const Tensor& b = tensor_of(trace, b_step);
    const std::vector<int64_t>& idx = e.cell.index;
    const int64_t bi = index_of_role(step.tensor, idx, DimRole::Batch);
    const int64_t h = index_of_role(step.tensor, idx, DimRole::Head);
    const int64_t i = index_of_role(step.tensor, idx, DimRole::QueryPos);
    const bool scores = step.kind == StepKind::Scores;
    // scores[b,h,i,j] = sum_d q[b,h,i,d] k[b,h,j,d];  context[b,h,i,d] = sum_j w[b,h,i,j] v[b,h,j,d]
    const int64_t count = a.dim(3);  // d_h for scores, S for the weighted sum
    const int64_t fixed = scores ? index_of_role(step.tensor, idx, DimRole::KeyPos) : index_of_role(step.tensor, idx, DimRole::HeadDim);
    std::vector<Term> terms;
    terms.reserve(static_cast<size_t>(count));
    StepCells a_cells{a_step, {}}, b_cells{b_step, {}};
    for (int64_t k = 0; k < count; ++k) {
        Term t;
        t.k = k;
        t.a = CellAddress::of_step(a_step, {bi, h, i, k});
        t.b = CellAddress::of_step(b_step, scores ? std::vector<int64_t>{bi, h, fixed, k} : std::vector<int64_t>{bi, h, k, fixed});
        t.a_value = a.at(t.a.index);
        t.b_value = b.at(t.b.index);
        t.value = t.a_value * t.b_value;
        terms.push_back(t);
        a_cells.cells.push_back(t.a.index);
        b_cells.cells.push_back(t.b.index);
    }
    keep_terms(std::move(terms), options, e);
    if (scores) e.extra_key = extra_key_of_column(trace.config, fixed);
    e.highlights.push_back(std::move(a_cells));
    e.highlights.push_back(std::move(b_cells));
    close_dot_product(e);
}

// The exponentials of one row as the forward computed them (core/softmax.h): written at
// the same address modulo 64 bytes as the forward wrote its weights row `written_at`, so
// Eigen splits the row into the same vector and scalar parts, with denormals flushed as
// in the forward. Every exponential is then the forward's, bit for bit.
std::vector<float> forward_exponentials(const std::vector<float>& x, float row_max, const float* written_at) {
    constexpr uintptr_t kLine = 64 / sizeof(float);
    std::vector<float> scratch(x.size() + kLine);
    const uintptr_t want = reinterpret_cast<uintptr_t>(written_at) / sizeof(float) % kLine;
    const uintptr_t have = reinterpret_cast<uintptr_t>(scratch.data()) / sizeof(float) % kLine;
    float* e = scratch.data() + (want + kLine - have) % kLine;
    const FlushDenormals flush;
    softmax_exponentials(x.data(), static_cast<int64_t>(x.size()), row_max, e);
    return std::vector<float>(e, e + x.size());
}

// The core's arithmetic (core/softmax.h): the row max, the exponentials (masked entries
// exactly 0), their lane_sum, then each times 1/sum.
void explain_softmax(const Trace& trace, const Step& step, const ExplainOptions& options, CellExplanation& e) {
    const StepId src_step = step.primary_source();
    const Tensor& src = tensor_of(trace, src_step);
    const std::vector<int64_t>& idx = e.cell.index;
    set_operand(trace, e, src_step, idx);
    e.highlights.clear();
    const int64_t b = idx[0], h = idx[1], i = idx[2], S = step.tensor.dim(3);
    const size_t row_flag = static_cast<size_t>((b * step.tensor.dim(1) + h) * step.tensor.dim(2) + i);
    StepCells row{src_step, {}};
    std::vector<float> x(static_cast<size_t>(S));  // (S) the softmax's input row
    for (int64_t j = 0; j < S; ++j) {
        row.cells.push_back({b, h, i, j});
        x[static_cast<size_t>(j)] = src.at(row.cells.back());
    }
    e.highlights.push_back(row);
    e.row_max = softmax_row_max(x.data(), S);
    // With the -inf fill a row with no key left is set to zeros (torch: NaN); with a finite
    // fill (-1e20, min, a float mask) it is an ordinary softmax of equal scores: uniform.
    if (std::isinf(e.row_max) && e.row_max < 0) {
        e.rule = CellRule::FullyMaskedRow;
        return;
    }
    e.rule = CellRule::Softmax;
    e.row_fully_masked = row_flag < trace.fully_masked_rows.size() && trace.fully_masked_rows[row_flag];
    e.extra_key = extra_key_of_column(trace.config, idx[3]);
    const std::vector<float> exps = forward_exponentials(x, e.row_max, step.tensor.data() + step.tensor.offset_of({b, h, i, 0}));
    std::vector<Term> terms;
    terms.reserve(static_cast<size_t>(S));
    for (int64_t j = 0; j < S; ++j) {
        Term t;
        t.k = j;
        t.a = CellAddress::of_step(src_step, row.cells[static_cast<size_t>(j)]);
        t.a_value = x[static_cast<size_t>(j)];
        t.value = exps[static_cast<size_t>(j)];
        t.output = step.tensor.at({b, h, i, j});
        terms.push_back(t);
    }
    e.exp_value = exps[static_cast<size_t>(idx[3])];
    keep_terms(std::move(terms), options, e);
    e.exp_sum = lane_sum(exps.data(), S);
    e.inv_sum = 1.0f / e.exp_sum;
}

void explain_dropout(const Trace& trace, const Step& step, CellExplanation& e) {
    set_operand(trace, e, step.primary_source(), e.cell.index);
    const std::vector<int64_t>& idx = e.cell.index;
    const float p = trace.config.dropout;
    e.dropout_p = p;
    e.factor = dropout_keep_scale(p);
    // Replay head (b, h)'s stream up to this cell: the draw that decided it.
    Rng rng = dropout_stream(trace.config.dropout_seed, idx[0], idx[1]);
    rng.discard(static_cast<uint64_t>(idx[2] * step.tensor.dim(3) + idx[3]));
    e.dropout_draw = rng.uniform01();
    // A nonzero weight that became 0 was dropped whatever the replay says (a trace read
    // from files may come from another generator); a zero weight stays 0 either way.
    const bool dropped = e.operand_value != 0.0f ? e.value == 0.0f : e.dropout_draw < p;
    e.rule = dropped ? CellRule::DropoutDropped : CellRule::DropoutKept;
}

// View, transpose, slice and concat move numbers without arithmetic; the source index
// follows from the dimensions' roles (a head feature e of width E is head e / d_h,
// feature e % d_h; a slice adds its first column).
void explain_move(const Trace& trace, const Step& step, CellExplanation& e) {
    const StepId src_step = step.primary_source();
    const Tensor& src = tensor_of(trace, src_step);
    const Tensor& t = step.tensor;
    const std::vector<int64_t>& idx = e.cell.index;
    const int64_t dh = std::max(1, trace.config.head_dim());
    int64_t head = -1, head_dim = -1, feature = -1, position = 0;
    for (int d = 0; d < t.rank(); ++d) {
        const DimRole r = t.dim_roles()[static_cast<size_t>(d)];
        if (r == DimRole::Head) head = idx[static_cast<size_t>(d)];
        if (r == DimRole::HeadDim) head_dim = idx[static_cast<size_t>(d)];
        if (r == DimRole::Embedding || r == DimRole::FusedQkv) feature = idx[static_cast<size_t>(d)];
        if (r == DimRole::QueryPos || r == DimRole::KeyPos) position = idx[static_cast<size_t>(d)];
    }
    if (feature < 0 && head >= 0) feature = head * dh + head_dim;
    if (head < 0 && feature >= 0) {
        head = feature / dh;
        head_dim = feature % dh;
    }
    std::vector<int64_t> source(static_cast<size_t>(src.rank()), 0);
    for (int d = 0; d < src.rank(); ++d) {
        int64_t& s = source[static_cast<size_t>(d)];
        switch (src.dim_roles()[static_cast<size_t>(d)]) {
            case DimRole::Head: s = head; break;
            case DimRole::HeadDim: s = head_dim; break;
            case DimRole::Embedding: s = feature; break;
            case DimRole::FusedQkv: s = step.provenance.column + feature; break;
            // A fused slice reads k and v rows from the (B, L, 3E) qkv: any position is a position.
            case DimRole::QueryPos:
            case DimRole::KeyPos: s = position; break;
            case DimRole::Batch:
            case DimRole::KeyFeature:
            case DimRole::ValueFeature:
            case DimRole::Vocabulary:
            case DimRole::Other: s = index_of_role(t, idx, src.dim_roles()[static_cast<size_t>(d)]); break;
        }
    }
    set_operand(trace, e, src_step, std::move(source));
    e.rule = CellRule::Move;
    e.is_view = step.is_view;
}

}  // namespace

// ---------------------------------------------------------------------------
// [5] explain_cell
// ---------------------------------------------------------------------------

namespace {
// Indexed by WeightId: Wq, Wk, Wv, Wqkv, Wo.
constexpr const char* kWeightSymbols[][2] = {{"W_q", "b_q"}, {"W_k", "b_k"}, {"W_v", "b_v"}, {"W_qkv", "b_qkv"}, {"W_o", "b_o"}};
static_assert(sizeof kWeightSymbols / sizeof kWeightSymbols[0] == static_cast<size_t>(WeightId::Wo) + 1,
              "one symbol pair per WeightId");
}  // namespace

const char* weight_symbol(WeightId weight) { return kWeightSymbols[static_cast<size_t>(weight)][0]; }
const char* bias_symbol(WeightId weight) { return kWeightSymbols[static_cast<size_t>(weight)][1]; }

void weight_shape(const Trace& trace, WeightId weight, int64_t& rows, int64_t& cols) {
    rows = 0;
    cols = 0;
    for (WeightId part : weight_parts(weight)) {
        const Mat& w = linear_params(trace.weights(), part).weight;
        rows += w.rows();
        cols = w.cols();
    }
}

float value_at_cell(const Trace& trace, const CellAddress& cell) {
    constexpr float nan = std::numeric_limits<float>::quiet_NaN();
    switch (cell.kind) {
        case CellAddress::Kind::Step: {
            const Step* s = trace.find(cell.step);
            return s && index_fits(s->tensor, cell.index) ? s->tensor.at(cell.index) : nan;
        }
        case CellAddress::Kind::Weight: return weight_value(trace, cell.weight, cell.row, cell.col);
        case CellAddress::Kind::Bias: return bias_value(trace, cell.weight, cell.row);
    }
    return nan;
}

CellExplanation explain_cell(const Trace& trace, const CellAddress& cell, const ExplainOptions& options) {
    CellExplanation e;
    e.cell = cell;
    e.value = value_at_cell(trace, cell);
    if (std::isnan(e.value)) return e;  // no such cell (a recorded NaN cannot happen: the forward refuses them)
    e.valid = true;
    e.dtype = trace.config.dtype;
    if (cell.kind != CellAddress::Kind::Step) {
        e.rule = CellRule::Parameter;
        parameter_flows(trace, e);
        e.highlights = e.flows;
        return e;
    }
    const Step& step = *trace.find(cell.step);
    if (explain_extra_key_row(trace, step, e)) return e;
    switch (step.kind) {
        case StepKind::Input:
            if (step.id == StepId::LayerInput && trace.model.previous_attention_residual.size() > 0) {
                explain_layer_input(trace, e);
                break;
            }
            e.rule = CellRule::Given;
            input_flows(trace, e);
            e.highlights = e.flows;
            // A model's attention input is its LayerNorm's output itself (model_trace.cpp):
            // the same storage, so the number comes from the norm and goes to the projections.
            if (const Step* norm = trace.find(StepId::Norm); norm && step.id == StepId::Input && norm->tensor.shares_storage_with(step.tensor)) {
                e.highlights.clear();
                set_operand(trace, e, StepId::Norm, cell.index);
                e.rule = CellRule::Move;
                e.is_view = true;
            }
            break;
        case StepKind::Projection: explain_projection(trace, step, options, e); break;
        case StepKind::Scores:
        case StepKind::WeightedSum: explain_sum_of_products(trace, step, options, e); break;
        case StepKind::Scale: explain_scale(trace, step, e); break;
        case StepKind::Mask: explain_mask(trace, step, e); break;
        case StepKind::Softmax: explain_softmax(trace, step, options, e); break;
        case StepKind::Dropout: explain_dropout(trace, step, e); break;
        case StepKind::Slice:
        case StepKind::View:
        case StepKind::Transpose:
        case StepKind::Concat: explain_move(trace, step, e); break;
        case StepKind::RopeTable: explain_rope_table(trace, step, e); break;
        case StepKind::Rotation: explain_rotation(trace, step, e); break;
        case StepKind::RepeatKv: explain_repeat(trace, step, e); break;
        case StepKind::CacheAppend: explain_cache(trace, step, e); break;
        case StepKind::HeadMean: explain_head_mean(trace, step, options, e); break;
        case StepKind::Lookup: explain_lookup(trace, step, e); break;
        case StepKind::Add: explain_add(trace, step, e); break;
        case StepKind::Norm: explain_norm(trace, step, e); break;
        case StepKind::Prediction: explain_prediction(trace, step, options, e); break;
    }
    return e;
}

}  // namespace attn
