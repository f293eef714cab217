#include "app/cli/bench_generation.h"

#include <chrono>

#include "app/io/model_loader.h"
#include "core/model/generate.h"

namespace attn::cli {

Result<GenerationBench> bench_generation(int repeat) {
    using R = Result<GenerationBench>;
    Result<std::shared_ptr<const Model>> model = io::load_model("tiny-llama");
    if (!model) return R::failure(model.message());
    const Model& m = *model.value();
    GenerationBench bench;
    // A prompt of 8 tokens (<bos> and the example's first 7 words) leaves room for 48 more
    // (max_len 64).
    Result<TokenizedText> tokens = tokenize(m.spec, m.spec.example);
    if (!tokens) return R::failure(tokens.message());
    const std::vector<int> prompt(tokens->ids.begin(), tokens->ids.begin() + 8);
    for (int run = -1; run < repeat; ++run) {
        const auto start = std::chrono::steady_clock::now();
        Result<GenerationRun> generated = generate(m, prompt, bench.tokens, SamplingSettings{});
        if (!generated) return R::failure(generated.message());
        for (int step = 0; step <= generated->steps(); ++step)
            for (int layer = 0; layer < m.spec.layers; ++layer)
                if (Result<Trace> trace = trace_generation_step(m, generated.value(), step, layer); !trace)
                    return R::failure(trace.message());
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (run >= 0) bench.ms.push_back(ms);
    }
    return bench;
}

}  // namespace attn::cli
