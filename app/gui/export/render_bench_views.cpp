// `attnviz bench --render`'s figures for issue 22's views: compare mode's redraw after a
// change of B at 256/512/8 (B computed with the step on screen first, A − B redone, the
// three columns drawn) and the token-to-token lines view of 64 tokens and 8 heads.
#include "app/gui/export/render_bench.h"

#include <chrono>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/state/decode_choice.h"
#include "app/gui/export/snapshot.h"
#include "app/gui/gl/gl_objects.h"
#include "app/gui/gl/offscreen.h"
#include "app/gui/kit/fonts_theme.h"

namespace attn::gui {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

ComputeRequest weights_request(int seq_len, int hidden_dim, int num_heads) {
    ComputeRequest request;
    request.config.seq_len = seq_len;
    request.config.hidden_dim = hidden_dim;
    request.config.num_heads = num_heads;
    request.focus_step = StepId::AttnWeights;
    return request;
}

// A trace on screen at its attention weights, its display model complete (drawn before).
void put_on_screen(AppState& state, const ComputeResult& r) {
    state.results.trace = r.trace;
    auto full = std::make_shared<DisplayModel>(*r.model);
    complete_display_model(*r.trace, *full);
    state.results.model = std::move(full);
    state.results.query_tokens = r.query_tokens;
    state.results.key_tokens = r.key_tokens;
    state.ui.playback.set_step_count(static_cast<int>(r.trace->steps.size()));
    state.ui.playback.set_position(std::max(0, r.trace->index_of(StepId::AttnWeights)), 1.0f);
}

}  // namespace

std::vector<double> compare_changes(int width, int height, int seq_len, int hidden_dim, int num_heads) {
    std::vector<double> times;
    OffscreenRenderer renderer(width, height, 1.0f, false);
    HeatmapCache cache;
    AppState state;
    ComputeRequest request = weights_request(seq_len, hidden_dim, num_heads);
    const ComputeResult a = ComputeWorker::compute(request, 1);
    if (!a.error.empty()) return times;
    put_on_screen(state, a);
    cache.reset(state.results.model, canvas_palette(false).masked);
    start_compare(state);
    constexpr int kChanges = 7;
    for (int change = 0; change <= kChanges; ++change) {  // change 0 bakes A's textures, untimed
        request.config.seed = static_cast<uint64_t>(change + 1);  // B's seed field stepped
        const auto start = Clock::now();
        ComputeResult b = ComputeWorker::compute(request, 1);
        if (!b.error.empty()) return times;
        accept_b_result(state.compare, std::move(b), 0.0);
        render_state(renderer, state, cache, SnapshotLayout::FullWindow);  // A − B is redone in the frame
        gl::finish();
        if (change > 0) times.push_back(ms_since(start));
    }
    return times;
}

std::vector<double> lines_frames(int width, int height, int seq_len, int num_heads, int frames, const std::string& weights_as) {
    std::vector<double> times;
    OffscreenRenderer renderer(width, height, 1.0f, false);
    HeatmapCache cache;
    AppState state;
    state.settings.weights_as = weights_as;
    const ComputeResult r = ComputeWorker::compute(weights_request(seq_len, 8 * num_heads, num_heads), 1);
    if (!r.error.empty()) return times;
    put_on_screen(state, r);
    cache.reset(state.results.model, canvas_palette(false).masked);
    render_state(renderer, state, cache, SnapshotLayout::FullWindow);  // untimed: textures and glyphs
    gl::finish();
    return time_frames(renderer, state, cache, frames);
}

std::vector<double> decode_step_clicks(int width, int height, int cached, int hidden_dim, int num_heads, int clicks) {
    std::vector<double> times;
    OffscreenRenderer renderer(width, height, 1.0f, false);
    HeatmapCache cache;
    AppState state;
    ComputeRequest request = weights_request(cached + clicks + 1, hidden_dim, num_heads);
    request.config.mask = MaskKind::Causal;
    request.config.decode_from = cached;  // the prefill fills the cache with `cached` positions
    ComputeResult prefill = ComputeWorker::compute(request, 1);
    if (!prefill.error.empty()) return times;
    state.session.config = request.config;
    accept_result(state, std::move(prefill), 0.0);
    state.ui.playback.set_position(std::max(0, state.results.trace->index_of(StepId::AttnWeights)), 1.0f);
    for (int click = 0; click <= clicks; ++click) {  // click 0 bakes textures and glyphs, untimed
        // The next token: one new row against the kept cache of cached + click positions.
        const auto start = Clock::now();
        if (!show_decode_step(state, click + 1, 0.0).empty()) return times;
        cache.reset(state.results.model, canvas_palette(false).masked);  // the window re-bakes on a new model
        render_state(renderer, state, cache, SnapshotLayout::FullWindow);
        gl::finish();
        if (click > 0) times.push_back(ms_since(start));
    }
    return times;
}

}  // namespace attn::gui
