// `attnviz snapshot` and the off-screen drawing it shares with exports.
#include "app/gui/export/snapshot.h"
#include "app/gui/export/snapshot_options.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "app/gui/kit/cjk_font.h"
#include "app/gui/export/export.h"
#include "app/gui/display/format.h"
#include "app/gui/display/weight_lines.h"
#include "app/gui/state/compare_contrasts.h"
#include "app/gui/views/frame.h"
#include "app/gui/gl/headless.h"
#include "app/text/languages.h"

namespace attn::gui {

void render_state(OffscreenRenderer& renderer, AppState& state, HeatmapCache& cache, SnapshotLayout layout, double now) {
    // A copy keeps the caller's hover/pin state untouched by an off-screen frame.
    AppState view = state;
    view.ui.canvas.hovered = CellRef{};
    HeatmapCache compare_b, difference;  // compare mode's B and A − B, baked for this picture
    renderer.render([&](const Fonts& fonts) {
        FrameContext ctx;
        ctx.cache = &cache;
        ctx.compare_b_cache = &compare_b;
        ctx.difference_cache = &difference;
        ctx.fonts = fonts;
        ctx.scale = renderer.scale() * state.settings.ui_scale;
        ctx.offscreen = true;
        ctx.canvas_only = layout == SnapshotLayout::CanvasOnly;
        ctx.presentation_header = layout == SnapshotLayout::Slide;
        ctx.now = now;
        draw_frame(view, ctx);
    });
}

AppState snapshot_state(const SnapshotOptions& options) {
    AppState state;
    state.settings.light_theme = options.theme == "light";
    state.ui.presentation = options.presentation;
    state.settings.weights_as = options.view;
    state.ui.canvas.overview = options.overview;
    return state;
}

std::unique_ptr<OffscreenRenderer> snapshot_renderer(const SnapshotOptions& options) {
    return std::make_unique<OffscreenRenderer>(options.width, options.height, static_cast<float>(options.scale),
                                               options.theme == "light", options.presentation ? kPresentationTypeScale : 1.0f);
}

std::vector<std::string> render_steps_to_pngs(OffscreenRenderer& renderer, AppState& state, HeatmapCache& cache,
                                              SnapshotLayout layout, const std::vector<int>& steps, float progress,
                                              const std::string& dir, PngEncoderPool& pool, double now) {
    std::vector<std::string> files;
    for (int step : steps) {
        state.ui.playback.set_position(step, progress);
        render_state(renderer, state, cache, layout, now);
        const std::string path = dir + "/" + snapshot_file_name(step + 1, state.results.trace->steps[static_cast<size_t>(step)].name());
        pool.wait_for_room();  // at once in the window, which only asks when there is room
        pool.submit(path, renderer.pixel_width(), renderer.pixel_height(), renderer.pixels());
        files.push_back(path);
    }
    return files;
}

bool steps_to_draw(const Trace& trace, const std::string& spec, std::vector<int>& steps, std::string& error) {
    if (spec == "all") {
        for (size_t i = 0; i < trace.steps.size(); ++i) steps.push_back(static_cast<int>(i));
        return true;
    }
    size_t start = 0;
    while (start <= spec.size()) {
        const size_t comma = std::min(spec.find(',', start), spec.size());
        const std::string name = spec.substr(start, comma - start);
        start = comma + 1;
        const std::optional<StepId> id = parse_step_name(name);
        if (!id) {
            std::string names = "all";
            for (StepId known : kAllStepIds) names += std::string(", ") + step_name(known);
            error = "unknown step '" + name + "'; valid names: " + names;
            return false;
        }
        const int index = trace.index_of(*id);
        if (index < 0) {
            std::string names;
            for (const Step& s : trace.steps) names += (names.empty() ? "" : ", ") + std::string(s.name());
            error = "this configuration records no step '" + name + "'; it has: " + names;
            return false;
        }
        steps.push_back(index);
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    return true;
}

SnapshotLayout snapshot_layout(const std::string& name) {
    if (name == "canvas") return SnapshotLayout::CanvasOnly;
    if (name == "window") return SnapshotLayout::FullWindow;
    return SnapshotLayout::Slide;
}

// --overview: the one weight step whose grid is drawn (--step names it, else attn_weights),
// left alone in `steps`; false with the reason when there is none.
bool overview_step(const Trace& trace, const ModelOverview& overview, const std::string& spec, std::vector<int>& steps,
                   std::string& error) {
    if (spec == "all") steps.assign(1, trace.index_of(StepId::AttnWeights));
    if (steps.size() != 1 || steps.front() < 0 || !draws_weight_lines(trace.steps[static_cast<size_t>(steps.front())].id)) {
        error = spec == "all" ? "--overview needs attention weights, and this configuration records no attn_weights step"
                              : "--overview draws one weight step (attn_weights, attn_weights_avg or attn_dropped); --step named '" + spec + "'";
        return false;
    }
    if (!overview.grid_for(trace.steps[static_cast<size_t>(steps.front())].id)) {
        error = "--overview found no attention weights to draw in this configuration";
        return false;
    }
    return true;
}

// --compare: B built from A's setup and the options, computed, and compare mode on.
static Status prepare_compare(AppState& state, const std::string& b_options) {
    Result<io::Problem> b = problem_for_b(state.session, b_options);
    if (!b) return Status::failure(b.message());
    ComputeResult computed = ComputeWorker::compute(b.value(), state.session.batch_item, 512);
    if (!computed.error.empty()) return Status::failure(computed.error);
    start_compare(state);
    init_from_problem(state.compare.b, b.value());
    accept_b_result(state.compare, std::move(computed), 0.0);
    note_shown_glyphs(state);
    return ok_status();
}

// --contrast: A and B set up as the Compare menu sets them up from the options' setup,
// both computed, and the pictures' steps named again in A's trace (the contrast may change
// which steps it records: the stacked variant, one head).
static Status prepare_contrast(AppState& state, const std::string& id, const std::string& step_spec, std::vector<int>& steps) {
    const Contrast* contrast = find_contrast(id);
    if (!contrast) {
        std::string names;
        for (const Contrast& c : contrasts()) names += (names.empty() ? "" : ", ") + std::string(c.id);
        return Status::failure(Message("error.snapshot.unknown_contrast", {{"name", id}, {"contrasts", names}}));
    }
    Result<ContrastSetup> setup = set_up_contrast(state, *contrast);
    if (!setup) return Status::failure(setup.message());
    ComputeResult a = ComputeWorker::compute(setup.value().a, state.session.batch_item, 512);
    if (!a.error.empty()) return Status::failure(a.error);
    ComputeResult b = ComputeWorker::compute(setup.value().b, state.session.batch_item, 512);
    if (!b.error.empty()) return Status::failure(b.error);
    accept_result(state, std::move(a), 0.0);
    accept_b_result(state.compare, std::move(b), 0.0);
    note_shown_glyphs(state);
    steps.clear();
    std::string unknown;
    if (!steps_to_draw(*state.results.trace, step_spec, steps, unknown)) return Status::failure(unknown);
    return ok_status();
}

Status prepare_snapshot_state(const io::Problem& problem, const SnapshotOptions& options, AppState& state,
                              std::vector<int>& steps) {
    ComputeResult computed = ComputeWorker::compute(problem, 0, 512, std::nullopt, {}, options.overview, options.decode_step);
    if (!computed.error.empty()) return Status::failure(computed.error);
    std::string unknown;
    if (!steps_to_draw(*computed.trace, options.step, steps, unknown)) return Status::failure(unknown);
    if (options.overview && !overview_step(*computed.trace, *computed.overview, options.step, steps, unknown))
        return Status::failure(unknown);
    state = snapshot_state(options);
    init_from_problem(state.session, problem);  // the controls of --layout window show these options
    accept_result(state, std::move(computed), 0.0);
    if (!options.compare.empty()) return prepare_compare(state, options.compare);
    if (!options.contrast.empty()) return prepare_contrast(state, options.contrast, options.step, steps);
    note_shown_glyphs(state);  // the sentence's and tokens' characters, before the atlas is built
    return ok_status();
}

int run_snapshot(const io::Problem& problem, const SnapshotOptions& options) {
    auto fail = [](const std::string& message) {
        std::fprintf(stderr, "attnviz: error: %s\n", message.c_str());
        return 2;
    };
    if (options.scale != 1 && options.scale != 2 && options.scale != 4) return fail("--scale must be 1, 2 or 4");
    if (options.width < 16 || options.height < 16 || options.width > 8192 || options.height > 8192) {
        return fail("--width and --height must be between 16 and 8192");
    }
    if (options.theme != "dark" && options.theme != "light") return fail("--theme must be dark or light");
    if (!(options.progress >= 0.0f && options.progress <= 1.0f)) return fail("--progress must be between 0 and 1");
    const Status dir = ensure_writable_dir(options.out_dir);
    if (!dir.ok()) return fail(text::render(dir.message()));

    AppState state;
    std::vector<int> steps;
    if (const Status ready = prepare_snapshot_state(problem, options, state, steps); !ready) return fail(text::render(ready.message()));
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    const std::unique_ptr<OffscreenRenderer> offscreen = snapshot_renderer(options);
    OffscreenRenderer& renderer = *offscreen;
    if (!renderer.valid()) return fail(text::render(renderer.error()));
    HeatmapCache cache;
    cache.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
    PngEncoderPool pool;
    if (options.overview) {
        state.ui.playback.set_position(steps.front(), 1.0f);
        render_state(renderer, state, cache, snapshot_layout(options.layout));
        pool.submit(options.out_dir + "/overview.png", renderer.pixel_width(), renderer.pixel_height(), renderer.pixels());
    } else {
        render_steps_to_pngs(renderer, state, cache, snapshot_layout(options.layout), steps, options.progress, options.out_dir, pool);
    }
    if (!cache.error().empty()) return fail(cache.error());
    const Status written = pool.finish();
    if (!written.ok()) return fail(text::render(written.message()));
    return 0;
}

}  // namespace attn::gui
