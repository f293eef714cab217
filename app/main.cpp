// attnviz: the window when run without a subcommand, else one of
//   trace     write every step of a forward as .npy + manifest.json
//   export-torch  a runnable PyTorch script, weights, inputs and trace in one folder
//   bench     time the forward (or, with --render, the frames)
//   snapshot  draw steps to PNG files without interaction
//   models    list the trained example models
//   recipes   list the articles' systems --recipe NAME starts from
// Every error is one line on stderr and exit code 2; nothing escapes main.
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include "app/cli/commands.h"
#include "app/io/data_dir.h"
#include "app/text/language_tag.h"
#include "app/text/languages.h"
#ifdef ATTNVIZ_HAVE_GUI
#include "app/cli/cmd_snapshot.h"
#include "app/gui/window/entry.h"
#include "app/io/model_loader.h"
#endif

namespace {
#ifdef ATTNVIZ_HAVE_GUI
// What a first start of the window shows: the trained language model on its card's sentence.
constexpr const char* kDefaultModel = "tiny-lm";
// ... and in Chinese (either script), the character-level model on its card's sentence in that script.
constexpr const char* kDefaultChineseModel = "tiny-lm-zh";
#endif
}

// Options other than --lang, --screen and --presentation say what the window shows.
static bool is_window_option(const CLI::Option* opt) {
    const std::string name = opt->get_name();
    return opt->count() > 0 && name != "--help" && name != "--lang" && name != "--screen" && name != "--presentation";
}

#ifdef ATTNVIZ_HAVE_GUI
// The window: on a lesson, on the options given, or (none given) on the saved lesson or
// the default model.
static int open_window(const CLI::App& app, attn::cli::ConfigOptions& window, const std::string& lesson,
                       const attn::gui::WindowStart& start) {
    using namespace attn::cli;
    if (!lesson.empty()) {
        for (const CLI::Option* opt : window.all_options)
            if (opt->count() > 0) return fail(attn::text::active().format("cli.option_with_lesson", {{"option", opt->get_name()}}));
        return attn::gui::run_lesson_window(lesson, start);
    }
    // Without any option the window resumes the saved lesson (configuration, sentence, step);
    // with none saved it starts on the trained language model and its card's sentence.
    // Any option starts from the documented defaults plus that option, exactly as `trace`
    // with the same options would (nothing of the saved lesson comes back).
    bool configured = false;
    for (const CLI::Option* opt : app.get_options())
        if (is_window_option(opt)) configured = true;
    if (!configured) {
        const std::string shown = attn::gui::starting_language(start.language);
        window.model = shown.rfind("zh", 0) == 0 ? kDefaultChineseModel : kDefaultModel;
        if (auto model = attn::io::load_model(window.model)) window.sentence = model.value()->spec.example_for(shown);
    }
    attn::Result<attn::io::Problem> problem = resolve_problem(window);
    if (!problem) return fail(problem.message());
    return attn::gui::run_window(problem.value(), !configured, start);
}
#endif

// "attnviz 0.1.0" and, for a teacher looking for the lessons, where the data is.
static void add_version_flag(CLI::App& app) {
    app.set_version_flag("--version", std::function<std::string()>([] {
        const std::string data = attn::io::data_dir();
        return std::string("attnviz ") + ATTNVIZ_VERSION +
               (data.empty() ? "" : "\n" + attn::text::english().format("cli.version_data", {{"path", data}}));
    }), attn::text::tr("cli.help.version"));
}

// --lang is the one option every command and the window take: the language of the
// window, of error lines and of the prose a command writes (manifest titles, images).
static void add_lang_options(CLI::App& app, std::string& lang) {
    const char* lang_help = attn::text::tr("cli.help.lang");
    app.add_option("--lang", lang, lang_help);
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
        sub->add_option("--lang", lang, lang_help);
        sub->group(attn::text::tr("cli.help.subcommands"));
    }
}

static int run(int argc, char** argv) {
    using namespace attn::cli;
    // --help speaks the language asked for: every text below is taken from the catalogue
    // in use when it is added, so the language is set before the options exist.
    if (const std::string help_language = attn::text::language_for_help(argc, argv); !help_language.empty())
        attn::text::set_language(help_language);
    CLI::App app{attn::text::tr("cli.help.description")};
    use_catalogue_for_help(app);
    app.require_subcommand(0, 1);
    add_version_flag(app);
    ConfigOptions window;
    add_config_options(app, window);
    TraceCommand trace;
    CLI::App* trace_cmd = add_trace_command(app, trace);
    ExportTorchCommand export_torch;
    CLI::App* export_torch_cmd = add_export_torch_command(app, export_torch);
    BenchCommand bench;
    CLI::App* bench_cmd = add_bench_command(app, bench);
    ModelsCommand models;
    CLI::App* models_cmd = add_models_command(app, models);
    RecipesCommand recipes;
    CLI::App* recipes_cmd = add_recipes_command(app, recipes);
#ifdef ATTNVIZ_HAVE_GUI
    SnapshotCommand snapshot;
    CLI::App* snapshot_cmd = add_snapshot_command(app, snapshot);
#endif
    std::string lang;
    add_lang_options(app, lang);
#ifdef ATTNVIZ_HAVE_GUI
    std::string lesson;
    app.add_option("--lesson", lesson, attn::text::tr("cli.help.lesson"));
    attn::gui::WindowStart start;
    app.add_option("--screen", start.screen, attn::text::tr("cli.help.screen"))->check(CLI::Range(1, 64));
    app.add_flag("--presentation", start.presentation, attn::text::tr("cli.help.window_presentation"));
#endif
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return fail(std::string(e.what()) + " (see attnviz --help)");
    }

    const std::string language = lang.empty() ? "" : attn::text::language_for_option(lang);
    if (!lang.empty() && language.empty())
        return fail(attn::text::english().format("cli.lang_unknown", {{"value", lang}}));
    if (!language.empty()) attn::text::set_language(language);
#ifdef ATTNVIZ_HAVE_GUI
    start.language = language;
#endif
    // Options written before a subcommand belong to the window and would be ignored.
    if (!app.get_subcommands().empty())
        for (const CLI::Option* opt : app.get_options())
            if (is_window_option(opt))
                return fail(opt->get_name() + " comes before the subcommand; put it after '" +
                            app.get_subcommands().front()->get_name() + "'");
    if (trace_cmd->parsed()) return run_trace(trace);
    if (export_torch_cmd->parsed()) return run_export_torch(export_torch);
    if (bench_cmd->parsed()) return run_bench(bench);
    if (models_cmd->parsed()) return run_models(models);
    if (recipes_cmd->parsed()) return run_recipes(recipes);
#ifdef ATTNVIZ_HAVE_GUI
    if (snapshot_cmd->parsed()) return run_snapshot_command(snapshot);
    return open_window(app, window, lesson, start);
#else
    return fail("this build has no GUI (configured with ATTNVIZ_BUILD_GUI=OFF); use a subcommand, see attnviz --help");
#endif
}

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "attnviz: error: %s\n", e.what());
        return 2;
    } catch (...) {
        std::fprintf(stderr, "attnviz: error: unexpected failure\n");
        return 2;
    }
}
