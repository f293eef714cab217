#include "core/model/sampling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

namespace attn {

namespace {

// softmax of `scores` over the tokens `kept` marks (all when empty), in double; 0 elsewhere.
Vec softmax_over(const Eigen::Ref<const Eigen::RowVectorXd>& scores, const std::vector<uint8_t>& kept) {
    const Eigen::Index V = scores.size();
    const auto in = [&](Eigen::Index i) { return kept.empty() || kept[static_cast<size_t>(i)]; };
    double top = -INFINITY;
    for (Eigen::Index i = 0; i < V; ++i)
        if (in(i)) top = std::max(top, scores[i]);
    Eigen::RowVectorXd e = Eigen::RowVectorXd::Zero(V);
    for (Eigen::Index i = 0; i < V; ++i)
        if (in(i)) e[i] = std::exp(scores[i] - top);
    return (e / e.sum()).cast<float>();
}

// Token ids by decreasing `values`, equal values in increasing id (a stable sort).
std::vector<int> order_by_decreasing(const Eigen::Ref<const Vec>& values) {
    std::vector<int> order(static_cast<size_t>(values.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values[a] > values[b]; });
    return order;
}

// The first id whose cumulative filtered probability passes u (ids in increasing order);
// the last kept id when rounding leaves the sum just under u.
int draw_from(const Vec& filtered, double u) {
    double total = 0;
    int last = 0;
    for (Eigen::Index i = 0; i < filtered.size(); ++i) {
        if (filtered[i] <= 0) continue;
        total += filtered[i];
        last = static_cast<int>(i);
        if (u < total) return last;
    }
    return last;
}

// A setting as the user typed it: "0.7", "-1", "nan".
std::string number_text(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

}  // namespace

Status check_sampling(const SamplingSettings& s) {
    if (!std::isfinite(s.temperature) || s.temperature < 0)
        return Status::failure(Message("error.sample.temperature", {{"value", number_text(s.temperature)}}));
    if (s.top_k < 0) return Status::failure(Message("error.sample.top_k", {{"value", s.top_k}}));
    if (!(s.top_p > 0 && s.top_p <= 1))
        return Status::failure(Message("error.sample.top_p", {{"value", number_text(s.top_p)}}));
    return ok_status();
}

Rng sample_rng(uint64_t seed) { return Rng::for_stream(seed, "sample"); }

double uniform01_double(Rng& rng) { return static_cast<double>(rng.next_u64() >> 11) * (1.0 / 9007199254740992.0); }

int greedy_token(const Eigen::Ref<const Vec>& logits) {
    int best = 0;
    for (Eigen::Index i = 1; i < logits.size(); ++i)
        if (logits[i] > logits[best]) best = static_cast<int>(i);
    return best;
}

std::vector<uint8_t> top_k_keep(const Eigen::Ref<const Vec>& scores, int k) {
    const size_t V = static_cast<size_t>(scores.size());
    if (k <= 0 || static_cast<size_t>(k) >= V) return std::vector<uint8_t>(V, 1);
    std::vector<uint8_t> kept(V, 0);
    const std::vector<int> order = order_by_decreasing(scores);
    for (int i = 0; i < k; ++i) kept[static_cast<size_t>(order[static_cast<size_t>(i)])] = 1;
    return kept;
}

std::vector<uint8_t> top_p_keep(const Eigen::Ref<const Vec>& probs, std::vector<uint8_t> kept, float p) {
    if (p >= 1) return kept;
    double before = 0;  // the sum of the more likely kept tokens
    for (int id : order_by_decreasing(probs)) {
        uint8_t& keep = kept[static_cast<size_t>(id)];
        if (!keep) continue;
        if (before >= p) keep = 0;
        before += probs[id];
    }
    return kept;
}

NextTokenChoice choose_next_token(const Eigen::Ref<const Vec>& logits, const SamplingSettings& s, Rng& rng) {
    NextTokenChoice c;
    const Eigen::RowVectorXd scores = logits.cast<double>();
    c.probs = softmax_over(scores, {});
    const Eigen::Index V = logits.size();
    if (s.greedy()) {
        c.tempered = c.probs;
        c.token = greedy_token(logits);
        c.kept.assign(static_cast<size_t>(V), 0);
        c.kept[static_cast<size_t>(c.token)] = 1;
        c.filtered = Vec::Zero(V);
        c.filtered[c.token] = 1;
    } else {
        const Eigen::RowVectorXd tempered_scores = scores / static_cast<double>(s.temperature);
        c.tempered = softmax_over(tempered_scores, {});
        // top-k by the logits (T > 0 keeps their order), then top-p on the distribution of
        // the tokens top-k left, renormalised, as Hugging Face's warpers.
        std::vector<uint8_t> kept = top_k_keep(logits, s.top_k);
        c.kept = top_p_keep(softmax_over(tempered_scores, kept), kept, s.top_p);
        c.filtered = softmax_over(tempered_scores, c.kept);
        c.uniform = uniform01_double(rng);
        c.token = draw_from(c.filtered, c.uniform);
    }
    c.probability = c.filtered[c.token];
    c.model_probability = c.probs[c.token];
    return c;
}

}  // namespace attn
