#include "app/options/compare_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "app/options/config_options.h"

namespace attn::cli {
namespace {

// "--num-heads=1" -> "--num-heads"; "--rope" -> "--rope".
std::string option_name(const std::string& argument) { return argument.substr(0, argument.find('=')); }

bool is_option(const std::string& word) { return word.size() > 2 && word[0] == '-' && word[1] == '-'; }

// Words of `text`, split at spaces outside quotes; false on an unclosed quote.
bool split_words(const std::string& text, std::vector<std::string>& words) {
    std::string word;
    char quote = 0;
    bool in_word = false;
    for (const char c : text) {
        if (quote) {
            if (c == quote) quote = 0;
            else word += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word) words.push_back(word);
    return quote == 0;
}

}  // namespace

SetupText setup_of(const io::Problem& problem, const std::string& model, const std::string& sentence) {
    SetupText text;
    text.config = problem.config;
    text.model = model;
    text.layer = problem.model_layer;
    text.sentence = sentence;
    for (const std::string& token : problem.model_tokens.tokens) text.model_words += (text.model_words.empty() ? "" : " ") + token;
    return text;
}

std::vector<std::string> setup_arguments_of(const SetupText& setup) {
    std::vector<std::string> args;
    if (!setup.model.empty()) {
        args.push_back("--model=" + setup.model);
        args.push_back("--layer=" + std::to_string(setup.layer));
    } else {
        for (const std::string& arg : command_line_of(setup.config)) {
            const std::string name = option_name(arg);
            if (!setup.sentence.empty() && (name == "--seq-len" || name == "--batch")) continue;  // the sentence decides
            args.push_back(arg);
        }
    }
    if (!setup.sentence.empty()) args.push_back("--tokens=" + setup.sentence);
    return args;
}

Result<std::vector<std::string>> split_options(const std::string& text) {
    using R = Result<std::vector<std::string>>;
    std::vector<std::string> words;
    if (!split_words(text, words)) return R::failure(Message("error.options.compare_quote", {{"text", text}}));
    std::vector<std::string> args;
    for (size_t i = 0; i < words.size(); ++i) {
        if (!is_option(words[i])) return R::failure(Message("error.options.compare_not_option", {{"word", words[i]}}));
        const bool has_value = words[i].find('=') == std::string::npos && i + 1 < words.size() && !is_option(words[i + 1]);
        args.push_back(has_value ? words[i] + "=" + words[i + 1] : words[i]);
        if (has_value) ++i;
    }
    return args;
}

std::vector<std::string> merge_options(const std::vector<std::string>& base, const std::vector<std::string>& changes) {
    std::vector<std::string> merged = base;
    for (const std::string& change : changes) {
        if (option_name(change) == "--model") {
            // A model fixes everything but its sentence and layer: A's configuration goes.
            std::vector<std::string> model{change};
            for (const std::string& arg : merged)
                if (option_name(arg) == "--tokens") model.push_back(arg);
            merged = std::move(model);
            continue;
        }
        const std::string name = option_name(change);
        const auto same = std::find_if(merged.begin(), merged.end(), [&](const std::string& a) { return option_name(a) == name; });
        if (same != merged.end()) *same = change;
        else merged.push_back(change);
    }
    return merged;
}

Result<io::Problem> problem_from_arguments(std::vector<std::string> args) {
    CLI::App app;
    ConfigOptions options;
    add_config_options(app, options);
    std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        return Result<io::Problem>::failure(Message("error.options.compare_unreadable", {{"detail", e.what()}}));
    }
    return resolve_problem(options);
}

Result<io::Problem> compared_problem(const SetupText& a, const std::string& b_options) {
    Result<std::vector<std::string>> split = split_options(b_options);
    if (!split) return Result<io::Problem>::failure(split.message());
    std::vector<std::string> changes = split.value();
    SetupText base = a;
    const auto none = std::find_if(changes.begin(), changes.end(), [](const std::string& c) { return c == "--model=none" || c == "--model="; });
    if (none != changes.end()) {
        // The model's sizes and tokens with the seeded random weights instead of its own.
        base.model.clear();
        if (!a.model_words.empty()) base.sentence = a.model_words;
        changes.erase(none);
    }
    return problem_from_arguments(merge_options(setup_arguments_of(base), changes));
}

}  // namespace attn::cli
