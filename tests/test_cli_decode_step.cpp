// `attnviz snapshot --decode-step K` draws decode step K of the generation --decode-from P
// makes; without --decode-from, past the last step or with --lesson it is refused with one
// line on stderr and exit code 2, before anything is drawn.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/shell_run.h"

namespace fs = std::filesystem;

#ifdef ATTNVIZ_HAS_WINDOW  // `snapshot` exists only in builds with the window
namespace {

attn::testing::ShellRun snapshot(const std::string& args, const fs::path& out) {
    return attn::testing::run_shell(std::string(ATTNVIZ_BINARY) + " snapshot " + args + " --out " + out.string(), "attnviz_decode_step_test");
}

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

}  // namespace

TEST_CASE("snapshot --decode-step is refused without --decode-from or --generate, past the last step and with --lesson") {
    const fs::path out = attn::testing::scratch_dir("attnviz_decode_step_test", "refused");
    struct Case {
        const char* args;
        const char* says;
    };
    for (const Case& c : {Case{"-L 6 --mask causal --decode-step 2", "--decode-step needs a generation, --decode-from P or --generate N"},
                          Case{"-L 6 --mask causal --decode-from 3 --decode-step 4", "--decode-step 4 must be between 1 and 3"},
                          Case{"--model tiny-lm --generate 3 --decode-step 4", "--decode-step 4 must be between 1 and 3"},
                          Case{"--lesson lesson.json --decode-step 1", "--decode-step cannot be combined with --lesson"}}) {
        CAPTURE(c.args);
        const attn::testing::ShellRun r = snapshot(c.args, out);
        CHECK(r.exit_code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find(c.says) != std::string::npos);
        CHECK_FALSE(fs::exists(out / "01_input.png"));
    }
}
#endif
