// Internal to explain_cell*.cpp: the helpers the three files share and the per-kind
// explanations each file defines. Not part of the core's public interface.
//   explain_cell.cpp        addresses, terms, projections, dot products, softmax, dropout, moves
//   explain_cell_flows.cpp  where an input or a parameter goes
//   explain_cell_options.cpp scale and mask with every option, extra key rows, RoPE, repeat_kv, head mean
//   explain_cell_model.cpp  a trained model's lookups, sums, LayerNorm, prediction and layer input
#pragma once

#include <vector>

#include "core/explain_cell.h"

namespace attn::explain_parts {

// Row `row` of `weight` as (part, row inside the part): Wqkv's rows are W_q's, W_k's, W_v's.
bool weight_row(const Trace& trace, WeightId weight, int64_t row, WeightId& part, int64_t& part_row);
const Tensor& tensor_of(const Trace& trace, StepId id);
// The index along the dimension with `role`, or 0 when the tensor has none.
int64_t index_of_role(const Tensor& t, const std::vector<int64_t>& index, DimRole role);
// Sets e.operand (and its value) and highlights that one cell.
void set_operand(const Trace& trace, CellExplanation& e, StepId step, std::vector<int64_t> index);
// Sets e.operand2 (and its value) and highlights that one cell.
void set_operand2(const Trace& trace, CellExplanation& e, StepId step, std::vector<int64_t> index);
// Every term when there are few, else the largest |value| first (see ExplainOptions).
void keep_terms(std::vector<Term> all, const ExplainOptions& options, CellExplanation& e);
// Which appended column key column `j` of a (.., S_total) map is (None for a real key).
ExtraKeyKind extra_key_of_column(const AttentionConfig& config, int64_t j);

// explain_cell_flows.cpp: e.flows of an input cell (projections, or a model's lookups,
// norm and residual) and of a weight or bias element (its output feature everywhere).
void input_flows(const Trace& trace, CellExplanation& e);
void parameter_flows(const Trace& trace, CellExplanation& e);

// explain_cell_options.cpp
void explain_scale(const Trace& trace, const Step& step, CellExplanation& e);
void explain_mask(const Trace& trace, const Step& step, CellExplanation& e);
void explain_rope_table(const Trace& trace, const Step& step, CellExplanation& e);
void explain_rotation(const Trace& trace, const Step& step, CellExplanation& e);
void explain_repeat(const Trace& trace, const Step& step, CellExplanation& e);
void explain_cache(const Trace& trace, const Step& step, CellExplanation& e);
void explain_head_mean(const Trace& trace, const Step& step, const ExplainOptions& options, CellExplanation& e);
// K / V row S (bias_k / bias_v) or a heads step's zero row (add_zero_attn): true when
// `e.cell` is one and it was explained as ExtraKey.
bool explain_extra_key_row(const Trace& trace, const Step& step, CellExplanation& e);

// explain_cell_model.cpp
void explain_lookup(const Trace& trace, const Step& step, CellExplanation& e);
void explain_add(const Trace& trace, const Step& step, CellExplanation& e);
void explain_norm(const Trace& trace, const Step& step, CellExplanation& e);
void explain_prediction(const Trace& trace, const Step& step, const ExplainOptions& options, CellExplanation& e);
void explain_layer_input(const Trace& trace, CellExplanation& e);
// Given cells of a model trace (tokens, layer_input): the lookups, norm and residual cells reading them.
void model_input_flows(const Trace& trace, CellExplanation& e);

}  // namespace attn::explain_parts
