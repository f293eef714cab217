#include "app/cli/cmd_snapshot.h"

#include <cstdio>

#include "app/gui/display/weight_lines.h"
#include "app/text/languages.h"

namespace attn::cli {

// --animate and its timing: one GIF or MP4 of the steps' animations instead of PNGs.
static void add_animation_options(CLI::App& sub, gui::AnimationOptions& a) {
    sub.add_option("--animate", a.format, text::tr("cli.help.snapshot.animate"))
        ->check(CLI::IsMember({"gif", "mp4"}));
    sub.add_option("--fps", a.fps, text::tr("cli.help.snapshot.fps"))->check(CLI::Range(1, 120));
    sub.add_option("--speed", a.speed, text::tr("cli.help.snapshot.speed"))->check(CLI::Range(0.1f, 8.0f))->capture_default_str();
}

CLI::App* add_snapshot_command(CLI::App& parent, SnapshotCommand& command) {
    CLI::App* sub = parent.add_subcommand("snapshot", text::tr("cli.help.cmd.snapshot"));
    add_config_options(*sub, command.config, /*score_scale=*/false);  // --scale is the resolution here
    gui::SnapshotOptions& o = command.options;
    sub->add_option("--out,-o", o.out_dir, text::tr("cli.help.snapshot.out"));  // required unless --handout
    sub->add_option("--step", o.step, text::tr("cli.help.snapshot.step"))->capture_default_str();
    sub->add_option("--progress", o.progress, text::tr("cli.help.snapshot.progress"))->check(CLI::Range(0.0f, 1.0f))->capture_default_str();
    sub->add_option("--size", command.size, text::tr("cli.help.snapshot.size"));
    sub->add_option("--scale", o.scale, text::tr("cli.help.snapshot.scale"))->check(CLI::IsMember({1, 2, 4}))->capture_default_str();
    sub->add_option("--theme", o.theme, text::tr("cli.help.snapshot.theme"))->check(CLI::IsMember({"dark", "light"}))->capture_default_str();
    sub->add_option("--view", o.view, text::tr("cli.help.snapshot.view"))->capture_default_str();
    sub->add_flag("--presentation", o.presentation, text::tr("cli.help.snapshot.presentation"));
    sub->add_option("--layout", o.layout, text::tr("cli.help.snapshot.layout"))
        ->check(CLI::IsMember({"slide", "canvas", "window"}))->capture_default_str();
    add_animation_options(*sub, o.animation);
    sub->add_flag("--overview", o.overview, text::tr("cli.help.snapshot.overview"));
    sub->add_option("--compare", o.compare, text::tr("cli.help.snapshot.compare"));
    sub->add_option("--contrast", o.contrast, text::tr("cli.help.snapshot.contrast"))->excludes("--compare");
    sub->add_option("--lesson", o.lesson, text::tr("cli.help.snapshot.lesson"));
    sub->add_option("--handout", o.handout, text::tr("cli.help.snapshot.handout"));
    sub->add_option("--decode-step", o.decode_step, text::tr("cli.help.snapshot.decode_step"))->check(CLI::Range(1, 1 << 20));
    return sub;
}

int run_snapshot_command(SnapshotCommand command) {
    if (!command.size.empty()) {
        int w = 0, h = 0;
        char tail = 0;
        if (std::sscanf(command.size.c_str(), "%dx%d%c", &w, &h, &tail) != 2 || w < 64 || h < 64 || w > 8192 || h > 8192)
            return fail("--size '" + command.size + "' must be WxH with each side in 64..8192, e.g. 1920x1080");
        command.options.width = w;
        command.options.height = h;
    }
    // Checked here so step and lesson pictures both refuse it.
    if (!gui::parse_weights_as(command.options.view)) return fail("--view '" + command.options.view + "' must be heatmap, lines or both");
    const bool comparing = !command.options.compare.empty() || !command.options.contrast.empty();
    if (command.options.overview && (!command.options.lesson.empty() || !command.options.animation.format.empty() || comparing))
        return fail("--overview draws one picture of a configuration; it cannot be combined with --lesson, --animate or --compare");
    if (!command.options.handout.empty() && command.options.lesson.empty()) return fail("--handout needs --lesson FILE: a handout is a lesson's");
    if (command.options.handout.empty() && command.options.out_dir.empty()) return fail("--out is required");
    if (!command.options.lesson.empty()) {
        // The slides say what to compute and which step to show.
        for (const CLI::Option* option : command.config.all_options)
            if (option->count() > 0) return fail(option->get_name() + " cannot be combined with --lesson: each slide gives its configuration");
        if (command.options.step != "all") return fail("--step cannot be combined with --lesson: each slide gives its step");
        if (command.options.decode_step > 0) return fail(Message("error.decode.step_with_lesson"));
        if (comparing) return fail("--compare and --contrast cannot be combined with --lesson: each slide gives its configuration");
        // One animation of every slide's step, each slide's end held (issue 20).
        if (!command.options.handout.empty()) {
            if (!command.options.animation.format.empty() || !command.options.out_dir.empty())
                return fail("--handout writes one PDF; it cannot be combined with --animate or --out");
            return gui::run_lesson_handout(command.options);
        }
        if (!command.options.animation.format.empty()) return gui::run_lesson_animation(command.options);
        return gui::run_lesson_snapshot(command.options);
    }
    Result<io::Problem> problem = resolve_problem(command.config);
    if (!problem) return fail(problem.message());
    if (command.options.decode_step > 0) {  // a step of the generation --decode-from (or --generate) makes
        const AttentionConfig& c = problem->config;
        const bool generating = problem->model && problem->generate > 0;
        if (c.decode_from == 0 && !generating) return fail(Message("error.decode.step_needs_from"));
        const int last = generating ? problem->generate : c.L() - c.decode_from;
        if (command.options.decode_step > last)
            return fail(Message("error.decode.step_range", {{"step", command.options.decode_step}, {"last", last}}));
    }
    if (!command.options.animation.format.empty()) {
        if (comparing) return fail("--compare and --contrast cannot be combined with --animate; draw PNGs of A | B | A - B instead");
        return gui::run_animation_snapshot(problem.value(), command.options);
    }
    return gui::run_snapshot(problem.value(), command.options);
}

}  // namespace attn::cli
