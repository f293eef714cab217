// Folders are layers (app/layers.txt, top to bottom): a file includes its own layer and the
// layers below it, never one above, so the folders never tangle into a cycle again. This
// reads every #include of every source under app/ and core/ against that list (the
// libraries' links are checked against the same list when CMake configures,
// cmake/layers.cmake). A folder missing from the list, and a quoted include that does not
// name its folder from the top (app/... or core/...), are refused too, so a new room or a
// relative include cannot slip past the check.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Layer {
    std::string folder;   // "app/gui/views"
    std::string library;  // "attnviz_gui_views", "-" for a header-only folder
};

// The layers of a layers.txt text, top first; '#' lines are comments.
std::vector<Layer> read_layers(const std::string& text) {
    std::vector<Layer> layers;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        Layer layer;
        if (words >> layer.folder >> layer.library) layers.push_back(layer);
    }
    return layers;
}

bool inside(const std::string& path, const std::string& folder) { return path.rfind(folder + "/", 0) == 0; }

// Whether other layers live inside `folder` (app, app/gui): then it owns only its own files.
bool holds_layers(const std::vector<Layer>& layers, const std::string& folder) {
    for (const Layer& other : layers)
        if (inside(other.folder, folder)) return true;
    return false;
}

// The index in `layers` of the layer that owns the file at `path` ("app/gui/views/canvas/
// view_canvas.cpp" is app/gui/views), or -1 when none does.
int layer_of(const std::vector<Layer>& layers, const std::string& path) {
    const std::string folder = path.substr(0, path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
    int best = -1;
    for (int i = 0; i < static_cast<int>(layers.size()); ++i) {
        const std::string& candidate = layers[static_cast<size_t>(i)].folder;
        const bool owns = folder == candidate || (inside(folder, candidate) && !holds_layers(layers, candidate));
        if (owns && (best < 0 || candidate.size() > layers[static_cast<size_t>(best)].folder.size())) best = i;
    }
    return best;
}

struct Refusal {
    int line = 0;          // 1-based
    std::string include;   // the included path
    std::string why;
};

// The includes of `source` (the text of the file at `path`, relative to the repository)
// that the layers refuse.
std::vector<Refusal> refused_includes(const std::vector<Layer>& layers, const std::string& path,
                                      const std::string& source) {
    static const std::regex include_line(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
    std::vector<Refusal> refused;
    const int own = layer_of(layers, path);
    if (own < 0) refused.push_back({0, "", path + " is in no layer: add its folder to app/layers.txt"});
    std::istringstream lines(source);
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        std::smatch match;
        if (!std::regex_search(line, match, include_line)) continue;
        const std::string included = match[2];
        const bool ours = included.rfind("app/", 0) == 0 || included.rfind("core/", 0) == 0;
        if (!ours) {
            if (match[1] == "\"") refused.push_back({number, included, "a quoted include names its folder from the top (app/... or core/...)"});
            continue;
        }
        const int theirs = layer_of(layers, included);
        if (theirs < 0)
            refused.push_back({number, included, "the included file is in no layer of app/layers.txt"});
        else if (own >= 0 && theirs < own)
            refused.push_back({number, included, "runs upward: " + layers[static_cast<size_t>(own)].folder +
                                                     " may not know " + layers[static_cast<size_t>(theirs)].folder});
    }
    return refused;
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<Layer> project_layers() { return read_layers(slurp(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "app" / "layers.txt")); }

const char* const kSmallList =
    "# top first\n"
    "app              attnviz\n"
    "app/gui/window   attnviz_gui\n"
    "app/gui/views    attnviz_gui_views\n"
    "app/gui/state    attnviz_gui_state\n"
    "core             attn_core\n";

}  // namespace

TEST_CASE("the layer check refuses an upward include, a folder in no layer and a relative include") {
    const std::vector<Layer> layers = read_layers(kSmallList);
    REQUIRE(layers.size() == 5);
    SUBCASE("an include that runs upward is refused, with its line") {
        const auto refused = refused_includes(layers, "app/gui/state/session.h",
                                              "#pragma once\n#include \"core/trace.h\"\n#include \"app/gui/views/frame.h\"\n");
        REQUIRE(refused.size() == 1);
        CHECK(refused[0].line == 3);
        CHECK(refused[0].include == "app/gui/views/frame.h");
        CHECK(refused[0].why.find("app/gui/state may not know app/gui/views") != std::string::npos);
    }
    SUBCASE("core may not include app") {
        CHECK(refused_includes(layers, "core/attention.cpp", "#include \"app/gui/state/session.h\"\n").size() == 1);
    }
    SUBCASE("includes of the own layer and the layers below pass, sub-folders belong to their layer") {
        CHECK(refused_includes(layers, "app/gui/window/entry.cpp",
                               "#include \"app/gui/views/canvas/view_canvas.h\"\n#include \"app/gui/state/session.h\"\n"
                               "#include <imgui.h>\n  #  include \"core/model/model.h\"\n").empty());
        CHECK(refused_includes(layers, "app/gui/views/canvas/view_canvas.cpp", "#include \"app/gui/views/frame.h\"\n").empty());
        CHECK(refused_includes(layers, "app/main.cpp", "#include \"app/gui/window/entry.h\"\n").empty());
    }
    SUBCASE("a folder in no layer, and a file including one, are refused") {
        CHECK(layer_of(layers, "app/gui/kit/fonts_theme.h") == -1);  // app owns only its own files
        CHECK(refused_includes(layers, "app/gui/kit/fonts_theme.h", "").size() == 1);
        CHECK(refused_includes(layers, "app/gui/views/view_menu.cpp", "#include \"app/gui/kit/fonts_theme.h\"\n").size() == 1);
    }
    SUBCASE("a relative include cannot hide an upward one") {
        CHECK(refused_includes(layers, "app/gui/state/session.cpp", "#include \"../views/frame.h\"\n").size() == 1);
        CHECK(refused_includes(layers, "app/gui/state/session.cpp", "#include \"session.h\"\n").size() == 1);
    }
}

TEST_CASE("app/layers.txt names every folder once, app on top and core at the bottom") {
    const std::vector<Layer> layers = project_layers();
    REQUIRE(layers.size() > 10);
    CHECK(layers.front().folder == "app");
    CHECK(layers.back().folder == "core");
    for (size_t i = 0; i < layers.size(); ++i) {
        CAPTURE(layers[i].folder);
        CHECK(std::filesystem::is_directory(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / layers[i].folder));
        for (size_t j = i + 1; j < layers.size(); ++j) CHECK(layers[i].folder != layers[j].folder);
    }
}

TEST_CASE("every include in app/ and core/ runs down the layers of app/layers.txt") {
    const std::vector<Layer> layers = project_layers();
    const std::filesystem::path root(ATTNVIZ_SOURCE_DIR);
    int files = 0, includes_checked = 0;
    for (const char* top : {"app", "core"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / top)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".cpp" && ext != ".h") continue;
            ++files;
            const std::string path = std::filesystem::relative(entry.path(), root).generic_string();
            const std::string source = slurp(entry.path());
            for (size_t at = source.find("#include \""); at != std::string::npos; at = source.find("#include \"", at + 1))
                ++includes_checked;
            for (const Refusal& refusal : refused_includes(layers, path, source)) {
                CAPTURE(path);
                CAPTURE(refusal.line);
                CAPTURE(refusal.include);
                FAIL_CHECK(refusal.why);
            }
        }
    }
    CHECK(files > 300);              // the scan walked the sources
    CHECK(includes_checked > 1000);  // and read their includes
}

TEST_CASE("the frame draws views only through the registry") {
    // frame.cpp lays out the dock slots and calls draw_slot; a view drawn any other way
    // (draw_title_strip(...) straight from the frame) would escape the registry's list.
    const std::string frame = slurp(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "app" / "gui" / "views" / "frame.cpp");
    const std::regex call(R"(\b(draw_[a-z_]+)\s*\()");
    std::vector<std::string> outside;
    for (std::sregex_iterator it(frame.begin(), frame.end(), call), end; it != end; ++it) {
        const std::string name = (*it)[1];
        if (name != "draw_slot" && name != "draw_frame") outside.push_back(name);
    }
    CHECK_MESSAGE(outside.empty(), "frame.cpp calls " << (outside.empty() ? std::string() : outside.front()));
    CHECK(frame.find("draw_slot(") != std::string::npos);
}
