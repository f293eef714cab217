// `attnviz trace --compare "OPTIONS"`: A (the command line's setup), B (OPTIONS on top of
// it) and A − B, each written as a trace folder, so the contrast the window shows can be
// checked with numpy: DIR/a, DIR/b and DIR/a_minus_b (only the steps both record with
// one shape; the others are named on stderr).
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "app/cli/commands.h"
#include "app/options/compare_options.h"
#include "core/trace_difference.h"
#include "app/io/model_problem.h"
#include "app/io/trace_writer.h"
#include "app/text/languages.h"

namespace attn::cli {
namespace {

// The difference with only the steps it really has (a trace folder holds real tensors only).
Trace comparable_steps(const TraceDifference& d) {
    Trace out = *d.trace;
    out.steps.clear();
    for (size_t i = 0; i < d.trace->steps.size(); ++i)
        if (d.comparable[i] == Comparable::Yes) out.steps.push_back(d.trace->steps[i]);
    return out;
}

}  // namespace

int run_trace_compare(const TraceCommand& command, const io::Problem& a_problem) {
    // A's setup as the command line gave it: B's options go on top (compare_options.h).
    Result<io::Problem> b_problem = compared_problem(setup_of(a_problem, command.config.model, command.config.sentence), command.compare);
    if (!b_problem) return fail(b_problem.message());
    Result<Trace> a = io::compute_trace(a_problem);
    if (!a) return fail(a.message());
    Result<Trace> b = io::compute_trace(b_problem.value());
    if (!b) return fail("B: " + text::render(b.message()));
    const TraceDifference difference = subtract_traces(a.value(), b.value());
    std::error_code ec;
    std::filesystem::create_directories(command.out_dir, ec);
    if (ec) return fail("cannot create the folder " + command.out_dir + ": " + ec.message());
    const std::string dir = command.out_dir;
    if (Status s = io::write_trace_dir(a.value(), dir + "/a", nullptr, text::active()); !s) return fail(s.message());
    if (Status s = io::write_trace_dir(b.value(), dir + "/b", nullptr, text::active()); !s) return fail(s.message());
    const Trace written = comparable_steps(difference);
    if (Status s = io::write_trace_dir(written, dir + "/a_minus_b", nullptr, text::active()); !s) return fail(s.message());
    for (size_t i = 0; i < difference.comparable.size(); ++i)
        if (difference.comparable[i] != Comparable::Yes)
            std::fprintf(stderr, "attnviz: note: %s\n", text::render(why_not_comparable(a.value(), b.value(), difference, static_cast<int>(i))).c_str());
    std::printf("wrote A (%zu steps), B (%zu steps) and A - B (%zu steps) to %s\n", a->steps.size(), b->steps.size(),
                written.steps.size(), dir.c_str());
    return 0;
}

}  // namespace attn::cli
