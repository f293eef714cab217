#include "app/gui/state/capture_slide.h"

#include <algorithm>

#include "app/gui/state/lesson_apply.h"
#include "core/recipe.h"

namespace attn::gui {
namespace {

// The configuration the options start from: the recipe's, else the defaults.
AttentionConfig base_config(const Session& session) {
    if (const Recipe* recipe = find_recipe(session.config.recipe)) return recipe->config;
    return AttentionConfig{};
}

// The input files, by the command line's option names (absolute, so the lesson opens
// from any folder).
void add_file_options(const io::ProblemSources& sources, std::map<std::string, lesson::OptionValue>& options) {
    const std::pair<const char*, const std::string*> files[] = {{"weights", &sources.weights_path}, {"query", &sources.query_path},
                                                                {"key", &sources.key_path},         {"value", &sources.value_path},
                                                                {"mask-file", &sources.mask_path}};
    for (const auto& [name, path] : files)
        if (!path->empty()) options[name] = {lesson::OptionValue::Kind::Text, *path};
}

}  // namespace

lesson::SlideSetup setup_of(const Session& session) {
    lesson::SlideSetup setup;
    if (session.tokens_from_sentence && !session.sentence_in_use.empty()) setup.sentence = session.sentence_in_use;
    if (session.model) {
        // The model fixes the configuration: its name, the layer and the sentence say it all.
        setup.model = session.model->spec.name;
        setup.layer = session.model_layer;
        if (session.generating) {  // the generation on screen (the controls' Generate)
            setup.generate = session.generate_tokens;
            setup.sampling = session.sampling;
        }
        return setup;
    }
    setup.recipe = session.config.recipe;
    setup.options = lesson::options_from(session.config, base_config(session));
    add_file_options(session.sources, setup.options);
    return setup;
}

std::optional<lesson::CellAnchor> anchor_of(const Results& results, const CellRef& cell) {
    const Step* step = results.step_at(cell.step);
    if (!cell.valid() || !step) return std::nullopt;
    return lesson::CellAnchor{step->id, cell.panel, cell.row, cell.col, static_cast<lesson::CellPart>(cell.part)};
}

lesson::Slide capture_slide(const AppState& state, std::string title, std::string note) {
    const UiState& ui = state.ui;
    lesson::Slide slide;
    slide.title = std::move(title);
    slide.note = std::move(note);
    // The slide shown last, word for word, while nothing it computes has changed: the
    // file keeps the teacher's own wording (a sentence left out stays left out).
    const lesson::SlideSetup now = setup_of(state.session);
    slide.setup = ui.lesson.applied && ui.lesson.applied->as_setup == now ? ui.lesson.applied->setup : now;
    lesson::SlideView& view = slide.view;
    view = ui.lesson.marks;  // highlighted cells and drawings
    const Step* step = state.results.step_at(ui.playback.step());
    if (step) view.step = step->id;
    // What the screen shows, nothing more: the marks of the step on screen (a drawing made
    // on another step stays with that step's slides), the followed cell as the canvas
    // follows it now (followed in the window or kept from the slide).
    const auto elsewhere = [&](const lesson::CellAnchor& cell) { return !step || cell.step != step->id; };
    view.highlighted.erase(std::remove_if(view.highlighted.begin(), view.highlighted.end(), elsewhere), view.highlighted.end());
    view.annotations.erase(std::remove_if(view.annotations.begin(), view.annotations.end(),
                                          [&](const lesson::Annotation& a) { return elsewhere(a.cell); }),
                           view.annotations.end());
    view.followed = ui.canvas.follow.cell.valid() ? anchor_of(state.results, ui.canvas.follow.cell) : unplaced_follow(state);
    view.head = ui.canvas.enlarged_head;
    view.batch_item = state.session.batch_item;
    view.moment = ui.playback.progress();
    view.decode_step = state.results.decode ? state.results.decode_step : 0;
    view.pinned = anchor_of(state.results, ui.canvas.pinned);
    view.panels = {{"storage", ui.show_storage}, {"code", ui.code.show}};
    return slide;
}

}  // namespace attn::gui
