#include "app/gui/state/compare_contrasts.h"

#include <algorithm>

#include "app/gui/state/app_state.h"
#include "app/options/compare_options.h"
#include "app/options/config_options.h"
#include "app/io/model_problem.h"
#include "core/model/tokenizer.h"

namespace attn::gui {

const std::vector<Contrast>& contrasts() {
    static const std::vector<Contrast> table = {
        // d_h = 256 (E = 256, one head): where unscaled softmax hands most of a row to one
        // key (on tiny-lm's sentence a row's largest weight is 0.70 on average against 0.34
        // scaled; at d_h = 64 it was 0.46, at the window's default d_h = 4 the two pictures
        // differ by about 0.04). One head: its cells are large enough for numbers.
        {"scale", "--scale=head --hidden-dim=256 --num-heads=1 --num-kv-heads=1", "--scale=none", StepId::AttnWeights},
        {"heads", "--num-heads=1 --num-kv-heads=1", "--num-heads={more_heads} --num-kv-heads={more_heads}", StepId::AttnWeights},
        {"stacked", "--variant=split", "--variant=stacked", StepId::Out},
        {"fused", "--variant=split", "--variant=fused", StepId::Out},
        {"trained", "--model=tiny-lm", "--model=none", StepId::AttnWeights},
        {"bfloat16", "--dtype=float32", "--dtype=bfloat16", StepId::AttnScores},
        {"causal", "--mask=none", "--mask=causal", StepId::AttnWeights},
        {"rope_offset", "--rope --position-offset=0", "--position-offset=5", StepId::AttnScores},
    };
    return table;
}

const Contrast* find_contrast(const std::string& id) {
    for (const Contrast& c : contrasts())
        if (id == c.id) return &c;
    return nullptr;
}

namespace {

cli::SetupText setup_text_of(const Session& session) {
    cli::SetupText text;
    text.config = request_config(session);
    if (session.model) {
        text.model = session.model->spec.name;
        text.layer = session.model_layer;
        text.model_words = (session.model->spec.prepend_bos ? std::string(kBosToken) + " " : "") + session.sentence_in_use;
    }
    if (session.tokens_from_sentence) text.sentence = session.sentence_in_use;
    return text;
}

// A's heads when it has several, else the fewest above 1 that divide its width.
int more_heads(const AttentionConfig& config) {
    if (config.num_heads > 1) return config.num_heads;
    for (int h = 2; h <= config.hidden_dim; ++h)
        if (config.hidden_dim % h == 0) return h;
    return 1;
}

std::string with_heads(std::string options, int heads) {
    const std::string mark = "{more_heads}";
    for (size_t at = options.find(mark); at != std::string::npos; at = options.find(mark))
        options.replace(at, mark.size(), std::to_string(heads));
    return options;
}

cli::SetupText setup_text_of(const io::Problem& problem, const cli::SetupText& from) {
    return cli::setup_of(problem, problem.model ? problem.model->spec.name : "", from.sentence);
}

}  // namespace

namespace {

Result<ContrastSetup> setup_on(const cli::SetupText& current, const Contrast& contrast, int heads) {
    Result<io::Problem> a = cli::compared_problem(current, contrast.a_options);
    if (!a) return Result<ContrastSetup>::failure(a.message());
    Result<io::Problem> b = cli::compared_problem(setup_text_of(a.value(), current), with_heads(contrast.b_options, heads));
    if (!b) return Result<ContrastSetup>::failure(b.message());
    return ContrastSetup{std::move(a.value()), std::move(b.value()), {}};
}

std::string model_name(const io::Problem& problem) { return problem.model ? problem.model->spec.name : ""; }

// A and B differ in what they compute: another model, or another configuration.
bool sides_differ(const ContrastSetup& setup) {
    return model_name(setup.a) != model_name(setup.b) || cli::command_line_of(setup.a.config) != cli::command_line_of(setup.b.config);
}

}  // namespace

Result<ContrastSetup> contrast_setup(const Session& session, const Contrast& contrast) {
    const cli::SetupText current = setup_text_of(session);
    Result<ContrastSetup> setup = setup_on(current, contrast, more_heads(session.config));
    if (!session.model || (setup && sides_differ(setup.value()))) return setup;
    // The trained model fixes what this contrast changes (its scaling, heads, mask, ...): the
    // contrast runs on the model's sizes and tokens with random weights, where it shows.
    // The tokens the model read (<bos>, <unk> for unknown words), as the random weights read them.
    Result<io::Problem> model = cli::compared_problem(current, "");
    if (!model) return setup;
    Result<io::Problem> stand_in = cli::compared_problem(setup_text_of(model.value(), current), "--model=none");
    if (!stand_in) return setup;
    const cli::SetupText random = cli::setup_of(stand_in.value(), "", setup_text_of(model.value(), current).model_words);
    Result<ContrastSetup> shown = setup_on(random, contrast, more_heads(stand_in.value().config));
    if (!shown) return setup;
    shown.value().note = Message("compare.contrast.random_stand_in", {{"name", session.model->spec.name}});
    return shown;
}

void apply_contrast_side(Session& side, const io::Problem& problem, const Session& base) {
    init_from_problem(side, problem);
    // The box keeps what was typed ("The cat saw the Dog.", words the model does not know)
    // wherever this side reads the tokens that text gives: not where random weights stand
    // in for a model (they read the model's tokens, <bos> and <unk> included).
    const bool reads_typed_text =
        base.tokens_from_sentence && (problem.model ? true : !base.model && effective_tokens(base) == problem.query_tokens);
    if (reads_typed_text && side.tokens_from_sentence) {
        side.sentence = base.sentence;
        side.sentence_in_use = base.sentence_in_use;
    }
    // What the model picker says matches the side: its trained model, or random weights.
    if (problem.model) side.model_note = Message("model.note.chosen", {{"name", problem.model->spec.name}});
    else if (base.model) side.model_note = Message("model.note.random_sized", {{"name", base.model->spec.name}});
    else side.model_note = base.model_note;
}

Result<ContrastSetup> set_up_contrast(AppState& state, const Contrast& contrast) {
    if (!state.compare.on) start_compare(state);
    CompareState& c = state.compare;
    Result<ContrastSetup> setup = contrast_setup(c.base, contrast);
    c.contrast = contrast.id;
    c.saturation.clear();
    c.contrast_note = {};
    c.contrast_error = setup ? Message{} : setup.message();
    if (!setup) return setup;
    c.contrast_note = setup.value().note;
    apply_contrast_side(state.session, setup.value().a, c.base);
    apply_contrast_side(c.b, setup.value().b, c.base);
    if (std::string(contrast.id) == "scale") c.saturation = saturation_by_head_dim(setup.value().a.config);
    state.ui.resume_step = step_name(contrast.step);
    state.ui.canvas.pinned = CellRef{};
    return setup;
}

Result<io::Problem> problem_for_b(const Session& a, const std::string& b_options) {
    return cli::compared_problem(setup_text_of(a), b_options);
}

float mean_row_peak(const Trace& trace) {
    const Step* weights = trace.find(StepId::AttnWeights);
    if (!weights) return 0.0f;
    const Tensor t = weights->tensor.contiguous();
    const int64_t keys = t.dim(t.rank() - 1);
    const int64_t rows = keys > 0 ? t.numel() / keys : 0;
    double sum = 0;
    for (int64_t r = 0; r < rows; ++r) sum += *std::max_element(t.data() + r * keys, t.data() + (r + 1) * keys);
    return rows > 0 ? static_cast<float>(sum / static_cast<double>(rows)) : 0.0f;
}

namespace {

float peak_with(AttentionConfig config, int head_dim, ScaleKind scale) {
    config.hidden_dim = head_dim * config.num_heads;
    config.input_dim = 0;
    config.kdim = config.vdim = 0;
    config.num_kv_heads = 0;
    config.scale = ScaleChoice{scale, 1.0f};
    Result<io::Problem> problem = io::build_problem(config, io::ProblemSources{});
    if (!problem) return 0.0f;
    Result<Trace> trace = io::compute_trace(problem.value());
    return trace ? mean_row_peak(trace.value()) : 0.0f;
}

}  // namespace

std::vector<SaturationRow> saturation_by_head_dim(const AttentionConfig& base) {
    AttentionConfig config = base;
    config.mask_file = Tensor{};  // sizes change: a mask file of A's sizes would not fit
    config.dropout = 0.0f;
    std::vector<SaturationRow> rows;
    for (const int d : {4, 16, 64, 256})
        rows.push_back(SaturationRow{d, peak_with(config, d, ScaleKind::Head), peak_with(config, d, ScaleKind::None)});
    return rows;
}

}  // namespace attn::gui
