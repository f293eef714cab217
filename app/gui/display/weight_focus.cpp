#include "app/gui/display/weight_focus.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "app/text/languages.h"
#include "core/masked_score.h"

namespace attn::gui {

RowFocus row_focus(const float* weights, const float* scores, int cols, float fill) {
    RowFocus out;
    // The weights that count, in one vectorised pass: visible keys' weights above 0, else 0
    // (a dropped or exactly-zero weight adds nothing). Then q log q over them, with Eigen's
    // vectorised log: a 256 x 256 x 8 step has half a million of them on every slider change.
    thread_local std::vector<float> kept_row, log_row;  // (cols) each
    kept_row.resize(static_cast<size_t>(cols));
    log_row.resize(static_cast<size_t>(cols));
    float* kept = kept_row.data();
    int keys = cols;
    if (scores) {
#pragma omp simd reduction(+ : keys)
        for (int j = 0; j < cols; ++j) {
            const bool visible = !is_masked_score(scores[j], fill);
            keys -= visible ? 0 : 1;
            kept[j] = visible ? weights[j] : 0.0f;
        }
    } else {
        std::copy(weights, weights + cols, kept);
    }
    float max_weight = 0.0f, sum = 0.0f;  // a float sum: the entropy is shown to two decimals
#pragma omp simd reduction(+ : sum) reduction(max : max_weight)
    for (int j = 0; j < cols; ++j) {
        const float k = kept[j] > 0.0f ? kept[j] : 0.0f;  // NaN too adds nothing
        kept[j] = k;
        sum += k;
        max_weight = max_weight > k ? max_weight : k;
    }
    out.keys = keys;
    out.max_weight = max_weight;
    if (out.keys <= 1 || !(sum > 0.0f)) {
        // One visible key takes all the weight by construction: report it, but it is no evidence.
        out.entropy = 0.0f;
        return out;
    }
    // The log in float: the entropy is shown to two decimals.
    Eigen::Map<Eigen::ArrayXf> q(kept, cols);
    q *= 1.0f / sum;
    const float* logs = log_row.data();
    Eigen::Map<Eigen::ArrayXf>(log_row.data(), cols) = q.max(std::numeric_limits<float>::min()).log();  // 0 log 0 = 0 below
    double h = 0;
#pragma omp simd reduction(+ : h)
    for (int j = 0; j < cols; ++j) h -= static_cast<double>(kept[j] * logs[j]);
    out.entropy = static_cast<float>(std::min(1.0, std::max(0.0, h / std::log(static_cast<double>(out.keys)))));
    out.counted = true;
    return out;
}

std::vector<HeadFocus> weight_focus(const Tensor& weights, const Tensor* masked, int batch_item, float fill) {
    std::vector<HeadFocus> heads;
    if (weights.empty() || weights.rank() != 4) return heads;
    if (masked && (masked->empty() || masked->shape() != weights.shape())) masked = nullptr;
    const int64_t batch = weights.dim(0), h_count = weights.dim(1), rows = weights.dim(2), cols = weights.dim(3);
    if (batch_item < 0 || batch_item >= batch) return heads;
    // Strided reads (a weight tensor may be a view).
    const auto element = [&](const Tensor& t, int64_t h, int64_t r, int64_t c) -> const float& {
        const std::vector<int64_t>& st = t.strides();
        return t.data()[batch_item * st[0] + h * st[1] + r * st[2] + c * st[3]];
    };
    heads.resize(static_cast<size_t>(h_count));
    // Heads are independent: shared out on the compute thread's OpenMP team when the step
    // is big enough to be worth waking it.
#pragma omp parallel for schedule(static) if (h_count > 1 && rows * cols >= 16384)
    for (int64_t h = 0; h < h_count; ++h) {
        std::vector<float> w_row(static_cast<size_t>(cols)), s_row(static_cast<size_t>(cols));
        HeadFocus& focus = heads[static_cast<size_t>(h)];
        focus.head = static_cast<int>(h);
        focus.rows.reserve(static_cast<size_t>(rows));
        double max_sum = 0, entropy_sum = 0;
        for (int64_t r = 0; r < rows; ++r) {
            // A row is read in place when its columns are adjacent (the usual case), else copied.
            const auto row_of = [&](const Tensor& t, std::vector<float>& copy) {
                if (t.strides()[3] == 1) return &element(t, h, r, 0);
                for (int64_t c = 0; c < cols; ++c) copy[static_cast<size_t>(c)] = element(t, h, r, c);
                return static_cast<const float*>(copy.data());
            };
            const float* w = row_of(weights, w_row);
            const float* s = masked ? row_of(*masked, s_row) : nullptr;
            const RowFocus row = row_focus(w, s, static_cast<int>(cols), fill);
            if (row.counted) {
                ++focus.counted_rows;
                max_sum += row.max_weight;
                entropy_sum += row.entropy;
            }
            focus.rows.push_back(row);
        }
        if (focus.counted_rows > 0) {
            focus.mean_max = static_cast<float>(max_sum / focus.counted_rows);
            focus.mean_entropy = static_cast<float>(entropy_sum / focus.counted_rows);
        }
    }
    return heads;
}

const char* focus_word(float mean_entropy) {
    if (mean_entropy < 0.5f) return text::tr("focus.word.focused");
    if (mean_entropy < 0.85f) return text::tr("focus.word.spread");
    return text::tr("focus.word.uniform");
}

std::string head_focus_line(const HeadFocus& focus) {
    if (focus.counted_rows == 0) return text::trf("focus.head.none", {{"head", focus.head}});
    return text::trf("focus.head.line", {{"head", focus.head},
                                         {"max", text::fixed(static_cast<double>(focus.mean_max), 2)},
                                         {"entropy", text::fixed(static_cast<double>(focus.mean_entropy), 2)},
                                         {"word", focus_word(focus.mean_entropy)}});
}

}  // namespace attn::gui
