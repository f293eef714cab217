// The fast ways of reading a run's range (scan_run) and a weight row's focus (row_focus)
// against plain loops written out here, on finite rows and on rows with NaN and infinities,
// where both fall back to their general way.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "app/gui/display/display_model.h"
#include "app/gui/display/panel_pixels.h"
#include "app/gui/display/weight_focus.h"
#include "core/attention.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Range {
    float lo = kInf, hi = -kInf;
    int64_t neg_infs = 0;
};

// scan_run's contract, one value at a time: -inf counted and left out, NaN ignored.
Range reference_scan(const std::vector<float>& v, Range r) {
    for (float x : v) {
        if (x == -kInf) {
            ++r.neg_infs;
            continue;
        }
        if (std::isnan(x)) continue;
        r.lo = std::min(r.lo, x);
        r.hi = std::max(r.hi, x);
    }
    return r;
}

std::vector<float> random_run(std::mt19937& rng, int n, float spread) {
    std::normal_distribution<float> normal(0.0f, spread);
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = normal(rng);
    return v;
}

// -sum(q log q) / log(keys) with q = w / sum(w), in double, over the visible keys.
double reference_entropy(const std::vector<float>& w, const std::vector<bool>& visible) {
    double sum = 0;
    int keys = 0;
    for (size_t j = 0; j < w.size(); ++j) {
        keys += visible[j] ? 1 : 0;
        if (visible[j] && w[j] > 0) sum += w[j];
    }
    double h = 0;
    for (size_t j = 0; j < w.size(); ++j) {
        if (!visible[j] || !(w[j] > 0)) continue;
        const double q = w[j] / sum;
        h -= q * std::log(q);
    }
    return h / std::log(static_cast<double>(keys));
}

}  // namespace

TEST_CASE("a run's range and -inf count equal a plain loop, finite or not, at every length") {
    std::mt19937 rng(7);
    const float specials[] = {-kInf, kInf, std::numeric_limits<float>::quiet_NaN(), 0.0f};
    for (int n : {0, 1, 3, 8, 15, 16, 17, 33, 64, 100, 256}) {
        for (int special = -1; special < 4; ++special) {
            std::vector<float> v = random_run(rng, n, 3.0f);
            if (special >= 0 && n > 0) {
                v[static_cast<size_t>(n - 1)] = specials[special];  // the tail the vector loop leaves
                v[static_cast<size_t>(n / 2)] = specials[special];
            }
            // Runs are added to a range already read (a panel is several rows).
            Range before;
            before.lo = -0.5f;
            before.hi = 0.25f;
            before.neg_infs = 3;
            Range got = before;
            scan_run(v.data(), n, got.lo, got.hi, got.neg_infs);
            const Range want = reference_scan(v, before);
            CAPTURE(n);
            CAPTURE(special);
            CHECK(got.lo == want.lo);
            CHECK(got.hi == want.hi);
            CHECK(got.neg_infs == want.neg_infs);
        }
    }
}

TEST_CASE("a run of -inf only leaves the range empty and counts every value") {
    std::vector<float> v(20, -kInf);
    Range r;
    scan_run(v.data(), 20, r.lo, r.hi, r.neg_infs);
    CHECK(r.lo == kInf);
    CHECK(r.hi == -kInf);
    CHECK(r.neg_infs == 20);
}

TEST_CASE("a row's focus read in place equals the entropy written out, and the general way") {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    for (int cols : {3, 7, 16, 31, 256}) {
        for (int kind = 0; kind < 4; ++kind) {
            // softmax-like rows, rows with exact zeros, rescaled dropout survivors (sum 1.25),
            // and a row peaked on one key
            std::vector<float> w(static_cast<size_t>(cols));
            for (float& x : w) x = uniform(rng);
            if (kind == 1) w[0] = w[static_cast<size_t>(cols - 1)] = 0.0f;
            if (kind == 3) {
                for (float& x : w) x *= 1e-6f;
                w[1] = 1.0f;
            }
            double sum = 0;
            for (float x : w) sum += x;
            const float target = kind == 2 ? 1.25f : 1.0f;
            for (float& x : w) x = static_cast<float>(x / sum * target);

            const RowFocus plain = row_focus(w.data(), nullptr, cols);
            // Scores with nothing masked send the row the general way.
            const std::vector<float> scores(static_cast<size_t>(cols), 0.5f);
            const RowFocus general = row_focus(w.data(), scores.data(), cols);
            CAPTURE(cols);
            CAPTURE(kind);
            REQUIRE(plain.counted);
            REQUIRE(general.counted);
            CHECK(plain.keys == cols);
            CHECK(plain.max_weight == general.max_weight);
            const double want = reference_entropy(w, std::vector<bool>(static_cast<size_t>(cols), true));
            CHECK(plain.entropy == doctest::Approx(want).epsilon(1e-5));
            CHECK(general.entropy == doctest::Approx(want).epsilon(1e-5));
        }
    }
}

TEST_CASE("a row with NaN, an infinity or a negative weight is read the general way") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (float odd : {nan, kInf, -0.25f}) {
        std::vector<float> w = {0.5f, 0.25f, odd, 0.25f};
        const RowFocus r = row_focus(w.data(), nullptr, 4);
        CAPTURE(odd);
        // The odd weight adds nothing: (1/2, 1/4, 1/4) over four keys.
        CHECK(r.keys == 4);
        CHECK(r.counted);
        if (odd == kInf) {
            CHECK(r.max_weight == kInf);
            continue;  // the infinite weight itself is kept: no entropy to compare
        }
        CHECK(r.max_weight == 0.5f);
        CHECK(r.entropy == doctest::Approx(1.5 * std::log(2.0) / std::log(4.0)).epsilon(1e-6));
    }
}

TEST_CASE("how peaked, measured while the weights are pooled, equals weight_focus read on its own") {
    // L = 80 with 8 heads under a 64-texel cap: every head's map is pooled in place, so the
    // rows are measured as pooling reads them. Batch item 1 of 2, with and without a mask
    // (masked weights go the general way).
    for (MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
        attn::AttentionConfig c = attn::test_configs::sized(80, 32, 8);
        c.batch = 2;
        c.mask = mask;
        attn::Result<attn::Trace> traced = attn::run_attention(c);
        REQUIRE(traced.ok());
        const attn::Trace& t = traced.value();
        const int weights = t.index_of(attn::StepId::AttnWeights);
        const DisplayModel m = build_display_model(t, {}, {}, 1, 64, weights);
        const StepDisplay& sd = m.steps[static_cast<size_t>(weights)];
        REQUIRE(sd.panels.size() == 8);
        REQUIRE(sd.panels[0].tex_rows < sd.panels[0].rows);  // pooled
        const attn::Tensor* masked = mask == MaskKind::None ? nullptr : &t.steps[static_cast<size_t>(t.index_of(attn::StepId::AttnMasked))].tensor;
        const std::vector<HeadFocus> want = weight_focus(t.steps[static_cast<size_t>(weights)].tensor, masked, 1);
        REQUIRE(sd.focus.size() == want.size());
        for (size_t h = 0; h < want.size(); ++h) {
            CAPTURE(h);
            CHECK(sd.focus[h].head == want[h].head);
            CHECK(sd.focus[h].counted_rows == want[h].counted_rows);
            CHECK(sd.focus[h].mean_max == want[h].mean_max);
            CHECK(sd.focus[h].mean_entropy == doctest::Approx(want[h].mean_entropy).epsilon(1e-6));
            REQUIRE(sd.focus[h].rows.size() == want[h].rows.size());
            for (size_t r = 0; r < want[h].rows.size(); ++r) {
                CHECK(sd.focus[h].rows[r].keys == want[h].rows[r].keys);
                CHECK(sd.focus[h].rows[r].entropy == doctest::Approx(want[h].rows[r].entropy).epsilon(1e-6));
            }
        }
    }
}

TEST_CASE("a panel's values are found finite in one pass, and masked ones are not") {
    attn::AttentionConfig c = attn::test_configs::sized(80, 32, 8);
    c.mask = MaskKind::Causal;
    attn::Result<attn::Trace> traced = attn::run_attention(c);
    REQUIRE(traced.ok());
    const attn::Trace& t = traced.value();
    const DisplayModel m = build_display_model(t, {}, {}, 0, 64);
    for (const StepDisplay& sd : m.steps) {
        for (const Panel& p : sd.panels) {
            CAPTURE(attn::step_name(t.steps[static_cast<size_t>(sd.step)].id));
            bool finite = true;
            for (float v : p.values) finite = finite && std::isfinite(v);
            CHECK(all_finite(p.values) == finite);
            if (finite) CHECK(bake_cell_px(p) == 1);
        }
    }
    // The masked scores hide keys (-inf, hatched): those panels are not finite.
    const StepDisplay& masked = m.steps[static_cast<size_t>(t.index_of(attn::StepId::AttnMasked))];
    REQUIRE_FALSE(masked.panels.empty());
    CHECK_FALSE(all_finite(masked.panels[0].values));
}
