// What a slide computes: its setup becomes the command line's arguments and goes through
// the command line's own parser and resolve_problem, so a slide accepts exactly the
// options `attnviz` does, with the same checks and messages.
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <type_traits>

#include "app/options/config_options.h"
#include "app/io/file_util.h"
#include "app/io/model_loader.h"
#include "app/io/model_problem.h"
#include "core/config_fields.h"
#include "core/model/generate.h"
#include "core/recipe.h"

namespace attn::lesson {
namespace {

// The slide's own fields that are options on the command line: written as fields, not options.
const std::vector<std::pair<std::string, std::string>> kFieldOptions = {
    {"--model", "model"}, {"--recipe", "recipe"}, {"--tokens", "sentence"}, {"--sentence", "sentence"}, {"--layer", "layer"}};

// Options whose value is a file: relative to the lesson's folder.
const std::set<std::string> kPathOptions = {"weights", "query", "key", "value", "mask-file"};

// Every long option name add_config_options registers, without "--".
const std::set<std::string>& configuration_option_names() {
    static const std::set<std::string> names = [] {
        CLI::App app;
        cli::ConfigOptions options;
        cli::add_config_options(app, options);
        std::set<std::string> all;
        for (const CLI::Option* option : options.all_options)
            for (const std::string& name : option->get_lnames()) all.insert(name);
        return all;
    }();
    return names;
}

std::string in_folder(const std::string& path, const std::string& base_dir) {
    if (base_dir.empty() || path.empty() || std::filesystem::path(path).is_absolute()) return path;
    return (std::filesystem::path(base_dir) / path).string();
}

bool is_card_path(const std::string& model) {
    return model.find('/') != std::string::npos || (model.size() > 5 && model.compare(model.size() - 5, 5, ".json") == 0);
}

// The slide field a command-line message is about: the first of the slide's own options it
// names, else the options.
std::string field_named_in(const Message& message) {
    const std::string text = english(message);
    size_t first = std::string::npos;
    std::string field = "options";
    for (const auto& [option, name] : kFieldOptions)
        if (const size_t at = text.find(option); at < first) {
            first = at;
            field = name;
        }
    return field;
}

// Why the command line's parser refuses `value` for the option `name`, in the catalogue's
// words: the field table knows the option's type, range and choices.
Message option_refusal(const std::string& name, const OptionValue& value) {
    for (const ConfigField& field : config_fields()) {
        if (field.long_option() != "--" + name) continue;
        if (*field.choices) return Message("lesson.why.unknown_choice", {{"name", value.text}, {"names", std::string(field.choices)}});
        const char* expected = std::visit([](auto member) -> const char* {
            using T = std::decay_t<decltype(AttentionConfig{}.*member)>;
            if constexpr (std::is_same_v<T, bool>) return "lesson.type.flag";
            else if constexpr (std::is_integral_v<T>) return "lesson.type.whole";
            else if constexpr (std::is_floating_point_v<T>) return "lesson.type.number";
            return nullptr;  // a text: refused only by its choices
        }, field.member);
        if (!expected) break;
        char* end = nullptr;
        const double number = std::strtod(value.text.c_str(), &end);
        const bool whole = std::string(expected) == "lesson.type.whole";
        const bool read = std::string(expected) != "lesson.type.flag" && !value.text.empty() && *end == '\0' &&
                          (!whole || number == std::floor(number));
        if (!read || !field.option_range.given()) return Message("lesson.why.type", {{"expected", Message(expected)}});
        return Message("lesson.why.range", {{"value", value.text}, {"lo", number_text(field.option_range.lo)}, {"hi", number_text(field.option_range.hi)}});
    }
    return Message("lesson.why.option_value", {{"name", name}, {"value", value.text}});
}

// The first of the slide's options the parser refuses on its own, and why (the option's
// name is the field the message names).
std::pair<std::string, Message> refused_option(const SlideSetup& setup) {
    for (const auto& [name, value] : setup.options) {
        SlideSetup alone;
        alone.options = {{name, value}};
        CLI::App app;
        cli::ConfigOptions options;
        cli::add_config_options(app, options);
        std::vector<std::string> args = setup_arguments(alone);
        try {
            app.parse(args);
        } catch (const CLI::ParseError&) {
            return {name, option_refusal(name, value)};
        }
    }
    return {"options", Message("lesson.why.options_together")};  // each alone is taken
}

// The model or recipe the slide names exists (checked first, so the message names the field).
Status check_names(const Slide& slide, const std::string& base_dir) {
    const SlideSetup& s = slide.setup;
    if (!s.model.empty())
        if (auto model = io::load_model(in_folder(s.model, is_card_path(s.model) ? base_dir : "")); !model)
            return Status::failure(slide_error(slide.number, "model", model.message()));
    if (!s.recipe.empty() && !find_recipe(s.recipe))
        return Status::failure(slide_error(slide.number, "recipe",
                                           Message("recipe.unknown", {{"name", s.recipe}, {"names", recipe_names()}})));
    return ok_status();
}

Status check_head_and_item(const Slide& slide, const io::Problem& problem) {
    const int heads = problem.config.H(), items = problem.config.batch;
    if (slide.view.head >= heads)
        return Status::failure(slide_error(slide.number, "head", Message("lesson.why.no_head", {{"head", slide.view.head}, {"heads", heads}})));
    if (slide.view.batch_item >= items)
        return Status::failure(
            slide_error(slide.number, "batch_item", Message("lesson.why.no_item", {{"item", slide.view.batch_item}, {"items", items}})));
    return ok_status();
}

// The slide a problem names (its "slide" value), 0 for the lesson's own fields.
int slide_of(const Message& problem) {
    for (const MessageArg& arg : problem.args)
        if (arg.name == "slide") return std::atoi(arg.text.c_str());
    return 0;
}

#if defined(__cpp_lib_to_chars)
// The shortest text that reads back as `value` (std::to_chars, plain format).
template <typename T>
std::string shortest_text(T value) {
    char buffer[64];
    return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}
#else
// The same without floating-point std::to_chars (LLVM 14's libc++, the browser build's):
// the fewest significant digits that read back as `value`, written %f-style or %e-style,
// whichever is shorter (a tie: %f), as std::to_chars's plain format does.
template <typename T>
std::string shortest_text(T value) {
    constexpr int kMaxDigits = std::numeric_limits<T>::max_digits10;
    char exp_form[64], fixed_form[400];
    for (int digits = 1;; ++digits) {
        std::snprintf(exp_form, sizeof exp_form, "%.*e", digits - 1, static_cast<double>(value));
        if (static_cast<T>(std::strtod(exp_form, nullptr)) != value && digits < kMaxDigits) continue;
        const char* e = std::strchr(exp_form, 'e');
        if (!e) return exp_form;  // inf, nan
        const int exponent = std::atoi(e + 1);
        std::snprintf(fixed_form, sizeof fixed_form, "%.*f", std::max(0, digits - 1 - exponent), static_cast<double>(value));
        return std::strlen(fixed_form) <= std::strlen(exp_form) ? fixed_form : exp_form;
    }
}
#endif

}  // namespace

std::string number_text(double value) {
    const float f = static_cast<float>(value);
    return static_cast<double>(f) == value ? shortest_text(f) : shortest_text(value);
}

std::optional<Message> check_option_name(const std::string& name) {
    for (const auto& [option, field] : kFieldOptions)
        if (option == "--" + name) return Message("lesson.why.option_is_field", {{"name", name}, {"field", field}});
    if (configuration_option_names().count(name) == 0) return Message("lesson.why.unknown_option", {{"name", name}});
    return std::nullopt;
}

std::vector<std::string> setup_arguments(const SlideSetup& setup) {
    std::vector<std::string> args;
    if (!setup.model.empty()) args.push_back("--model=" + setup.model);
    if (!setup.recipe.empty()) args.push_back("--recipe=" + setup.recipe);
    if (setup.sentence) args.push_back("--tokens=" + *setup.sentence);
    if (setup.layer) args.push_back("--layer=" + std::to_string(*setup.layer));
    if (setup.generate > 0) {  // the sampling options as --generate reads them
        args.push_back("--generate=" + std::to_string(setup.generate));
        args.push_back("--temperature=" + number_text(setup.sampling.temperature));
        args.push_back("--top-k=" + std::to_string(setup.sampling.top_k));
        args.push_back("--top-p=" + number_text(setup.sampling.top_p));
        args.push_back("--sample-seed=" + std::to_string(setup.sampling.seed));
    }
    for (const auto& [name, value] : setup.options) {
        if (value.kind != OptionValue::Kind::Flag) args.push_back("--" + name + "=" + value.text);
        else if (value.text == "true") args.push_back("--" + name);
    }
    return args;
}

std::map<std::string, OptionValue> options_from(const AttentionConfig& config, const AttentionConfig& base) {
    std::map<std::string, OptionValue> options;
    for (const ConfigField& field : config_fields()) {
        const std::string text = format_field(field, config);
        if (!*field.option || std::string(field.name) == "recipe" || text == format_field(field, base)) continue;
        const std::string name = field.long_option().substr(2);
        std::visit([&](auto member) {
            using T = std::decay_t<decltype(config.*member)>;
            if constexpr (std::is_same_v<T, bool>) {
                // A flag turns its field one way only; the other way has no option to write.
                if ((text == "1") != field.has(kNegatedFlag)) options[name] = {OptionValue::Kind::Flag, "true"};
            } else if constexpr (std::is_arithmetic_v<T>) {
                options[name] = {field.has(kByteSize) ? OptionValue::Kind::Text : OptionValue::Kind::Number, text};
            } else {
                options[name] = {OptionValue::Kind::Text, text};
            }
        }, field.member);
    }
    return options;
}

Result<io::Problem> slide_problem(const Slide& slide, const std::string& base_dir) {
    using R = Result<io::Problem>;
    if (Status names = check_names(slide, base_dir); !names) return R::failure(names.message());
    SlideSetup setup = slide.setup;
    if (is_card_path(setup.model)) setup.model = in_folder(setup.model, base_dir);
    for (auto& [name, value] : setup.options)
        if (kPathOptions.count(name)) value.text = in_folder(value.text, base_dir);
    CLI::App app;
    cli::ConfigOptions options;
    cli::add_config_options(app, options);
    std::vector<std::string> args = setup_arguments(setup);
    std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
    try {
        app.parse(args);
    } catch (const CLI::ParseError&) {
        // CLI11's own message is English: say which option refused what, from the catalogue.
        const auto [name, why] = refused_option(setup);
        return R::failure(slide_error(slide.number, name, why));
    }
    R problem = cli::resolve_problem(options);
    if (!problem) return R::failure(slide_error(slide.number, field_named_in(problem.message()), problem.message()));
    if (Status fits = check_head_and_item(slide, problem.value()); !fits) return R::failure(fits.message());
    return problem;
}

Status check_slide_step(const Slide& slide, const std::vector<StepId>& recorded) {
    std::vector<std::string> names;
    for (StepId id : recorded) names.push_back(step_name(id));
    auto check = [&](const char* field, StepId id) {
        if (std::find(recorded.begin(), recorded.end(), id) != recorded.end()) return ok_status();
        return Status::failure(slide_error(slide.number, field,
                                           Message("lesson.why.step_not_recorded", {{"name", step_name(id)}, {"steps", quoted_list(names)}})));
    };
    const SlideView& v = slide.view;
    if (v.step)
        if (Status s = check("step", *v.step); !s) return s;
    for (const auto& [field, cell] : {std::pair{"pinned", v.pinned}, std::pair{"followed", v.followed}})
        if (cell)
            if (Status s = check(field, cell->step); !s) return s;
    for (const CellAnchor& cell : v.highlighted)
        if (Status s = check("highlighted", cell.step); !s) return s;
    for (const Annotation& a : v.annotations)
        if (Status s = check("annotations", a.cell.step); !s) return s;
    return ok_status();
}

// "decode_step": only with the option decode-from P (at most L - P) or with "generate" N
// (at most N).
static Status check_decode_step(const Slide& slide, const io::Problem& problem) {
    const int step = slide.view.decode_step;
    if (step == 0) return ok_status();
    const AttentionConfig& config = problem.config;
    const bool generating = problem.model && problem.generate > 0;
    if (config.decode_from == 0 && !generating)
        return Status::failure(slide_error(slide.number, "decode_step", Message("lesson.why.decode_step_needs_from")));
    const int last = generating ? problem.generate : config.L() - config.decode_from;
    if (step > last) return Status::failure(slide_error(slide.number, "decode_step", Message("lesson.why.decode_step_range", {{"last", last}})));
    return ok_status();
}

// The trace whose steps a slide may name: the prefill's with decode-from or a model's
// generation (it records the cache steps every decode step records too), else the whole pass's.
static Result<Trace> recorded_trace(const io::Problem& problem) {
    if (problem.model && problem.generate > 0) {
        Result<GenerationRun> run = generate(*problem.model, problem.model_tokens.ids, problem.generate, problem.sampling);
        if (!run) return Result<Trace>::failure(run.message());
        return trace_generation_step(*problem.model, run.value(), 0, problem.model_layer);
    }
    if (problem.config.decode_from == 0 || problem.model) return io::compute_trace(problem);
    KvCache cache;
    return run_attention_block(problem.config, problem.weights, problem.inputs, cache, QueryBlock{0, problem.config.decode_from});
}

Result<OpenedLesson> open_lesson(const std::string& path) {
    Result<std::string> bytes = io::read_file_bytes(path, kMaxLessonBytes);
    if (!bytes) return Result<OpenedLesson>::failure(bytes.message());
    const std::filesystem::path file(path);
    Result<LessonRead> read = read_lesson(bytes.value(), file.filename().string());
    if (!read) return Result<OpenedLesson>::failure(read.message());
    OpenedLesson opened;
    opened.lesson = std::move(read->lesson);
    opened.problems = std::move(read->problems);
    for (const Slide& slide : opened.lesson.slides) {
        Result<io::Problem> problem = slide_problem(slide, file.parent_path().string());
        if (!problem) {
            opened.problems.push_back(problem.message());
            continue;
        }
        if (Status s = check_decode_step(slide, problem.value()); !s) {
            opened.problems.push_back(s.message());
            continue;
        }
        // The trace says which steps this configuration records (a model adds its own; a
        // generation's prefill adds the cache).
        Result<Trace> trace = recorded_trace(problem.value());
        if (!trace) {
            opened.problems.push_back(slide_error(slide.number, "options", trace.message()));
            continue;
        }
        std::vector<StepId> recorded;
        for (const Step& step : trace->steps) recorded.push_back(step.id);
        if (Status s = check_slide_step(slide, recorded); !s) {
            opened.problems.push_back(s.message());
            continue;
        }
        opened.slides.push_back({slide, std::move(problem.value())});
    }
    // The reader's problems and the resolver's, in the order of the slides they name.
    std::stable_sort(opened.problems.begin(), opened.problems.end(),
                     [](const Message& a, const Message& b) { return slide_of(a) < slide_of(b); });
    return opened;
}

}  // namespace attn::lesson
