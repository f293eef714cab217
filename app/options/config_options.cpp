#include "app/options/config_options.h"

#include "app/io/model_loader.h"
#include "app/io/model_problem.h"
#include "app/io/typed_values.h"
#include "app/text/languages.h"
#include "core/model/generate.h"
#include "core/recipe.h"
#include "core/text_split.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>
#include <variant>

namespace attn::cli {

Result<uint64_t> parse_byte_size(const std::string& text) {
    std::istringstream in(text);
    double number = 0;
    std::string unit;
    if (!(in >> number) || !(number > 0))
        return Result<uint64_t>::failure(Message("error.options.size_not_positive", {{"text", text}}));
    in >> unit;
    if (std::string rest; in >> rest)
        return Result<uint64_t>::failure(Message("error.options.size_extra_text", {{"text", text}}));
    double scale = 1;
    if (unit.empty() || unit == "B") scale = 1;
    else if (unit == "K" || unit == "KiB" || unit == "KB") scale = 1024.0;
    else if (unit == "M" || unit == "MiB" || unit == "MB") scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "GiB" || unit == "GB") scale = 1024.0 * 1024 * 1024;
    else return Result<uint64_t>::failure(Message("error.options.size_unit", {{"text", text}}));
    const double bytes = number * scale;
    if (bytes < 1024) return Result<uint64_t>::failure(Message("error.options.size_too_small", {{"text", text}}));
    if (bytes >= 1.8e19) return Result<uint64_t>::failure(Message("error.options.size_too_large", {{"text", text}}));
    return static_cast<uint64_t>(std::llround(bytes));
}

namespace {

// The --help text of a field, from the English catalogue (the command line is English).
std::string help_of(const ConfigField& field) {
    return text::active().format(field.help_key, {{"recipes", recipe_names()}});
}

std::vector<std::string> choices_of(const ConfigField& field) {
    std::vector<std::string> choices;
    std::istringstream in(field.choices);
    for (std::string choice; std::getline(in, choice, ',');) choices.push_back(choice);
    return choices;
}

// Refuses what CLI11 would turn into another number for an unsigned option: "-1" wraps
// to 18446744073709551615 and "0x10" reads as 16. No description, so --help is unchanged.
CLI::Validator decimal_digits_only() {
    return CLI::Validator(
        [](const std::string& text) {
            if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) return std::string();
            return "'" + text + "' is not a whole number from 0 (decimal digits only)";
        },
        "");
}

// One row's option: numbers and flags straight into the configuration (CLI11 checks the
// number and the range), everything else as text for resolve_problem to parse.
CLI::Option* add_field_option(CLI::App& app, ConfigOptions& o, const ConfigField& field) {
    const std::string help = help_of(field);  // const: CLI11 would bind a mutable string as the flag's value
    std::string& text = o.texts[field_index(field)];
    return std::visit([&](auto member) -> CLI::Option* {
        using T = std::decay_t<decltype(o.config.*member)>;
        T& value = o.config.*member;
        if constexpr (std::is_same_v<T, bool>) {
            return field.has(kNegatedFlag) ? app.add_flag(field.option, help) : app.add_flag(field.option, value, help);
        } else if constexpr (std::is_arithmetic_v<T>) {
            if (field.has(kByteSize)) return app.add_option(field.option, text, help);
            CLI::Option* opt = app.add_option(field.option, value, help);
            if constexpr (std::is_unsigned_v<T>) opt->check(decimal_digits_only());  // CLI11 would wrap "-1"
            if (field.option_range.given())
                opt->check(CLI::Range(static_cast<T>(field.option_range.lo), static_cast<T>(field.option_range.hi)));
            if (field.has(kShowDefault) && !(field.has(kZeroIsAuto) && value == 0)) opt->capture_default_str();
            return opt;
        } else {
            if (field.has(kShowDefault)) text = format_field(field, o.config);
            CLI::Option* opt = app.add_option(field.option, text, help);
            if (*field.choices) opt->check(CLI::IsMember(choices_of(field)));
            if (field.has(kShowDefault)) opt->capture_default_str();
            return opt;
        }
    }, field.member);
}

// Adds the options of the rows from `next` up to the row named `until` ("": the last),
// so the other options keep their place in --help.
void add_field_options(CLI::App& app, ConfigOptions& o, size_t& next, const std::string& until) {
    const std::vector<ConfigField>& fields = config_fields();
    for (; next < fields.size() && until != fields[next].name; ++next) {
        const ConfigField& field = fields[next];
        const bool snapshot_scale = std::holds_alternative<ScaleChoice AttentionConfig::*>(field.member) && !o.score_scale;
        if (*field.option && !snapshot_scale) o.field_options[next] = add_field_option(app, o, field);
    }
}

}  // namespace

// --generate N and how each token is drawn (registered with the sizes, shown with --model).
static void add_generation_options(CLI::App& app, ConfigOptions& o) {
    app.add_option("--generate", o.generate, text::tr("cli.help.generate"));
    o.sampling_options = {
        app.add_option("--temperature", o.sampling.temperature, text::tr("cli.help.temperature"))->capture_default_str(),
        app.add_option("--top-k", o.sampling.top_k, text::tr("cli.help.top_k"))->capture_default_str(),
        app.add_option("--top-p", o.sampling.top_p, text::tr("cli.help.top_p"))->capture_default_str(),
        app.add_option("--sample-seed", o.sampling.seed, text::tr("cli.help.sample_seed"))->capture_default_str()};
}

Status check_generation_options(const ConfigOptions& o, const io::Problem& problem) {
    bool sampling_given = false;
    for (const CLI::Option* option : o.sampling_options) sampling_given = sampling_given || option->count() > 0;
    if (o.generate == 0 && !sampling_given) return ok_status();
    if (o.generate == 0) return Status::failure(Message("error.generate.sampling_without"));
    if (!problem.model) return Status::failure(Message("error.generate.needs_model"));
    const ModelSpec& spec = problem.model->spec;
    if (!spec.causal) return Status::failure(Message("error.generate.not_next_token", {{"model", spec.name}}));
    if (o.given("decode_from")) return Status::failure(Message("error.generate.with_decode_from"));
    if (Status s = check_sampling(o.sampling); !s) return s;
    return check_generation_length(spec, static_cast<int>(problem.model_tokens.ids.size()), o.generate);
}

bool ConfigOptions::given(const std::string& name) const {
    const CLI::Option* option = field_options[field_index(config_field(name))];
    return option != nullptr && option->count() > 0;
}

void use_catalogue_for_help(CLI::App& app) {
    const std::shared_ptr<CLI::Formatter> formatter = std::make_shared<CLI::Formatter>();
    formatter->label("Usage", text::tr("cli.help.usage"));
    formatter->label("OPTIONS", text::tr("cli.help.options_placeholder"));
    formatter->label("SUBCOMMAND", text::tr("cli.help.subcommand_placeholder"));
    formatter->label("SUBCOMMANDS", text::tr("cli.help.subcommand_placeholder"));
    formatter->label("REQUIRED", text::tr("cli.help.required"));
    formatter->label("Excludes", text::tr("cli.help.excludes"));
    formatter->label("Needs", text::tr("cli.help.needs"));
    app.formatter(formatter);
    app.option_defaults()->group(text::tr("cli.help.options"));
    app.set_help_flag("-h,--help", text::tr("cli.help.help"));
}

void add_config_options(CLI::App& app, ConfigOptions& o, bool score_scale) {
    o.score_scale = score_scale;
    o.texts.assign(config_fields().size(), "");
    o.field_options.assign(config_fields().size(), nullptr);
    const size_t options_before = app.get_options().size();
    size_t next = 0;
    add_field_options(app, o, next, "mask_fill");
    app.add_option("--mask-file", o.sources.mask_path, text::tr("cli.help.mask_file"));
    add_field_options(app, o, next, "recipe");
    o.sentence_option = app.add_option("--tokens,--sentence", o.sentence, text::tr("cli.help.sentence"));
    app.add_option("--weights", o.sources.weights_path, text::tr("cli.help.weights"));
    app.add_option("--query", o.sources.query_path, text::tr("cli.help.query"));
    app.add_option("--key", o.sources.key_path, text::tr("cli.help.key"));
    app.add_option("--value", o.sources.value_path, text::tr("cli.help.value"));
    app.add_option("--model", o.model, text::tr("cli.help.model"));
    o.layer_option = app.add_option("--layer", o.layer, text::tr("cli.help.layer"))->capture_default_str();
    add_generation_options(app, o);
    add_field_options(app, o, next, "");
    o.typed_value_options[0] = app.add_option("--query-values", o.query_values, text::tr("cli.help.query_values"));
    o.typed_value_options[1] = app.add_option("--key-values", o.key_values, text::tr("cli.help.key_values"));
    o.typed_value_options[2] = app.add_option("--value-values", o.value_values, text::tr("cli.help.value_values"));
    const std::vector<CLI::Option*> options = app.get_options();
    o.all_options.assign(options.begin() + static_cast<std::ptrdiff_t>(options_before), options.end());
}

static Result<std::vector<int>> parse_lengths(const std::string& text) {
    std::vector<int> lengths;
    std::istringstream in(text);
    if (!text.empty() && text.back() == ',') return Result<std::vector<int>>::failure(Message("error.options.lengths_comma", {{"text", text}}));
    for (std::string item; std::getline(in, item, ',');) {
        try {
            size_t used = 0;
            const int value = std::stoi(item, &used);
            if (used != item.size()) throw std::invalid_argument(item);
            lengths.push_back(value);
        } catch (const std::exception&) {
            return Result<std::vector<int>>::failure(Message("error.options.lengths_numbers", {{"text", text}}));
        }
    }
    return lengths;
}

// Reads one field's option text into the configuration; "" (not given) keeps its value.
static Status apply_option_text(const ConfigField& field, const std::string& text, AttentionConfig& c) {
    if (text.empty()) return ok_status();
    if (field.has(kByteSize)) {
        Result<uint64_t> bytes = parse_byte_size(text);
        if (!bytes) return Status::failure(bytes.message());
        return set_field_value(field, bytes.value(), c);
    }
    if (std::holds_alternative<std::vector<int> AttentionConfig::*>(field.member)) {
        Result<std::vector<int>> lengths = parse_lengths(text);
        if (!lengths) return Status::failure(lengths.message());
        return set_field_value(field, lengths.value(), c);
    }
    if (Status s = parse_field(field, text, c); !s) return Status::failure(Message("error.options.field", {{"option", field.long_option()}, {"why", s.message()}}));
    return ok_status();
}

// An option the files decide, given explicitly: its value must be what the files give. A
// flag's message says which parameter the weights file has or lacks
// (error.options.files_decide.<name>); a size's gives both numbers.
static Status check_files_agree(const ConfigField& field, const AttentionConfig& given, const AttentionConfig& got) {
    if (field_value(field, given) == field_value(field, got)) return ok_status();
    const std::string flag_key = std::string("error.options.files_decide.") + field.name;
    if (text::english().has_own(flag_key)) return Status::failure(Message(flag_key));
    return Status::failure(Message("error.options.files_decide", {{"option", field.long_option()},
                                                                  {"given", format_field(field, given)},
                                                                  {"actual", format_field(field, got)}}));
}

// With --model the model fixes sizes, weights, inputs and mask: options that would set
// them are refused by name rather than silently ignored.
static Result<io::Problem> resolve_model_problem(const ConfigOptions& o) {
    using R = Result<io::Problem>;
    for (const ConfigField& field : config_fields())
        if (field.has(kFilesDecide) && o.given(field.name)) {
            const bool flag = std::holds_alternative<bool AttentionConfig::*>(field.member);
            return R::failure(Message(flag ? "error.options.model_fixes" : "error.options.model_fixes_size",
                                      {{"option", field.long_option()}, {"model", o.model}}));
        }
    const std::pair<bool, const char*> refused[] = {
        {!o.sources.weights_path.empty(), "--weights"}, {!o.sources.query_path.empty(), "--query"},
        {!o.sources.key_path.empty(), "--key"},         {!o.sources.value_path.empty(), "--value"},
        {o.given("mask"), "--mask"},                    {!o.text("valid_lengths").empty(), "--valid-lengths"},
        {o.config.cross_attention, "--cross"},          {o.config.dropout != 0.0f, "--dropout"}};
    for (const auto& [given, flag] : refused)
        if (given) return R::failure(Message("error.options.model_fixes", {{"option", flag}, {"model", o.model}}));
    // With a model, '|' is not a batch separator: it is a word like any other (the sort
    // model's separator), looked up in the vocabulary.
    Result<std::shared_ptr<const Model>> model = io::load_model(o.model);
    if (!model) return R::failure(model.message());
    const bool sentence_given = o.sentence_option && o.sentence_option->count() > 0;
    R problem = io::build_model_problem(model.value(), o.layer, sentence_given ? o.sentence : model.value()->spec.example_for(text::active().code()));
    if (!problem) return problem;
    // What the model leaves to the options: the variant, the memory budget and where decoding starts.
    for (const char* name : {"variant", "max_memory_bytes"})
        if (Status s = apply_option_text(config_field(name), o.text(name), problem->config); !s) return R::failure(s.message());
    problem->config.decode_from = o.config.decode_from;  // every layer decodes from there (cmd_trace_generation.cpp)
    if (Status s = check_generation_options(o, problem.value()); !s) return R::failure(s.message());
    problem->generate = o.generate;
    problem->sampling = o.sampling;
    return problem;
}

static Result<io::Problem> resolve_without_recipe(ConfigOptions o) {
    using R = Result<io::Problem>;
    if (!o.model.empty()) return resolve_model_problem(o);
    if (o.layer_option && o.layer_option->count() > 0)
        return R::failure(Message("error.options.layer_needs_model"));
    AttentionConfig& c = o.config;
    for (const ConfigField& field : config_fields()) {
        if (Status s = apply_option_text(field, o.texts[field_index(field)], c); !s) return R::failure(s.message());
        if (field.has(kNegatedFlag) && o.given(field.name)) set_field_value(field, false, c);  // --no-bias
    }
    // Typed matrices: an option given with empty text is an error, not "not given".
    const struct { const std::string& text; const CLI::Option* option; const char* flag; Mat& target; } typed[] = {
        {o.query_values, o.typed_value_options[0], "--query-values", o.sources.query_values},
        {o.key_values, o.typed_value_options[1], "--key-values", o.sources.key_values},
        {o.value_values, o.typed_value_options[2], "--value-values", o.sources.value_values}};
    for (const auto& t : typed) {
        if (t.text.empty() && (t.option == nullptr || t.option->count() == 0)) continue;
        Result<Mat> values = io::parse_typed_matrix(t.text, t.flag);
        if (!values) return R::failure(values.message());
        t.target = std::move(values.value());
    }
    // Given but empty is refused below like blank text ("" has no words either).
    if (!o.sentence.empty() || (o.sentence_option && o.sentence_option->count() > 0)) {
        if (const std::optional<size_t> bad = first_invalid_utf8(o.sentence))
            return R::failure(Message("error.text.invalid_utf8", {{"byte", *bad}}));
        std::vector<std::vector<std::string>> sentences = io::split_sentences(o.sentence);
        for (size_t i = 0; i < sentences.size(); ++i) {
            if (!sentences[i].empty()) continue;
            if (sentences.size() == 1) return R::failure(Message("error.options.tokens_empty"));
            return R::failure(Message("error.options.sentence_empty", {{"number", i + 1}, {"count", sentences.size()}}));
        }
        if (sentences.size() == 1) {
            o.sources.tokens = sentences.front();
        } else {
            // Unequal sentences are padded; unless a mask was chosen, the padding mask hides the pads.
            bool unequal = false;
            for (const auto& words : sentences) unequal |= words.size() != sentences.front().size();
            const bool mask_given = o.given("mask");
            if (unequal && !mask_given) c.mask = MaskKind::Padding;
            o.sources.sentences = std::move(sentences);
        }
    }

    R problem = io::build_problem(c, o.sources);
    if (!problem) return problem;
    // Files decide sizes and which parameters exist; an explicit option that disagrees is
    // an error, not silently ignored.
    for (const ConfigField& field : config_fields())
        if (field.has(kFilesDecide) && o.given(field.name))
            if (Status agrees = check_files_agree(field, o.config, problem->config); !agrees) return R::failure(agrees.message());
    return problem;
}

}  // namespace attn::cli

namespace attn::cli {

Result<io::Problem> resolve_problem(ConfigOptions o) {
    using R = Result<io::Problem>;
    if (o.model.empty())  // --generate and its settings need a model before anything else is read
        if (Status s = check_generation_options(o, io::Problem{}); !s) return R::failure(s.message());
    const bool recipe_given = !o.text("recipe").empty() || o.given("recipe");
    if (!recipe_given) return resolve_without_recipe(std::move(o));
    const Recipe* recipe = find_recipe(o.text("recipe"));
    if (recipe == nullptr)
        return R::failure(Message("error.options.unknown_recipe", {{"name", o.text("recipe")}, {"recipes", recipe_names()}}));
    if (!o.model.empty()) return R::failure(Message("error.options.recipe_with_model"));
    // The recipe first, then every option that was given, parsed again on top of it.
    CLI::App replay;
    ConfigOptions merged;
    merged.config = recipe->config;  // the options' texts and defaults start from it
    add_config_options(replay, merged, o.score_scale);
    std::vector<std::string> args;
    for (const CLI::Option* opt : o.all_options) {
        if (opt == o.field_options[field_index(config_field("recipe"))] || opt->count() == 0) continue;
        const std::string name = opt->get_lnames().empty() ? "-" + opt->get_snames().front() : "--" + opt->get_lnames().front();
        if (opt->get_type_size() == 0) {  // a flag: given `count` times
            for (size_t i = 0; i < opt->count(); ++i) args.push_back(name);
            continue;
        }
        for (const std::string& value : opt->results()) args.push_back(name + "=" + value);
    }
    try {
        std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
        replay.parse(args);
    } catch (const CLI::ParseError& e) {
        return R::failure(Message("error.options.recipe_unreadable", {{"name", recipe->name}, {"detail", e.what()}}));
    }
    merged.text("recipe").clear();
    return resolve_without_recipe(std::move(merged));
}

std::vector<std::string> command_line_of(const AttentionConfig& config) {
    std::vector<std::string> args;
    for (const ConfigField& field : config_fields()) {
        if (!*field.option) continue;
        const std::string text = format_field(field, config);
        if (std::holds_alternative<bool AttentionConfig::*>(field.member)) {
            if ((text == "1") != field.has(kNegatedFlag)) args.push_back(field.long_option());
            continue;
        }
        if (text.empty() || (field.has(kZeroIsAuto) && text == "0")) continue;
        args.push_back(field.long_option() + "=" + text);
    }
    return args;
}

}  // namespace attn::cli
