// Compare mode's second configuration, B, written as command-line options on top of A
// (`attnviz snapshot --compare "--scale none"`, `attnviz trace --compare ...`, and the
// window's ready contrasts): A's setup becomes arguments, B's options replace those of the
// same name or are added, and the result goes through the command line's own parser, so
// B is checked exactly as a typed command would be.
#pragma once

#include <string>
#include <vector>

#include "app/io/problem.h"
#include "core/config.h"
#include "core/result.h"

namespace attn::cli {

// What a setup is made of: a trained model (then only the sentence and layer), or a
// configuration with a sentence ("" : the generated rows t0, t1, ...).
struct SetupText {
    AttentionConfig config;
    std::string model;      // a model's name or card path; "" for the seeded random weights
    int layer = 0;
    std::string sentence;
    // A model's setup: every token it reads, the <bos> it adds included, so that the
    // seeded random weights in its place ("--model=none") read the same L tokens.
    std::string model_words;
};

// The setup a built problem stands for: its configuration, `model` as the command line named
// it ("" for none), its layer, `sentence` and the tokens a model read.
SetupText setup_of(const io::Problem& problem, const std::string& model, const std::string& sentence);

// The arguments that rebuild `setup` ("--model=tiny-lm", "--layer=1", "--tokens=..." or
// "--hidden-dim=8", "--rope", ...). With a sentence, --seq-len and --batch are left to it.
std::vector<std::string> setup_arguments_of(const SetupText& setup);

// "--num-heads 1 --scale=none --tokens 'a b c'" -> {"--num-heads=1", "--scale=none",
// "--tokens=a b c"}: an option's value may follow it or its '='; quotes keep spaces.
// Fails (one line) on a word that is not an option or on an unclosed quote.
Result<std::vector<std::string>> split_options(const std::string& text);

// `base` with `changes` applied: an option of the same name is replaced where it stands,
// a new one is appended; "--model=NAME" replaces the whole configuration (a model fixes it).
std::vector<std::string> merge_options(const std::vector<std::string>& base, const std::vector<std::string>& changes);

// Parses arguments as `attnviz trace` would and builds the problem (errors are one line).
Result<io::Problem> problem_from_arguments(std::vector<std::string> args);

// B's problem: A's setup with `b_options` on top. "--model=none" takes A's model away: B
// then runs the seeded random weights with the model's sizes on the tokens it read.
Result<io::Problem> compared_problem(const SetupText& a, const std::string& b_options);

}  // namespace attn::cli
