// settings.ini and imgui.ini on disk: corrupt, unreadable or odd files give defaults
// and a one-line message; saving replaces the file atomically.
#include <doctest/doctest.h>

#include <imgui.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "app/gui/imgui_ini.h"
#include "app/gui/settings.h"

using namespace attn::gui;
namespace fs = std::filesystem;

namespace {

// Points XDG_CONFIG_HOME at a fresh folder for one test and restores it afterwards.
struct ScratchConfig {
    fs::path root = fs::temp_directory_path() / ("attnviz_settings_test_" + std::to_string(::getpid()));
    std::string saved;
    bool had = false;
    ScratchConfig() {
        fs::remove_all(root);
        fs::create_directories(root / "attnviz");
        if (const char* v = std::getenv("XDG_CONFIG_HOME")) { had = true; saved = v; }
        setenv("XDG_CONFIG_HOME", root.c_str(), 1);
    }
    ~ScratchConfig() {
        if (had) setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
        else unsetenv("XDG_CONFIG_HOME");
        fs::remove_all(root);
    }
    fs::path file(const std::string& name) const { return root / "attnviz" / name; }
};

void write(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

}  // namespace

TEST_CASE("corrupt settings lines keep their defaults and are reported in one line") {
    const UiSettings defaults;
    struct Case { const char* why; std::string text; };
    const Case cases[] = {
        {"binary garbage", std::string("\x00\x01\xff\xfe=\x7f\x00", 7) + "\nui_scale=\x00\x02"},
        {"huge numbers", "window_width = 99999999999999999999999\nspeed = 1e999"},
        {"NaN and infinity", "ui_scale = nan\nexplain_fraction = NaN\ndropout = inf\nspeed = -inf"},
        {"trailing garbage after a number", "seq_len = 3abc\nhidden_dim = 1e5"},
        {"missing '='", "ui_scale 1.5"},
        {"a control byte in the sentence", std::string("sentence = a\x01") + "b"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.why);
        std::string problem;
        const UiSettings s = parse_settings(c.text, &problem);
        CHECK(s.ui_scale == defaults.ui_scale);
        CHECK(s.speed == defaults.speed);
        CHECK(s.window_width == defaults.window_width);
        CHECK(s.explain_fraction == defaults.explain_fraction);
        CHECK(s.dropout == defaults.dropout);
        CHECK(s.seq_len == defaults.seq_len);
        CHECK(s.hidden_dim == defaults.hidden_dim);
        CHECK(s.sentence == defaults.sentence);
        CHECK_MESSAGE(problem.find("settings.ini:") == 0, problem);
        CHECK(problem.find('\n') == std::string::npos);
        for (char ch : problem) CHECK((ch >= 32 && ch < 127));  // the status line shows it as is
    }
}

TEST_CASE("negative and out-of-range sizes are clamped, not taken") {
    std::string problem;
    const UiSettings s = parse_settings("window_width = -5\nwindow_height = -100000\nleft_panel_em = -3\n"
                                        "num_heads = 0\nbatch = -1\nseq_len = 99999\n", &problem);
    CHECK(s.window_width == 320);
    CHECK(s.window_height == 240);
    CHECK(s.left_panel_em == 10.0f);
    CHECK(s.num_heads == 1);
    CHECK(s.batch == 1);
    CHECK(s.seq_len == 1024);
    CHECK(problem.empty());  // numbers, just out of range: clamped quietly
}

TEST_CASE("an overlong line is read without trouble and the sentence is capped") {
    std::string problem;
    const std::string text = "sentence = " + std::string(1 << 20, 'w') + "\nnum_heads = 4\n" + std::string(100000, '#');
    const UiSettings s = parse_settings(text, &problem);
    CHECK(s.sentence.size() == 4096);
    CHECK(s.num_heads == 4);
    CHECK(problem.empty());
    const UiSettings garbage = parse_settings(std::string(300000, 'x'), &problem);
    CHECK(garbage.num_heads == UiSettings{}.num_heads);
    CHECK(problem.find("line 1") != std::string::npos);
    CHECK(problem.size() < 200);
}

TEST_CASE("comments, blank lines, CRLF and unknown keys are not problems") {
    std::string problem;
    const UiSettings s = parse_settings("# mine\r\n\r\nfuture_key = 7\r\nnum_heads = 4\r\n", &problem);
    CHECK(s.num_heads == 4);
    CHECK(problem.empty());
}

TEST_CASE("an unreadable or odd settings file gives defaults and a message") {
    ScratchConfig config;
    std::string problem;
    SUBCASE("missing: defaults, no message") {
        load_settings(&problem);
        CHECK(problem.empty());
    }
    SUBCASE("a folder named settings.ini") {
        fs::create_directories(config.file("settings.ini"));
        const UiSettings s = load_settings(&problem);
        CHECK(s.num_heads == UiSettings{}.num_heads);
        CHECK(problem.find("not a regular file") != std::string::npos);
    }
    SUBCASE("a named pipe does not block") {
        REQUIRE(::mkfifo(config.file("settings.ini").c_str(), 0600) == 0);
        load_settings(&problem);
        CHECK(problem.find("not a regular file") != std::string::npos);
    }
    SUBCASE("larger than 1 MiB") {
        write(config.file("settings.ini"), "num_heads = 4\n" + std::string(2 << 20, ' '));
        const UiSettings s = load_settings(&problem);
        CHECK(s.num_heads == UiSettings{}.num_heads);
        CHECK(problem.find("1 MiB") != std::string::npos);
    }
    SUBCASE("partly corrupt: good lines kept") {
        write(config.file("settings.ini"), "num_heads = 4\nui_scale = nan\n");
        const UiSettings s = load_settings(&problem);
        CHECK(s.num_heads == 4);
        CHECK(problem.find("line 2") != std::string::npos);
    }
}

TEST_CASE("settings are saved through a temporary file that is renamed over the old one") {
    ScratchConfig config;
    write(config.file("settings.ini"), "num_heads = 4\n");
    UiSettings s;
    s.num_heads = 8;
    REQUIRE(save_settings(s));
    std::string problem;
    CHECK(load_settings(&problem).num_heads == 8);
    CHECK(problem.empty());
    int files = 0;
    for (const auto& entry : fs::directory_iterator(config.root / "attnviz")) {
        CAPTURE(entry.path().string());
        ++files;
    }
    CHECK(files == 1);  // no temporary file left behind
    // A target that cannot be replaced (a non-empty folder) fails cleanly and keeps nothing.
    fs::remove(config.file("settings.ini"));
    fs::create_directories(config.file("settings.ini") / "inside");
    CHECK_FALSE(write_config_file(config.file("settings.ini").string(), "x", &problem));
    CHECK_FALSE(problem.empty());
    files = 0;
    for (const auto& entry : fs::directory_iterator(config.root / "attnviz")) files += entry.is_regular_file();
    CHECK(files == 0);
}

TEST_CASE("a damaged imgui.ini gives the default layout and a message; a good one loads") {
    ScratchConfig config;
    ImGuiContext* context = ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    write(config.file("imgui.ini"), "[Window][x]\nPos=1,2\n" + std::string("\x00\x01\x02", 3));
    CHECK(load_imgui_ini(config.file("imgui.ini").string()).find("damaged") != std::string::npos);
    write(config.file("imgui.ini"), "[Window][Canvas]\nPos=-99999,99999\nSize=-5,100000\nCollapsed=7\n[Bogus][]\n=\n");
    CHECK(load_imgui_ini(config.file("imgui.ini").string()).empty());
    CHECK(load_imgui_ini(config.file("missing.ini").string()).empty());
    // Saving writes ImGui's settings atomically and reads back.
    save_imgui_ini(config.file("saved.ini").string(), true);
    CHECK(fs::is_regular_file(config.file("saved.ini")));
    CHECK(load_imgui_ini(config.file("saved.ini").string()).empty());
    ImGui::DestroyContext(context);
}
