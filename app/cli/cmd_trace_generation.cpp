// `attnviz trace --decode-from P --out DIR`: the prefill (rows 0..P-1, which fills the KV
// cache) and one decode step per later row, each attending to the cache, written as
// DIR/prefill, DIR/decode_001, ... and DIR/generation.json (app/io/generation_writer.h).
// With --model every layer decodes against its own cache and each folder holds the layer
// --layer chooses; --generate N draws N tokens after the sentence instead of reading them.
#include <cstdio>

#include "app/cli/commands.h"
#include "app/io/generation_writer.h"
#include "app/text/languages.h"
#include "core/attention.h"
#include "core/model/generate.h"

namespace attn::cli {

namespace {

// The folders of a trained model's generation: layer `layer` at every step, and what each
// generated token's draw said.
Result<io::Generation> model_generation(const Model& model, const GenerationRun& run, int layer) {
    io::Generation generation;
    generation.model = model.spec.name;
    for (int id : run.ids) generation.tokens.push_back(model.spec.vocabulary[static_cast<size_t>(id)]);
    for (int step = 0; step <= run.steps(); ++step) {
        Result<Trace> trace = trace_generation_step(model, run, step, layer);
        if (!trace) return Result<io::Generation>::failure(trace.message());
        generation.traces.push_back(std::move(trace).value());
    }
    generation.sampled = run.generated;
    generation.settings = run.settings;
    for (size_t i = 0; i < run.choices.size(); ++i) {
        const NextTokenChoice& c = run.choices[i];
        const int position = run.prompt_length + static_cast<int>(i);
        generation.generated.push_back({position, generation.tokens[static_cast<size_t>(position)], c.token, c.probability,
                                        c.model_probability, io::generation_folder_name(i)});
    }
    return generation;
}

// The prefill and decode steps of the configuration's own attention (no model).
Result<io::Generation> attention_generation(const io::Problem& problem) {
    const AttentionConfig& c = problem.config;
    io::Generation generation;
    generation.tokens = problem.query_tokens;
    KvCache cache;
    // The prefill's block of rows, then one row at a time.
    for (QueryBlock block{0, c.decode_from}; block.first < c.L(); block = QueryBlock{block.first + block.count, 1}) {
        Result<Trace> trace = run_attention_block(c, problem.weights, problem.inputs, cache, block);
        if (!trace) return Result<io::Generation>::failure(trace.message());
        generation.traces.push_back(std::move(trace).value());
    }
    return generation;
}

}  // namespace

int run_trace_generation(const TraceCommand& command, const io::Problem& problem) {
    Result<io::Generation> generation = Result<io::Generation>::failure("");
    if (problem.model) {
        const std::vector<int>& ids = problem.model_tokens.ids;
        const ConfigOptions& o = command.config;
        Result<GenerationRun> run = o.generate > 0 ? generate(*problem.model, ids, o.generate, o.sampling)
                                                   : decode_model(*problem.model, ids, problem.config.decode_from);
        if (!run) return fail(run.message());
        generation = model_generation(*problem.model, run.value(), problem.model_layer);
    } else {
        generation = attention_generation(problem);
    }
    if (!generation) return fail(generation.message());
    const bool labelled = problem.model || !problem.config.recipe.empty() || !command.config.sentence.empty();
    if (Status s = io::write_generation_dir(generation.value(), command.out_dir, labelled, text::active()); !s)
        return fail(s.message());
    std::printf("%s\n", text::render(Message("cli.generation_written", {{"steps", generation->traces.size() - 1},
                                                                         {"path", command.out_dir}}))
                            .c_str());
    return 0;
}

}  // namespace attn::cli
