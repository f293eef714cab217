// `attnviz bench`'s generation figure: tiny-llama generating 48 tokens after its example
// sentence's first words, every step traced (each layer's attention recorded, and the layer
// trace a window would show built for every step), greedy. Target: under 1 s.
#pragma once

#include <vector>

#include "core/result.h"

namespace attn::cli {

struct GenerationBench {
    int tokens = 48;
    std::vector<double> ms;  // one per run
};

// Runs the generation `repeat` times (after one warm-up run).
Result<GenerationBench> bench_generation(int repeat);

}  // namespace attn::cli
