#include "app/gui/state/compare_contrasts.h"

#include <algorithm>

#include "app/cli/compare_options.h"
#include "app/io/model_problem.h"
#include "core/model/tokenizer.h"

namespace attn::gui {

const std::vector<Contrast>& contrasts() {
    static const std::vector<Contrast> table = {
        {"scale", "--scale=head", "--scale=none", StepId::AttnWeights},
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

Result<ContrastSetup> contrast_setup(const Session& session, const Contrast& contrast) {
    const cli::SetupText current = setup_text_of(session);
    Result<io::Problem> a = cli::compared_problem(current, contrast.a_options);
    if (!a) return Result<ContrastSetup>::failure(a.message());
    const std::string b_options = with_heads(contrast.b_options, more_heads(session.config));
    Result<io::Problem> b = cli::compared_problem(setup_text_of(a.value(), current), b_options);
    if (!b) return Result<ContrastSetup>::failure(b.message());
    return ContrastSetup{std::move(a.value()), std::move(b.value())};
}

Result<io::Problem> problem_for_b(const Session& a, const std::string& b_options) {
    return cli::compared_problem(setup_text_of(a), b_options);
}

namespace {

// The mean over (batch, head, query) rows of each row's largest weight.
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
