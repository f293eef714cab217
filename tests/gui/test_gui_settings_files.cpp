// settings.ini and imgui.ini on disk: corrupt, unreadable or odd files give defaults
// and a one-line message; saving replaces the file atomically.
#include <doctest/doctest.h>

#include <imgui.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "app/gui/state/app_state.h"
#include "app/gui/window/imgui_ini.h"
#include "app/gui/state/settings.h"
#include "tests/catalogue_words.h"

using namespace attn;
using namespace attn::gui;
using attn::testing::opening;
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
        Message problem;
        const UiSettings s = parse_settings(c.text, &problem);
        CHECK(s.ui_scale == defaults.ui_scale);
        CHECK(s.speed == defaults.speed);
        CHECK(s.window_width == defaults.window_width);
        CHECK(s.explain_fraction == defaults.explain_fraction);
        CHECK(s.config.dropout == defaults.config.dropout);
        CHECK(s.config.seq_len == defaults.config.seq_len);
        CHECK(s.config.hidden_dim == defaults.config.hidden_dim);
        CHECK(s.sentence == defaults.sentence);
        CHECK_MESSAGE(english(problem).find("settings.ini:") == 0, english(problem));
        CHECK(english(problem).find('\n') == std::string::npos);
        for (char ch : english(problem)) CHECK((ch >= 32 && ch < 127));  // the status line shows it as is
    }
}

TEST_CASE("negative and out-of-range sizes are clamped, not taken") {
    Message problem;
    const UiSettings s = parse_settings("window_width = -5\nwindow_height = -100000\nleft_panel_em = -3\n"
                                        "num_heads = 0\nbatch = -1\nseq_len = 99999\n", &problem);
    CHECK(s.window_width == 320);
    CHECK(s.window_height == 240);
    CHECK(s.left_panel_em == 10.0f);
    CHECK(s.config.num_heads == 1);
    CHECK(s.config.batch == 1);
    CHECK(s.config.seq_len == 1024);
    CHECK(problem.empty());  // numbers, just out of range: clamped quietly
}

TEST_CASE("an overlong line is read without trouble and the sentence is capped") {
    Message problem;
    const std::string text = "sentence = " + std::string(1 << 20, 'w') + "\nnum_heads = 4\n" + std::string(100000, '#');
    const UiSettings s = parse_settings(text, &problem);
    CHECK(s.sentence.size() == 4096);
    CHECK(s.config.num_heads == 4);
    CHECK(problem.empty());
    const UiSettings garbage = parse_settings(std::string(300000, 'x'), &problem);
    CHECK(garbage.config.num_heads == UiSettings{}.config.num_heads);
    CHECK(english(problem).find("line 1") != std::string::npos);
    CHECK(english(problem).size() < 200);
}

TEST_CASE("comments, blank lines, CRLF and unknown keys are not problems") {
    Message problem;
    const UiSettings s = parse_settings("# mine\r\n\r\nfuture_key = 7\r\nnum_heads = 4\r\n", &problem);
    CHECK(s.config.num_heads == 4);
    CHECK(problem.empty());
}

TEST_CASE("an unreadable or odd settings file gives defaults and a message") {
    ScratchConfig config;
    Message problem;
    SUBCASE("missing: defaults, no message") {
        load_settings(&problem);
        CHECK(problem.empty());
    }
    SUBCASE("a folder named settings.ini") {
        fs::create_directories(config.file("settings.ini"));
        const UiSettings s = load_settings(&problem);
        CHECK(s.config.num_heads == UiSettings{}.config.num_heads);
        CHECK(problem.id == "status.settings.not_regular");
    }
    SUBCASE("a named pipe does not block") {
        REQUIRE(::mkfifo(config.file("settings.ini").c_str(), 0600) == 0);
        load_settings(&problem);
        CHECK(problem.id == "status.settings.not_regular");
    }
    SUBCASE("larger than 1 MiB") {
        write(config.file("settings.ini"), "num_heads = 4\n" + std::string(2 << 20, ' '));
        const UiSettings s = load_settings(&problem);
        CHECK(s.config.num_heads == UiSettings{}.config.num_heads);
        CHECK(problem.id == "status.settings.too_large");
    }
    SUBCASE("partly corrupt: good lines kept") {
        write(config.file("settings.ini"), "num_heads = 4\nui_scale = nan\n");
        const UiSettings s = load_settings(&problem);
        CHECK(s.config.num_heads == 4);
        CHECK(english(problem).find("line 2") != std::string::npos);
    }
}

TEST_CASE("settings are saved through a temporary file that is renamed over the old one") {
    ScratchConfig config;
    write(config.file("settings.ini"), "num_heads = 4\n");
    UiSettings s;
    s.config.num_heads = 8;
    REQUIRE(save_settings(s));
    Message problem;
    CHECK(load_settings(&problem).config.num_heads == 8);
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
    CHECK(english(load_imgui_ini(config.file("imgui.ini").string())).find("damaged") != std::string::npos);
    write(config.file("imgui.ini"), "[Window][Canvas]\nPos=-99999,99999\nSize=-5,100000\nCollapsed=7\n[Bogus][]\n=\n");
    CHECK(load_imgui_ini(config.file("imgui.ini").string()).empty());
    CHECK(load_imgui_ini(config.file("missing.ini").string()).empty());
    // Saving writes ImGui's settings atomically and reads back.
    save_imgui_ini(config.file("saved.ini").string(), true);
    CHECK(fs::is_regular_file(config.file("saved.ini")));
    CHECK(load_imgui_ini(config.file("saved.ini").string()).empty());
    ImGui::DestroyContext(context);
}

namespace {

// What the window does at start-up: read the settings file, restore the session, compute
// it and take the result. Returns the note for the status line ("" when all was fine).
std::string start_window(AppState& state) {
    Message problem;
    state.settings = load_settings(&problem);
    const std::string note = state.settings.has_session ? english(restore_saved_session(state)) : "";
    const auto request = make_request(state.session);
    REQUIRE(request.has_value());
    ComputeResult result = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    accept_result(state, std::move(result), 0.0);
    return english(problem) + note;
}

}  // namespace

TEST_CASE("the window resumes the saved configuration, sentence and step after a restart") {
    ScratchConfig scratch;
    AppState before;
    before.session.sentence = "a dog ran far away";
    REQUIRE(follow_sentence(before.session));
    before.session.config.hidden_dim = 12;
    before.session.config.num_heads = 3;
    before.session.config.mask = MaskKind::Causal;
    before.session.config.seed = 7;
    ComputeResult first = ComputeWorker::compute(*make_request(before.session), 1);
    REQUIRE(first.error.empty());
    accept_result(before, std::move(first), 0.0);
    const int weights = before.results.trace->index_of(StepId::AttnWeights);
    REQUIRE(weights > 0);
    before.ui.playback.set_position(weights, 1.0f);
    store_config_in_settings(before);
    REQUIRE(save_settings(before.settings));

    AppState after;  // a new process: defaults until the file is read
    CHECK(after.session.sentence != before.session.sentence);
    CHECK(start_window(after) == "");
    CHECK(after.session.sentence == "a dog ran far away");
    CHECK(after.session.config.seq_len == 5);
    CHECK(after.session.config.hidden_dim == 12);
    CHECK(after.session.config.num_heads == 3);
    CHECK(after.session.config.mask == MaskKind::Causal);
    CHECK(after.session.config.seed == 7u);
    CHECK(after.ui.playback.step() == weights);
    CHECK(after.results.query_tokens == before.results.query_tokens);
    // The same numbers, not only the same sizes.
    const Tensor& a = before.results.trace->steps[static_cast<size_t>(weights)].tensor;
    const Tensor& b = after.results.trace->steps[static_cast<size_t>(weights)].tensor;
    CHECK(a.at({0, 1, 4, 2}) == b.at({0, 1, 4, 2}));
}

TEST_CASE("a corrupt or hostile settings file starts from the defaults with a note, never a crash") {
    struct Case { const char* why; std::string text; };
    const Case cases[] = {
        {"heads that do not divide E", "seq_len = 6\nhidden_dim = 8\nnum_heads = 3\n"},
        {"a sentence of bars only", "seq_len = 6\nsentence = | | |\n"},
        {"binary noise", std::string("seq_len = 6\n\x01\x02\xff=\xfe\n") + "hidden_dim = \x7f\n"},
        {"a step that does not exist", "seq_len = 6\nstep = ../../etc/passwd\n"},
        {"sizes as large as allowed", "seq_len = 1024\nhidden_dim = 1024\nnum_heads = 64\nbatch = 8\nsentence = \n"},
        {"a negative and a huge number", "seq_len = -5\nhidden_dim = 99999999999999999999\n"},
    };
    for (const Case& c : cases) {
        const std::string why = c.why;
        CAPTURE(why);
        ScratchConfig scratch;
        write(scratch.file("settings.ini"), c.text);
        AppState state;
        const AttentionConfig defaults = state.session.config;
        Message problem;
        state.settings = load_settings(&problem);
        const std::string note = state.settings.has_session ? english(restore_saved_session(state)) : "";
        const auto request = make_request(state.session);
        if (!note.empty()) {
            // Refused: the session is the default one and still computes.
            CHECK(state.session.config.hidden_dim == defaults.hidden_dim);
            CHECK(state.session.config.num_heads == defaults.num_heads);
            CHECK(request.has_value());
        } else {
            // Taken (unreadable lines keep their defaults): it passed the same checks as typed input.
            CHECK(request.has_value());
        }
        if (why == "heads that do not divide E" || why == "a sentence of bars only") CHECK(note.find(opening("status.resume_refused")) != std::string::npos);
        if (why == "binary noise" || why == "a negative and a huge number") CHECK_FALSE(problem.empty());
        if (why == "a step that does not exist") {
            ComputeResult r = ComputeWorker::compute(*request, 1);
            REQUIRE(r.error.empty());
            accept_result(state, std::move(r), 0.0);
            CHECK(state.ui.playback.step() == 0);
            CHECK(state.ui.resume_step.empty());
        }
    }
}

TEST_CASE("every setting is written once and read back the same") {
    UiSettings s;
    s.light_theme = true;
    s.ui_scale = 1.5f;
    s.speed = 2.0f;
    s.show_values = false;
    s.window_width = 1000;
    s.window_height = 700;
    s.left_panel_em = 15.0f;
    s.right_panel_em = 30.0f;
    s.explain_fraction = 0.6f;
    s.hint_seen = true;
    s.sentence = "one two | three";
    s.config.seq_len = 9;
    s.config.hidden_dim = 16;
    s.config.num_heads = 4;
    s.config.batch = 2;
    s.config.mask = MaskKind::Padding;
    s.valid_length = 3;
    s.config.dropout = 0.25f;
    s.config.bias = false;
    s.config.variant = Variant::Stacked;
    s.config.seed = 42;
    s.step = "attn_scores";
    const std::string text = serialize_settings(s);
    Message problem;
    const UiSettings back = parse_settings(text, &problem);
    CHECK(problem.empty());
    // Each key appears exactly once.
    std::istringstream lines(text);
    std::set<std::string> keys;
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) keys.insert(line.substr(0, line.find(" = ")));
    CHECK(keys.size() == static_cast<size_t>(count));
    CHECK(serialize_settings(back) == text);
    CHECK(back.step == "attn_scores");
    CHECK(back.sentence == "one two | three");
    CHECK(back.has_session);
    CHECK_FALSE(parse_settings("light_theme = 1\n").has_session);
}

TEST_CASE("several saved sentences come back as their batch items with their own lengths") {
    ScratchConfig scratch;
    AppState before;
    before.session.sentence = "the cat sat | a dog ran far away";
    REQUIRE(follow_sentence(before.session));
    ComputeResult first = ComputeWorker::compute(*make_request(before.session), 1);
    REQUIRE(first.error.empty());
    accept_result(before, std::move(first), 0.0);
    store_config_in_settings(before);
    REQUIRE(save_settings(before.settings));

    AppState after;
    CHECK(start_window(after) == "");
    CHECK(after.session.config.batch == 2);
    CHECK(after.session.config.seq_len == 5);
    CHECK(after.session.config.mask == MaskKind::Padding);
    CHECK(after.session.valid_lengths == std::vector<int>{3, 5});
    const auto request = make_request(after.session);
    REQUIRE(request.has_value());
    REQUIRE(request->sources.sentences.size() == 2u);
    CHECK(request->sources.sentences[1].back() == "away");
}
