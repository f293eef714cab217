// Exports without a display: where a typed path may write (missing folders, existing
// files), the file chooser's listing, the CSV's token headers, the tensors folder's
// weights and tokens, and atomic writes.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "app/gui/export/export.h"
#include "app/gui/state/export_path.h"
#include "app/gui/state/file_chooser.h"
#include "app/io/file_util.h"
#include "app/io/safetensors.h"
#include "app/io/weight_names.h"
#include "core/attention.h"

using namespace attn;
using namespace attn::gui;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the temp dir, removed at the end of the test.
struct TempFolder {
    fs::path path;
    TempFolder() {
        path = fs::temp_directory_path() / ("attnviz_export_test_" + std::to_string(std::random_device{}()));
        fs::create_directories(path);
    }
    ~TempFolder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

void touch(const std::string& path, const std::string& text = "x") { std::ofstream(path) << text; }

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

Trace small_trace(int L, int E, int H) {
    AttentionConfig c;
    c.seq_len = L;
    c.hidden_dim = E;
    c.num_heads = H;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    return t.value();
}

}  // namespace

TEST_CASE("a path whose folders are missing is refused and nothing is created") {
    TempFolder tmp;
    const PathCheck c = check_export_path(tmp / "no/such/place/shot.png", "/", ExportTarget::File);
    CHECK(c.verdict == PathVerdict::Refused);
    CHECK(c.message.id == "export.path.two_missing");  // no/such/place and no/such are missing
    CHECK(names_in(tmp.path).empty());
    // Even when the caller tries to go ahead, nothing is created.
    CHECK_FALSE(prepare_export_target(tmp / "no/such/place/shot.png", ExportTarget::File, true, tmp / "no/such/place").empty());
    CHECK(names_in(tmp.path).empty());
}

TEST_CASE("one missing folder level is a question, and only a yes creates exactly that folder") {
    TempFolder tmp;
    const PathCheck c = check_export_path(tmp / "slides/shot.png", "/", ExportTarget::File);
    REQUIRE(c.verdict == PathVerdict::AskCreateFolder);
    CHECK(c.missing_folder == tmp / "slides");
    CHECK(english(c.message).find("slides") != std::string::npos);
    CHECK(names_in(tmp.path).empty());  // checking never creates

    CHECK_FALSE(prepare_export_target(c.resolved, ExportTarget::File, false, "").empty());
    CHECK(names_in(tmp.path).empty());
    CHECK(prepare_export_target(c.resolved, ExportTarget::File, false, c.missing_folder).empty());
    CHECK(names_in(tmp.path) == std::vector<std::string>{"slides"});
    CHECK(names_in(tmp.path / "slides").empty());
}

TEST_CASE("an existing file is only replaced after the user agreed") {
    TempFolder tmp;
    touch(tmp / "shot.png", "old");
    const PathCheck c = check_export_path(tmp / "shot.png", "/", ExportTarget::File);
    CHECK(c.verdict == PathVerdict::AskOverwrite);
    CHECK(english(c.message).find("shot.png") != std::string::npos);
    CHECK(english(c.message).find("Replace") != std::string::npos);
    CHECK_FALSE(prepare_export_target(c.resolved, ExportTarget::File, false, "").empty());
    CHECK(prepare_export_target(c.resolved, ExportTarget::File, true, "").empty());
    // A new name in an existing folder needs no question.
    CHECK(check_export_path(tmp / "new.png", "/", ExportTarget::File).verdict == PathVerdict::Ready);
}

TEST_CASE("a file export refuses a folder and a folder export refuses a file") {
    TempFolder tmp;
    fs::create_directory(tmp.path / "pictures");
    touch(tmp / "notes.txt");
    CHECK(check_export_path(tmp / "pictures", "/", ExportTarget::File).verdict == PathVerdict::Refused);
    CHECK(check_export_path(tmp / "notes.txt", "/", ExportTarget::Folder).verdict == PathVerdict::Refused);
    CHECK(check_export_path(tmp / "notes.txt/x.png", "/", ExportTarget::File).verdict == PathVerdict::Refused);
    CHECK(check_export_path("", "/", ExportTarget::File).verdict == PathVerdict::Refused);
    CHECK(check_export_path("/", "/", ExportTarget::Folder).verdict == PathVerdict::Refused);
}

TEST_CASE("a folder export: empty or new is ready, a non-empty folder is a question") {
    TempFolder tmp;
    fs::create_directory(tmp.path / "empty");
    fs::create_directory(tmp.path / "full");
    touch(tmp / "full/01_input.png");
    CHECK(check_export_path(tmp / "empty", "/", ExportTarget::Folder).verdict == PathVerdict::Ready);
    CHECK(check_export_path(tmp / "full", "/", ExportTarget::Folder).verdict == PathVerdict::AskOverwrite);
    CHECK(check_export_path(tmp / "fresh", "/", ExportTarget::Folder).verdict == PathVerdict::Ready);
    // The target folder itself is created when the export starts (its parent exists).
    CHECK(prepare_export_target(tmp / "fresh", ExportTarget::Folder, false, "").empty());
    CHECK(fs::is_directory(tmp.path / "fresh"));
}

TEST_CASE("relative paths start from the shown base folder and ~ is the home folder") {
    CHECK(resolve_export_path("out/shot.png", "/data/work") == "/data/work/out/shot.png");
    CHECK(resolve_export_path("../shot.png", "/data/work") == "/data/shot.png");
    CHECK(resolve_export_path("/abs/x.csv", "/data/work") == "/abs/x.csv");
    CHECK(resolve_export_path("steps/", "/data") == "/data/steps");
    CHECK(resolve_export_path("  ", "/data").empty());
    const char* old_home = std::getenv("HOME");
    const std::string saved = old_home ? old_home : "";
    setenv("HOME", "/home/student", 1);
    CHECK(resolve_export_path("~/slides/a.png", "/data") == "/home/student/slides/a.png");
    CHECK(resolve_export_path("~", "/data") == "/home/student");
    if (old_home) setenv("HOME", saved.c_str(), 1);
    else unsetenv("HOME");
    CHECK(fs::path(export_base_folder()).is_absolute());
    CHECK(with_default_extension("/a/shot", ".png") == "/a/shot.png");
    CHECK(with_default_extension("/a/shot.png", ".png") == "/a/shot.png");
    CHECK(with_default_extension("/a/data.csv", ".png") == "/a/data.csv");
}

TEST_CASE("the file chooser lists folders first, filters files and walks up and down") {
    TempFolder tmp;
    fs::create_directory(tmp.path / "zeta");
    fs::create_directory(tmp.path / "alpha");
    touch(tmp / "b.png", "12345");
    touch(tmp / "a.png");
    touch(tmp / "notes.csv");
    touch(tmp / ".hidden.png");
    FileChooser chooser;
    chooser.set_extensions({".png"});
    REQUIRE(chooser.open(tmp.path.string()));
    std::vector<std::string> shown;
    for (const FileEntry& e : chooser.entries()) shown.push_back(e.name + (e.is_folder ? "/" : ""));
    CHECK(shown == std::vector<std::string>{"alpha/", "zeta/", "a.png", "b.png"});
    CHECK(chooser.entries()[3].bytes == 5u);
    CHECK(chooser.has_file("b.png"));
    CHECK_FALSE(chooser.has_file("notes.csv"));
    CHECK(chooser.path_of("a.png") == tmp / "a.png");

    REQUIRE(chooser.enter("alpha"));
    CHECK(chooser.folder() == tmp / "alpha");
    CHECK(chooser.entries().empty());
    CHECK_FALSE(chooser.enter("nope"));
    CHECK(chooser.folder() == tmp / "alpha");
    REQUIRE(chooser.up());
    CHECK(chooser.folder() == tmp.path.string());

    // A typed path into missing folders shows the nearest folder that exists.
    CHECK(chooser.follow(tmp / "zeta/missing/deeper/x.png", false));
    CHECK(chooser.folder() == tmp / "zeta");
    CHECK_FALSE(chooser.follow(tmp / "zeta/other.png", false));  // same folder: no change
    // A folder that cannot be listed keeps the last listing and says why.
    CHECK_FALSE(chooser.open(tmp / "a.png"));
    CHECK(chooser.folder() == tmp / "zeta");
    CHECK_FALSE(chooser.error().empty());
    chooser.set_extensions({});
    chooser.open(tmp.path.string());
    CHECK(chooser.has_file("notes.csv"));
    CHECK(format_file_size(5) == "5 B");
    CHECK(format_file_size(3 * 1024 * 1024 + 400000) == "3.4 MB");
}

TEST_CASE("an open dialog's listing shows a file saved into its folder from outside, without reopening") {
    TempFolder tmp;
    touch(tmp / "query.npy");
    FileChooser chooser;
    chooser.set_extensions({".npy"});
    REQUIRE(chooser.open(tmp.path.string()));
    CHECK_FALSE(chooser.refresh_if_changed());  // nothing changed: no listing per frame
    CHECK_FALSE(chooser.has_file("mask.npy"));
    // numpy.save in a terminal while the dialog is open; the folder's time moves on (set
    // explicitly, as two writes within the file system's clock tick could share one).
    touch(tmp / "mask.npy");
    fs::last_write_time(tmp.path, fs::last_write_time(tmp.path) + std::chrono::seconds(1));
    CHECK(chooser.refresh_if_changed());
    CHECK(chooser.has_file("mask.npy"));
    CHECK_FALSE(chooser.refresh_if_changed());
}

TEST_CASE("a step's CSV keeps Chinese tokens whole, with the full-width comma unquoted") {
    const Trace trace = small_trace(3, 4, 2);
    const TokenLabels tokens{{"我", "GPU", "，"}, {"我", "GPU", "，"}};
    const std::string csv = step_csv(*trace.find(attn::StepId::AttnWeights), tokens);
    CHECK(csv.find("L\\S,我,GPU,，\n") != std::string::npos);
    CHECK(csv.find("\n我,") != std::string::npos);
    CHECK(csv.find("\n，,") != std::string::npos);
}

TEST_CASE("the CSV of a step names its rows and columns by token") {
    const Trace trace = small_trace(3, 4, 2);
    const TokenLabels tokens{{"the", "cat", "sat,down"}, {"the", "cat", "sat,down"}};
    const Step* weights = trace.find(attn::StepId::AttnWeights);
    REQUIRE(weights != nullptr);
    REQUIRE(weights->tensor.rank() == 4);  // (B, H, L, S)
    const std::string csv = step_csv(*weights, tokens);
    std::istringstream lines(csv);
    std::string line;
    std::vector<std::string> all;
    while (std::getline(lines, line)) all.push_back(line);
    REQUIRE(all.size() >= 6u);
    CHECK(all[0].rfind("# attn_weights", 0) == 0);
    CHECK(all[1] == "# B=0, H=0");
    CHECK(all[2] == "L\\S,the,cat,\"sat,down\"");
    CHECK(all[3].rfind("the,", 0) == 0);
    CHECK(all[5].rfind("\"sat,down\",", 0) == 0);
    CHECK(csv.find("# B=0, H=1") != std::string::npos);
    // The numbers are the tensor's: row 1 of head 1 starts with weights[0, 1, 1, 0].
    const std::vector<float> v = weights->tensor.to_vector();
    std::ostringstream expected;
    expected.precision(9);
    expected << "cat," << v[static_cast<size_t>(((0 * 2 + 1) * 3 + 1) * 3 + 0)] << ",";
    CHECK(csv.find(expected.str(), csv.find("# B=0, H=1")) != std::string::npos);

    // Axes that are not tokens are numbered; without tokens the rows are numbered too.
    const std::string input = step_csv(*trace.find(attn::StepId::Input), tokens);
    CHECK(input.find("L\\E,0,1,2,3\n") != std::string::npos);
    CHECK(input.find("\nthe,") != std::string::npos);
    CHECK(step_csv(*trace.find(attn::StepId::Input)).find("\n0,") != std::string::npos);
}

TEST_CASE("the tensors folder holds every step, the weights and the tokens") {
    TempFolder tmp;
    const Trace trace = small_trace(3, 4, 2);
    const TokenLabels tokens{{"a", "b", "c"}, {"a", "b", "c"}};
    const std::string dir = tmp / "tensors";
    REQUIRE(write_trace_tensors(trace, dir, tokens).ok());
    for (const Step& s : trace.steps) CHECK(fs::is_regular_file(fs::path(dir) / (std::string(s.name()) + ".npy")));
    CHECK(fs::is_regular_file(fs::path(dir) / "manifest.json"));

    Result<io::NamedTensors> weights = io::read_safetensors(dir + "/weights.safetensors");
    REQUIRE(weights.ok());
    const io::NamedTensors expected = io::weights_to_tensors(trace.weights());
    REQUIRE(weights.value().size() == expected.size());
    for (const auto& [name, tensor] : expected) {
        CAPTURE(name);
        const auto found = std::find_if(weights.value().begin(), weights.value().end(), [&](const auto& p) { return p.first == name; });
        REQUIRE(found != weights.value().end());
        CHECK(found->second.to_vector() == tensor.to_vector());
    }
    Result<std::string> text = io::read_file_bytes(dir + "/tokens.json");
    REQUIRE(text.ok());
    const nlohmann::json parsed = nlohmann::json::parse(text.value());
    CHECK(parsed["query_tokens"] == nlohmann::json({"a", "b", "c"}));
    CHECK(parsed["key_tokens"] == nlohmann::json({"a", "b", "c"}));

    // Exporting again replaces the earlier export (weights and tokens count as ours),
    // and no temporary folder is left beside it.
    REQUIRE(write_trace_tensors(trace, dir, tokens).ok());
    CHECK(names_in(tmp.path) == std::vector<std::string>{"tensors"});
}

TEST_CASE("files are written whole through a temporary file") {
    TempFolder tmp;
    const std::string path = tmp / "data.csv";
    touch(path, "old contents that are longer than the new ones");
    REQUIRE(write_file_atomic(path, "new").ok());
    CHECK(io::read_file_bytes(path).value() == "new");
    CHECK(names_in(tmp.path) == std::vector<std::string>{"data.csv"});
    // An unwritable place fails with a message and leaves nothing behind.
    CHECK_FALSE(write_file_atomic(tmp / "missing/data.csv", "x").ok());
    CHECK(names_in(tmp.path) == std::vector<std::string>{"data.csv"});
    const std::vector<unsigned char> rgba(4 * 4 * 4, 200);
    REQUIRE(write_png(tmp / "tiny.png", 4, 4, rgba).ok());
    Result<std::string> png = io::read_file_bytes(tmp / "tiny.png");
    REQUIRE(png.ok());
    CHECK(png.value().substr(1, 3) == "PNG");
    CHECK(names_in(tmp.path) == std::vector<std::string>{"data.csv", "tiny.png"});
}
