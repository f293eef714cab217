#include "core/trace.h"

#include <algorithm>

#include <cassert>
#include <set>

namespace attn {

const char* to_string(StepKind kind) {
    switch (kind) {
        case StepKind::Input: return "input";
        case StepKind::Projection: return "projection";
        case StepKind::Slice: return "slice";
        case StepKind::View: return "view";
        case StepKind::Transpose: return "transpose";
        case StepKind::Scores: return "scores";
        case StepKind::Scale: return "scale";
        case StepKind::Mask: return "mask";
        case StepKind::Softmax: return "softmax";
        case StepKind::Dropout: return "dropout";
        case StepKind::WeightedSum: return "weighted_sum";
        case StepKind::Concat: return "concat";
        case StepKind::RopeTable: return "rope_table";
        case StepKind::Rotation: return "rotation";
        case StepKind::CacheAppend: return "cache_append";
        case StepKind::RepeatKv: return "repeat_kv";
        case StepKind::HeadMean: return "head_mean";
        case StepKind::Lookup: return "lookup";
        case StepKind::Add: return "add";
        case StepKind::Norm: return "norm";
        case StepKind::Prediction: return "prediction";
    }
    return "?";
}

std::vector<WeightId> weight_parts(WeightId weight) {
    if (weight == WeightId::Wqkv) return {WeightId::Wq, WeightId::Wk, WeightId::Wv};
    return {weight};
}

LinearParams linear_params(const AttentionWeights& w, WeightId part) {
    switch (part) {
        case WeightId::Wq: return {w.w_q, w.b_q};
        case WeightId::Wk: return {w.w_k, w.b_k};
        case WeightId::Wv: return {w.w_v, w.b_v};
        case WeightId::Wo: return {w.w_o, w.b_o};
        case WeightId::Wqkv: break;
    }
    assert(false && "Wqkv has no single matrix: use weight_parts()");
    return {w.w_q, w.b_q};
}

const Step* Trace::find(StepId id) const {
    const int i = index_of(id);
    return i < 0 ? nullptr : &steps[static_cast<size_t>(i)];
}

int Trace::index_of(StepId id) const {
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i].id == id) return static_cast<int>(i);
    return -1;
}

uint64_t Trace::storage_bytes() const {
    std::set<const Storage*> seen;
    uint64_t bytes = fully_masked_rows.size();
    for (const Step& step : steps)
        if (seen.insert(step.tensor.storage()).second) bytes += step.tensor.storage_bytes();
    return bytes;
}

int Trace::count_fully_masked_rows() const {
    int n = 0;
    for (uint8_t flag : fully_masked_rows) n += flag;
    return n;
}

int Trace::count_fully_masked_queries(int item) const {
    const int64_t B = config.batch_size(), H = config.H(), L = config.L();
    if (fully_masked_rows.size() != static_cast<size_t>(B * H * L)) return count_fully_masked_rows();
    int n = 0;
    for (int64_t b = item >= 0 ? item : 0; b < (item >= 0 ? std::min<int64_t>(item + 1, B) : B); ++b)
        for (int64_t i = 0; i < L; ++i) {
            bool any = false;
            for (int64_t h = 0; h < H && !any; ++h) any = fully_masked_rows[static_cast<size_t>((b * H + h) * L + i)] != 0;
            n += any;
        }
    return n;
}

}  // namespace attn
