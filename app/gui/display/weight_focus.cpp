#include "app/gui/display/weight_focus.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <Eigen/Core>

#include "app/text/languages.h"
#include "core/masked_score.h"

namespace attn::gui {

namespace {

// The entropy of q = w / sum over `keys` keys, normalised to 0..1, from w >= 0 as it is:
// -sum(q log q) = log(sum) - sum(w log w) / sum, so the row is never divided. The logs
// with Eigen's vectorised log (a 256 x 256 x 8 step has half a million of them on every
// slider change), into a row of their own, then a dot product in double.
float normalised_entropy(const float* w, int cols, float sum, int keys) {
    thread_local std::vector<float> log_row;  // (cols)
    log_row.resize(static_cast<size_t>(cols));
    const float* logs = log_row.data();
    Eigen::Map<Eigen::ArrayXf>(log_row.data(), cols) =
        Eigen::Map<const Eigen::ArrayXf>(w, cols).max(std::numeric_limits<float>::min()).log();  // 0 log 0 = 0 below
    double w_log_w = 0;
#pragma omp simd reduction(+ : w_log_w)
    for (int j = 0; j < cols; ++j) w_log_w += static_cast<double>(w[j] * logs[j]);
    const double h = std::log(static_cast<double>(sum)) - w_log_w / sum;
    return static_cast<float>(std::min(1.0, std::max(0.0, h / std::log(static_cast<double>(keys)))));
}

// The figures once the weights that count are known (keys of them visible, their sum).
RowFocus focus_of(const float* kept, int cols, int keys, float sum, float max_weight) {
    RowFocus out;
    out.keys = keys;
    out.max_weight = max_weight;
    // One visible key takes all the weight by construction: report it, but it is no evidence.
    if (keys <= 1 || !(sum > 0.0f)) return out;
    out.entropy = normalised_entropy(kept, cols, sum, keys);
    out.counted = true;
    return out;
}

// The usual row: no mask, every weight finite and >= 0, read in place. One pass for the
// sum and the largest weight, where x * 0 summed stays 0 unless some weight is +-inf or
// NaN. Empty when the row is not usual.
std::optional<RowFocus> plain_row_focus(const float* weights, int cols) {
    float sum = 0.0f, max_weight = 0.0f, least = 0.0f, zero = 0.0f;
#pragma omp simd reduction(+ : sum, zero) reduction(max : max_weight) reduction(min : least)
    for (int j = 0; j < cols; ++j) {
        const float w = weights[j];
        sum += w;
        zero += w * 0.0f;
        max_weight = std::max(max_weight, w);
        least = std::min(least, w);
    }
    if (zero != 0.0f || least < 0.0f) return std::nullopt;
    return focus_of(weights, cols, cols, sum, max_weight);
}

}  // namespace

RowFocus row_focus(const float* weights, const float* scores, int cols, float fill) {
    if (!scores) {
        if (std::optional<RowFocus> plain = plain_row_focus(weights, cols)) return *plain;
    }
    // The general way: the weights that count into a row of their own, visible keys'
    // weights above 0, else 0 (a dropped, exactly-zero or NaN weight adds nothing).
    thread_local std::vector<float> kept_row;  // (cols)
    kept_row.resize(static_cast<size_t>(cols));
    float* kept = kept_row.data();
    int keys = cols;
    float max_weight = 0.0f, sum = 0.0f;  // a float sum: the entropy is shown to two decimals
#pragma omp simd reduction(+ : keys, sum) reduction(max : max_weight)
    for (int j = 0; j < cols; ++j) {
        const bool visible = !scores || !is_masked_score(scores[j], fill);
        keys -= visible ? 0 : 1;
        const float k = visible && weights[j] > 0.0f ? weights[j] : 0.0f;
        kept[j] = k;
        sum += k;
        max_weight = max_weight > k ? max_weight : k;
    }
    return focus_of(kept, cols, keys, sum, max_weight);
}

HeadFocus summarise_head(int head, std::vector<RowFocus> rows) {
    HeadFocus focus;
    focus.head = head;
    double max_sum = 0, entropy_sum = 0;
    for (const RowFocus& row : rows) {
        if (!row.counted) continue;
        ++focus.counted_rows;
        max_sum += row.max_weight;
        entropy_sum += row.entropy;
    }
    if (focus.counted_rows > 0) {
        focus.mean_max = static_cast<float>(max_sum / focus.counted_rows);
        focus.mean_entropy = static_cast<float>(entropy_sum / focus.counted_rows);
    }
    focus.rows = std::move(rows);
    return focus;
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
        std::vector<RowFocus> focus_rows;
        focus_rows.reserve(static_cast<size_t>(rows));
        for (int64_t r = 0; r < rows; ++r) {
            // A row is read in place when its columns are adjacent (the usual case), else copied.
            const auto row_of = [&](const Tensor& t, std::vector<float>& copy) {
                if (t.strides()[3] == 1) return &element(t, h, r, 0);
                for (int64_t c = 0; c < cols; ++c) copy[static_cast<size_t>(c)] = element(t, h, r, c);
                return static_cast<const float*>(copy.data());
            };
            const float* w = row_of(weights, w_row);
            const float* s = masked ? row_of(*masked, s_row) : nullptr;
            focus_rows.push_back(row_focus(w, s, static_cast<int>(cols), fill));
        }
        heads[static_cast<size_t>(h)] = summarise_head(static_cast<int>(h), std::move(focus_rows));
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
