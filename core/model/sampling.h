// Choosing the next token from a model's logits, as Hugging Face's generate() does:
// temperature, then top-k, then top-p (its TemperatureLogitsWarper, TopKLogitsWarper and
// TopPLogitsWarper, in that order), then one draw from what is left.
//
// Written out so every machine draws the same token for the same seed: the draw reads
// SplitMix64 (core/rng.h) and walks the cumulative sum by token id; no
// std::*_distribution, whose results differ between standard libraries.
// Ties (equal logits) always go to the lower token id: in the argmax, in top-k's cut and
// in top-p's order.
#pragma once

#include <cstdint>
#include <vector>

#include "core/dims.h"
#include "core/result.h"
#include "core/rng.h"

namespace attn {

struct SamplingSettings {
    float temperature = 0;  // 0: greedy (the argmax, nothing drawn); otherwise logits / T, T > 0
    int top_k = 0;          // keep the k most likely tokens; 0: off
    float top_p = 1;        // keep the most likely tokens until their sum reaches p, the one
                            // that crosses p included; 1: off. In (0, 1].
    uint64_t seed = 0;      // --sample-seed: the draws' stream (sample_rng)
    bool greedy() const { return temperature == 0; }
};

// Refuses a temperature below 0 or not finite, top_k < 0, top_p outside (0, 1], with a
// message naming the value and the range (error.sample.*).
Status check_sampling(const SamplingSettings& settings);

// The generator a generation draws from: one stream per seed, one number per token.
Rng sample_rng(uint64_t seed);
// Uniform in [0, 1) with 53 random bits (one next_u64()).
double uniform01_double(Rng& rng);

// One choice of the next token, and every distribution on the way. V = vocabulary size.
struct NextTokenChoice {
    Vec probs;     // (V) softmax(logits): the model's own distribution
    Vec tempered;  // (V) softmax(logits / T); the same as probs when greedy
    Vec filtered;  // (V) tempered with the tokens top-k and top-p removed set to 0, the rest
                   // renormalised: what the token is drawn from (greedy: 1 at the argmax)
    std::vector<uint8_t> kept;  // (V) 1 where a token survived top-k and top-p (greedy: the argmax only)
    int token = 0;              // the token chosen
    float probability = 0;       // filtered[token]: the chance it had in the draw
    float model_probability = 0; // probs[token]: the chance the model gave it
    double uniform = -1;         // the uniform number the draw read; -1 when greedy
};

// The argmax of `logits`, the lowest id among equal largest values.
int greedy_token(const Eigen::Ref<const Vec>& logits);

// Which tokens top-k keeps: the k largest of `scores` (equal scores: lower ids first).
// k <= 0 or k >= V keeps all.   scores (V) -> (V) 1 = kept
std::vector<uint8_t> top_k_keep(const Eigen::Ref<const Vec>& scores, int k);
// Which tokens top-p keeps among `kept`: in order of decreasing probability (equal: lower id
// first), every token whose predecessors sum to less than p, so the one that crosses p stays
// (at least one always does). probs (V), a distribution over the kept tokens.
std::vector<uint8_t> top_p_keep(const Eigen::Ref<const Vec>& probs, std::vector<uint8_t> kept, float p);

// Applies the settings to one row of logits (V) and draws (one uniform01_double from `rng`
// unless greedy). The caller checked the settings (check_sampling).
NextTokenChoice choose_next_token(const Eigen::Ref<const Vec>& logits, const SamplingSettings& settings, Rng& rng);

}  // namespace attn
