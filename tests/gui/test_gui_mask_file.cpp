// File > Open mask next to painted cells (session.h's open_mask_file, painted_mask.h): the
// file is read when the dialog opens it, painted cells are OR-ed into it as the README
// says, the inspector says which of the two hides a cell, and a file that does not fit is
// refused inside the dialog at once, painted cells or not. Driven headless: the dialog
// through ImGui's input, the trace through the normal request path.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "app/gui/edits/painted_mask.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/npy_bytes.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;
namespace fs = std::filesystem;

namespace {

constexpr int kEnterKey = 257;  // any free slot of io.KeysDown


struct MaskFileFixture {
    HeadlessImGui imgui{1280, 800};
    AppState state = state_for(sized(4, 6, 2));  // no mask preset: only the file and the paint mask
    fs::path tmp = fs::temp_directory_path() / ("attnviz_mask_file_" + std::to_string(std::random_device{}()));

    MaskFileFixture() {
        fs::create_directories(tmp);
        ImGui::GetIO().KeyMap[ImGuiKey_Enter] = kEnterKey;
        state.session.tokens_from_sentence = false;
        state.settings.hint_seen = true;
    }
    ~MaskFileFixture() {
        std::error_code ec;
        fs::remove_all(tmp, ec);
    }
    std::string write(const std::string& name, const std::string& bytes) {
        const fs::path p = tmp / name;
        std::ofstream(p, std::ios::binary) << bytes;
        return p.string();
    }
    // File > Open mask, `path` typed, Enter: the frames a user's dialog takes.
    void open_mask(const std::string& path) {
        open_path_dialog(state.jobs.dialog, DialogState::Kind::OpenMask, path);
        for (int i = 0; i < 3; ++i) imgui.frame(state);
        ImGui::GetIO().KeysDown[kEnterKey] = true;
        imgui.frame(state);
        ImGui::GetIO().KeysDown[kEnterKey] = false;
        imgui.frame(state);
    }
    // The session's request computed as the window does after config_changed.
    void recompute() { recompute_session(state); }
    bool masked(int i, int j) const {  // weight of (query i, key j) of item 0, head 0 is exactly 0
        return state.results.trace->find(StepId::AttnWeights)->tensor.at({0, 0, i, j}) == 0.0f;
    }
};

// Column 3 of a 4x4 map masked out, as in the reproduction.
const std::vector<uint8_t> kColumnThree{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

}  // namespace

TEST_CASE("a mask file opened in the window and a painted cell are OR-ed, and the inspector names the source of each") {
    MaskFileFixture f;
    const std::string path = f.write("column3.npy", attn::testing::bool_npy(kColumnThree, "(4, 4)"));
    f.open_mask(path);
    CHECK(f.state.jobs.dialog.kind == DialogState::Kind::None);  // opened: the dialog closed
    REQUIRE(f.state.session.config.mask_file.shape() == std::vector<int64_t>{4, 4});
    CHECK(f.state.session.sources.mask_path == path);
    f.recompute();
    for (int i = 0; i < 4; ++i) CHECK(f.masked(i, 3));
    CHECK_FALSE(f.masked(0, 0));

    // "paint mask" on (t0, t0), then (t0, t3) which the file masks already.
    REQUIRE(paint(f.state.session.painted_mask, 4, 4, 0, 0, PaintReach::Cell));
    REQUIRE(paint(f.state.session.painted_mask, 4, 4, 0, 3, PaintReach::Cell));
    f.recompute();
    CHECK(f.masked(0, 0));
    for (int i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(f.masked(i, 3));  // the file's column stays masked under the paint
        if (i > 0) CHECK_FALSE(f.masked(i, 0));
    }
    CHECK(f.state.results.trace->config.mask_file_path == path + " + painted in the window");

    const MaskOrigins origins{&f.state.session.config, &f.state.session.painted_mask};
    const AttentionConfig& traced = f.state.results.trace->config;
    const MaskedBy painted_only = masked_by(origins, traced, 0, 1, 0, 0);
    CHECK(painted_only.painted);
    CHECK_FALSE(painted_only.file);
    const MaskedBy file_only = masked_by(origins, traced, 0, 1, 2, 3);
    CHECK(file_only.file);
    CHECK_FALSE(file_only.painted);
    const MaskedBy both = masked_by(origins, traced, 0, 0, 0, 3);
    CHECK(both.file);
    CHECK(both.painted);
    const MaskedBy neither = masked_by(origins, traced, 0, 0, 1, 1);
    CHECK_FALSE(neither.file);
    CHECK_FALSE(neither.painted);

    // The inspector on the painted cell of attn_masked says it was painted, not the file.
    f.state.ui.playback.set_position(f.state.results.trace->index_of(StepId::AttnMasked), 1.0f);
    f.state.ui.canvas.pinned = CellRef{f.state.results.trace->index_of(StepId::AttnMasked), 0, 0, 0};
    f.imgui.frame(f.state);
    f.imgui.frame(f.state);
    const std::string inspector = drawn_text(text::label("window.inspector"));
    CHECK(shows(inspector, english(Message("inspector.mask.reason.painted"))));
    CHECK_FALSE(shows(inspector, english(Message("inspector.mask.reason.file_boolean"))));
    f.state.ui.canvas.pinned = CellRef{f.state.results.trace->index_of(StepId::AttnMasked), 0, 2, 3};
    f.imgui.frame(f.state);
    f.imgui.frame(f.state);
    CHECK(shows(drawn_text(text::label("window.inspector")), english(Message("inspector.mask.reason.file_boolean"))));
}

TEST_CASE("a mask file that cannot broadcast is refused in the dialog at once, painted cells or not") {
    MaskFileFixture f;
    const std::string path = f.write("wrong.npy", attn::testing::bool_npy(std::vector<uint8_t>(21, 0), "(3, 7)"));
    SUBCASE("with painted cells") { REQUIRE(paint(f.state.session.painted_mask, 4, 4, 1, 1, PaintReach::Cell)); }
    SUBCASE("without") {}
    const Session before = f.state.session;
    f.open_mask(path);
    CHECK(f.state.jobs.dialog.kind == DialogState::Kind::OpenMask);  // still open, with the reason
    const Message& why = f.state.jobs.dialog.error;
    REQUIRE(why.id == "error.problem.in_file");
    CHECK(english(why).find("wrong.npy") != std::string::npos);
    f.imgui.frame(f.state);
    CHECK(shows(drawn_text(text::label("dialog.open_mask")), english(why)));
    CHECK(f.state.session.config.mask_file.empty());
    CHECK(f.state.session.sources.mask_path.empty());
    CHECK(f.state.session.painted_mask == before.painted_mask);
}

TEST_CASE("forgetting the files or dropping the mask file takes the file's mask away, not only its name") {
    MaskFileFixture f;
    const std::string path = f.write("column3.npy", attn::testing::bool_npy(kColumnThree, "(4, 4)"));
    REQUIRE(open_mask_file(f.state.session, path).empty());
    SUBCASE("File > Forget input files") { drop_mask_file(f.state.session, true); }
    SUBCASE("the mask section's drop button") { drop_mask_file(f.state.session, false); }
    CHECK(f.state.session.config.mask_file.empty());
    CHECK(f.state.session.sources.mask_path.empty());
    f.recompute();
    CHECK_FALSE(f.masked(0, 3));
}
