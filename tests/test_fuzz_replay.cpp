// Replays every fuzz seed and every input that once crashed a fuzz harness
// (tests/fuzz/corpus/<harness>/ and tests/fuzz/regressions/<harness>/) through the
// harness's own entry function, so the normal suite catches a regression without
// clang or libFuzzer. A broken invariant traps and fails the run.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fuzz/fuzz_entries.h"

namespace fs = std::filesystem;

namespace {

using Entry = int (*)(const uint8_t*, size_t);

// Feeds each file under tests/fuzz/<kind>/<harness>/ to `entry`; returns how many.
int replay_folder(const std::string& kind, const std::string& harness, Entry entry) {
    const fs::path dir = fs::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fuzz" / kind / harness;
    if (!fs::is_directory(dir)) return 0;
    int count = 0;
    for (const fs::directory_entry& file : fs::directory_iterator(dir)) {
        if (!file.is_regular_file() || file.path().filename() == "README") continue;
        std::ifstream in(file.path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        const std::string data = bytes.str();
        CAPTURE(file.path().string());
        CHECK(entry(reinterpret_cast<const uint8_t*>(data.data()), data.size()) == 0);
        ++count;
    }
    return count;
}

void replay(const std::string& harness, Entry entry) {
    CAPTURE(harness);
    CHECK(replay_folder("corpus", harness, entry) >= 3);  // the seeds are committed
    replay_folder("regressions", harness, entry);
}

}  // namespace

TEST_CASE("fuzz seeds and regressions replay cleanly: npy reader") { replay("npy", attn::fuzz::npy_entry); }
TEST_CASE("fuzz seeds and regressions replay cleanly: safetensors and weight names") {
    replay("safetensors", attn::fuzz::safetensors_entry);
}
TEST_CASE("fuzz seeds and regressions replay cleanly: command-line configuration") {
    replay("cli_config", attn::fuzz::cli_config_entry);
}
TEST_CASE("fuzz seeds and regressions replay cleanly: lesson files") { replay("lesson", attn::fuzz::lesson_entry); }
#ifdef ATTNVIZ_FUZZ_SETTINGS
TEST_CASE("fuzz seeds and regressions replay cleanly: settings file") { replay("settings", attn::fuzz::settings_entry); }
#endif
