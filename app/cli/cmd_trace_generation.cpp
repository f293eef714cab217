// `attnviz trace --decode-from P --out DIR`: the prefill (rows 0..P-1, which fills the KV
// cache) and one decode step per later row, each attending to the cache, written as
// DIR/prefill, DIR/decode_001, ... and DIR/generation.json (app/io/generation_writer.h).
#include <cstdio>

#include "app/cli/commands.h"
#include "app/io/generation_writer.h"
#include "app/text/languages.h"
#include "core/attention.h"

namespace attn::cli {

int run_trace_generation(const TraceCommand& command, const io::Problem& problem) {
    if (problem.model) return fail(Message("error.decode.model_not_yet"));
    const AttentionConfig& c = problem.config;
    io::Generation generation;
    generation.tokens = problem.query_tokens;
    KvCache cache;
    // The prefill's block of rows, then one row at a time.
    for (QueryBlock block{0, c.decode_from}; block.first < c.L(); block = QueryBlock{block.first + block.count, 1}) {
        Result<Trace> trace = run_attention_block(c, problem.weights, problem.inputs, cache, block);
        if (!trace) return fail(trace.message());
        generation.traces.push_back(std::move(trace).value());
    }
    const bool labelled = !c.recipe.empty() || !command.config.sentence.empty();
    if (Status s = io::write_generation_dir(generation, command.out_dir, labelled, text::active()); !s) return fail(s.message());
    std::printf("%s\n", text::render(Message("cli.generation_written", {{"steps", generation.traces.size() - 1},
                                                                         {"path", command.out_dir}}))
                            .c_str());
    return 0;
}

}  // namespace attn::cli
