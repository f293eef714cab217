// The export dialog driven headless through ImGui's input queue (keys and typed
// characters, no window): Enter on an existing file asks before replacing, a second
// Enter agrees; a typed path into missing folders is refused inside the dialog.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "app/gui/views/frame.h"
#include "app/gui/views/dialogs/view_dialogs.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
#include "app/io/npy.h"
#include "app/media/animation_writer.h"

using namespace attn;
using namespace attn::gui;
namespace fs = std::filesystem;

namespace {

constexpr int kEnterKey = 257;  // any free slot of io.KeysDown
constexpr int kEscapeKey = 256;

struct DialogHarness {
    ImGuiContext* ctx;
    AppState state;
    fs::path tmp;
    DialogHarness() : ctx(ImGui::CreateContext()) {
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(1280, 800);
        io.DeltaTime = 1.0f / 60.0f;
        io.KeyMap[ImGuiKey_Enter] = kEnterKey;
        io.KeyMap[ImGuiKey_Escape] = kEscapeKey;
        load_fonts(1.0f);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        apply_theme(false, 1.0f);
        tmp = fs::temp_directory_path() / ("attnviz_dialog_test_" + std::to_string(std::random_device{}()));
        fs::create_directories(tmp);
    }
    ~DialogHarness() {
        ImGui::DestroyContext(ctx);
        std::error_code ec;
        fs::remove_all(tmp, ec);
    }
    // One frame of the dialogs, their edits applied as draw_frame does; returns what they
    // asked the window loop to do.
    Actions frame() {
        ImGui::NewFrame();
        Actions out = draw_dialogs(state.jobs.dialog, state.session, false);
        apply_edits(state, out);
        ImGui::Render();
        return out;
    }
    Actions press(int key) {
        ImGui::GetIO().KeysDown[key] = true;
        Actions out = frame();
        ImGui::GetIO().KeysDown[key] = false;
        Actions after = frame();
        if (!out.export_request) out.export_request = after.export_request;
        return out;
    }
    void type(const std::string& text) {
        for (char c : text) {
            ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c));
            frame();
        }
    }
};

}  // namespace

TEST_CASE("the export dialog asks before replacing a file and sends the request only after yes") {
    DialogHarness h;
    const fs::path existing = h.tmp / "shot.png";
    std::ofstream(existing) << "old";
    open_path_dialog(h.state.jobs.dialog, DialogState::Kind::ExportSnapshot, existing.string());
    for (int i = 0; i < 3; ++i) CHECK_FALSE(h.frame().export_request.has_value());

    const Actions first = h.press(kEnterKey);
    CHECK_FALSE(first.export_request.has_value());
    REQUIRE_FALSE(h.state.jobs.dialog.question.empty());
    CHECK(english(h.state.jobs.dialog.question).find("shot.png") != std::string::npos);

    const Actions second = h.press(kEnterKey);
    REQUIRE(second.export_request.has_value());
    CHECK(second.export_request->path == existing.string());
    CHECK(second.export_request->replace);
    CHECK(second.export_request->create_folder.empty());
    CHECK(second.export_request->kind == ExportKind::SnapshotPng);
    // Nothing was written by the dialog itself: the window loop does that.
    std::ifstream in(existing);
    std::string text;
    in >> text;
    CHECK(text == "old");
}

TEST_CASE("Escape takes back the question and the file is not replaced") {
    DialogHarness h;
    const fs::path existing = h.tmp / "data.csv";
    std::ofstream(existing) << "old";
    open_path_dialog(h.state.jobs.dialog, DialogState::Kind::ExportCsv, existing.string());
    for (int i = 0; i < 3; ++i) h.frame();
    h.press(kEnterKey);
    REQUIRE_FALSE(h.state.jobs.dialog.question.empty());
    CHECK_FALSE(h.press(kEscapeKey).export_request.has_value());
    CHECK(h.state.jobs.dialog.question.empty());
    CHECK(h.state.jobs.dialog.kind == DialogState::Kind::ExportCsv);  // still open: the user can pick another name
}

TEST_CASE("a typed path into missing folders is refused inside the dialog and creates nothing") {
    DialogHarness h;
    open_path_dialog(h.state.jobs.dialog, DialogState::Kind::ExportSnapshot, (h.tmp / "a").string());
    for (int i = 0; i < 3; ++i) h.frame();
    // The field's text is selected when the dialog opens: typing replaces it.
    h.type((h.tmp / "Missing/deeper/Shot_1.png").string());
    CHECK(h.state.jobs.dialog.path == (h.tmp / "Missing/deeper/Shot_1.png").string());
    // The listing followed the typed path to the nearest folder that exists.
    CHECK(h.state.jobs.dialog.chooser.folder() == h.tmp.string());
    const Actions r = h.press(kEnterKey);
    CHECK_FALSE(r.export_request.has_value());
    CHECK(h.state.jobs.dialog.error.id == "export.path.two_missing");  // Missing/deeper and Missing
    CHECK(fs::is_empty(h.tmp));
}

TEST_CASE("one missing folder is offered for creation and the answer travels with the request") {
    DialogHarness h;
    open_path_dialog(h.state.jobs.dialog, DialogState::Kind::ExportAll, (h.tmp / "slides" / "steps").string());
    for (int i = 0; i < 3; ++i) h.frame();
    h.press(kEnterKey);
    REQUIRE_FALSE(h.state.jobs.dialog.question.empty());
    CHECK(english(h.state.jobs.dialog.question).find("slides") != std::string::npos);
    const Actions r = h.press(kEnterKey);
    REQUIRE(r.export_request.has_value());
    CHECK(r.export_request->create_folder == (h.tmp / "slides").string());
    CHECK_FALSE(r.export_request->replace);
    CHECK(fs::is_empty(h.tmp));  // created only when the export runs
}

TEST_CASE("File > Open mask: the chosen .npy masks the keys it says, through the normal request") {
    DialogHarness h;
    // (S) = (4), float: added to the scores, -inf hides key 2 from every query.
    const fs::path mask = h.tmp / "key_mask.npy";
    const Tensor keys = Tensor::from_values({4}, {"S"}, {0.0f, 0.0f, -std::numeric_limits<float>::infinity(), 0.0f});
    REQUIRE(io::write_npy(mask.string(), keys).ok());
    h.state.session.config.seq_len = 4;
    h.state.session.sentence.clear();
    h.state.session.tokens_from_sentence = false;
    open_path_dialog(h.state.jobs.dialog, DialogState::Kind::OpenMask, mask.string());
    for (int i = 0; i < 3; ++i) h.frame();
    const Actions opened = h.press(kEnterKey);
    CHECK(opened.config_changed);
    CHECK(h.state.session.sources.mask_path == mask.string());
    std::optional<ComputeRequest> request = make_request(h.state.session);
    REQUIRE(request);
    ComputeResult result = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    const Tensor& weights = result.trace->find(StepId::AttnWeights)->tensor;
    for (int64_t i = 0; i < 4; ++i) {
        CHECK(weights.at({0, 0, i, 2}) == 0.0f);
        CHECK(weights.at({0, 0, i, 1}) > 0.0f);
    }
}

TEST_CASE("Enter exports after a checkbox was ticked, not only from the path field") {
    DialogHarness h;
    open_path_dialog(h.state.jobs.dialog, DialogState::Kind::ExportSnapshot, (h.tmp / "shot.png").string());
    for (int i = 0; i < 3; ++i) h.frame();
    // The user ticked "canvas only" off with the mouse: the path field no longer has the keys.
    ImGui::ClearActiveID();
    h.state.jobs.dialog.canvas_only = false;
    h.frame();
    REQUIRE_FALSE(ImGui::IsAnyItemActive());
    const Actions r = h.press(kEnterKey);
    REQUIRE(r.export_request.has_value());
    CHECK_FALSE(r.export_request->canvas_only);
}

TEST_CASE("Export animation: the name follows the format and the request carries format, steps and scale") {
    DialogHarness h;
    h.state.jobs.dialog.animation_mp4 = true;  // remembered from the last animation
    h.state.jobs.dialog.animation_all_steps = true;
    h.state.jobs.dialog.scale_index = 2;       // 4x from a still export: animations take 2x at most
    open_path_dialog(h.state.jobs.dialog, DialogState::Kind::ExportAnimation, (h.tmp / "20_attn_weights.gif").string());
    CHECK(h.state.jobs.dialog.path == (h.tmp / "20_attn_weights.mp4").string());
    for (int i = 0; i < 3; ++i) h.frame();
    const bool mp4 = !media::find_ffmpeg().empty();  // without ffmpeg the dialog falls back to GIF
    const Actions r = h.press(kEnterKey);
    REQUIRE(r.export_request.has_value());
    CHECK(r.export_request->kind == ExportKind::Animation);
    CHECK(r.export_request->mp4 == mp4);
    CHECK(r.export_request->all_steps);
    CHECK(r.export_request->scale == 2);
    CHECK(fs::path(r.export_request->path).extension() == (mp4 ? ".mp4" : ".gif"));
}

TEST_CASE("Escape closes Help > Keyboard") {
    DialogHarness h;
    h.state.jobs.dialog.kind = DialogState::Kind::Keys;
    h.state.jobs.dialog.just_opened = true;
    for (int i = 0; i < 3; ++i) h.frame();
    REQUIRE(h.state.jobs.dialog.kind == DialogState::Kind::Keys);
    h.press(kEscapeKey);
    h.frame();
    CHECK(h.state.jobs.dialog.kind == DialogState::Kind::None);
}
