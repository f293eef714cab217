// the articles' option controls, driven headless one widget at a time (tests/gui/controls_driver.h):
// each change must arrive in the session's configuration, the request made from it must
// validate, and a choice the core refuses must be impossible to make.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/state/model_choice.h"
#include "app/io/npy.h"
#include "app/text/languages.h"
#include "core/repeat_kv.h"
#include "tests/gui/controls_driver.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using attn::test_configs::sized;

namespace {

// The random weights' controls on a small self-attention problem, drawn once.
AppState options_state(int seq_len = 5, int hidden_dim = 8, int heads = 4) {
    AttentionConfig c;
    c.seq_len = seq_len;
    c.hidden_dim = hidden_dim;
    c.num_heads = heads;
    AppState state = state_for(c);
    state.session.sentence.clear();
    state.session.tokens_from_sentence = false;
    return state;
}

// The request the window would send now; fails the test (with the message) when refused.
AttentionConfig requested(AppState& state) {
    const std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE_MESSAGE(request.has_value(), english(state.session.config_message));
    return request->config;
}

// The trace of what the window would send now.
std::shared_ptr<const Trace> computed(AppState& state) {
    ComputeRequest request;
    request.config = requested(state);
    request.max_extent = 64;
    const ComputeResult result = ComputeWorker::compute(request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    return result.trace;
}

constexpr const char* kSections[] = {"controls.section.mask",        "controls.section.scores", "controls.section.rope",
                                     "controls.section.projections", "controls.section.mha",    "controls.section.precision"};

void open_sections(const ControlsDriver& driver, AppState& state) {
    driver.frame(state);
    for (const char* key : kSections) ControlsDriver::set_section_open(key);
    driver.frame(state);
}

}  // namespace

TEST_CASE("the mask presets combine as checkboxes, and every combination validates") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    AppState state = options_state();
    open_sections(driver, state);

    CHECK(driver.tick(state, "controls.mask.preset.causal"));
    CHECK(state.session.config.mask_spec().presets.causal);
    CHECK(requested(state).mask_spec().presets.causal);

    CHECK(driver.tick(state, "controls.mask.preset.left_padding"));
    MaskPresets presets = requested(state).mask_spec().presets;
    CHECK(presets.causal);
    CHECK(presets.left_padding);
    CHECK(requested(state).valid_lengths.size() == 1);
    CHECK(driver.rect_of(state, ControlsDriver::key_id("controls.valid_length")));  // its slider appears

    CHECK(driver.tick(state, "controls.mask.preset.window"));
    CHECK(requested(state).mask_spec().presets.window);
    CHECK(requested(state).window >= 1);
    REQUIRE(driver.rect_of(state, ControlsDriver::key_id("controls.window")));
    CHECK(driver.type_into(state, ControlsDriver::key_id("controls.window"), "2", true));
    CHECK(requested(state).window == 2);

    // Unticking everything is "no mask", and the valid-length slider goes away.
    for (const char* key : {"controls.mask.preset.causal", "controls.mask.preset.left_padding", "controls.mask.preset.window"})
        driver.tick(state, key);
    CHECK_FALSE(requested(state).has_mask());
    CHECK_FALSE(driver.rect_of(state, ControlsDriver::key_id("controls.valid_length")));
}

TEST_CASE("valid length 0 can be chosen, and the fully masked row is what the fill says") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    AppState state = options_state(4, 8, 2);
    state.session.config.batch = 2;
    state.session.valid_lengths = {4, 4};
    open_sections(driver, state);
    REQUIRE(driver.tick(state, "controls.mask.preset.padding"));
    // The slider edits the item on screen: item 1.
    state.session.batch_item = 1;
    driver.frame(state);
    CHECK(driver.type_into(state, ControlsDriver::key_id("controls.valid_length"), "0", true));
    CHECK(state.session.valid_lengths == std::vector<int>{4, 0});
    CHECK(requested(state).valid_lengths == std::vector<int>{4, 0});

    const int S = 4;
    SUBCASE("-inf: zeros, flagged, and the controls say what PyTorch would give") {
        const auto trace = computed(state);
        const Step* weights = trace->find(StepId::AttnWeights);
        REQUIRE(weights);
        for (int h = 0; h < 2; ++h)
            for (int i = 0; i < 4; ++i) {
                CAPTURE(h);
                CAPTURE(i);
                for (int j = 0; j < S; ++j) CHECK(weights->tensor.at({1, h, i, j}) == 0.0f);
            }
        CHECK(trace->count_fully_masked_rows() == 2 * 4);
        // The whole window draws it, and the controls name the rows.
        AppState shown = state;
        ComputeRequest request;
        request.config = requested(state);
        request.batch_item = 1;
        accept_result(shown, ComputeWorker::compute(request, 1), 0.0);
        REQUIRE(shown.results.trace);
        imgui.frame(shown);
        driver.frame(shown);
        // 4 query rows (of item 1), each masked in both heads: a learner's "rows" are queries.
        CHECK(shows(drawn_text(ControlsDriver::kWindow), text::trf("controls.fully_masked.zeros", {{"rows", 4}})));
    }
    SUBCASE("-1e20 and min: every key gets 1/S, as in PyTorch") {
        for (const char* fill : {"controls.fill.neg_1e20", "controls.fill.min"}) {
            CAPTURE(fill);
            CHECK(driver.choose(state, "###controls.fill", std::string("###") + fill));
            const auto trace = computed(state);
            const Step* weights = trace->find(StepId::AttnWeights);
            REQUIRE(weights);
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < S; ++j) CHECK(weights->tensor.at({1, 0, i, j}) == doctest::Approx(1.0 / S).epsilon(1e-6));
            // Item 0 keeps its real keys: row 0 is not uniform.
            CHECK(weights->tensor.at({0, 0, 0, 0}) != doctest::Approx(1.0 / S).epsilon(1e-6));
        }
        CHECK(state.session.config.mask_fill.kind == MaskFillKind::DtypeLowest);
    }
}

TEST_CASE("the fill, the scale and the mask-before-scale order are set by their controls") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    AppState state = options_state();
    open_sections(driver, state);
    driver.tick(state, "controls.mask.preset.causal");

    CHECK(driver.choose(state, "###controls.fill", "###controls.fill.value"));
    REQUIRE(state.session.config.mask_fill.kind == MaskFillKind::Value);
    CHECK(driver.type_into(state, ControlsDriver::key_id("controls.fill.number"), "-1000", false));
    CHECK(requested(state).mask_fill.value == -1000.0f);
    // A value that is not a number is not taken; the note says so.
    driver.type_into(state, ControlsDriver::key_id("controls.fill.number"), "inf", false);
    CHECK(requested(state).mask_fill.value == -1000.0f);

    CHECK(driver.choose(state, "###controls.scale", "###controls.scale.hidden"));
    CHECK(requested(state).scale.kind == ScaleKind::Hidden);
    CHECK(driver.choose(state, "###controls.scale", "###controls.scale.none"));
    CHECK(requested(state).scale_factor() == 1.0f);
    CHECK(driver.choose(state, "###controls.scale", "###controls.scale.value"));
    CHECK(driver.type_into(state, ControlsDriver::key_id("controls.scale.number"), "0.25", false));
    CHECK(requested(state).scale.kind == ScaleKind::Value);
    CHECK(requested(state).scale_factor() == 0.25f);

    CHECK(driver.tick(state, "controls.mask_before_scale"));
    CHECK(requested(state).mask_before_scale);
}

TEST_CASE("RoPE is switched on, styled and offset by its controls, and refused for an odd head width") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    SUBCASE("an even head width") {
        AppState state = options_state(5, 8, 2);
        open_sections(driver, state);
        CHECK(driver.tick(state, "controls.rope"));
        CHECK(requested(state).rope);
        CHECK(driver.click(state, ControlsDriver::key_id("controls.rope_style.interleaved"), ControlsDriver::kWindow, true));
        CHECK(requested(state).rope_style == RopeStyle::Interleaved);
        CHECK(driver.type_into(state, ControlsDriver::key_id("controls.position_offset"), "7", false));
        CHECK(requested(state).position_offset == 7);
        CHECK(driver.type_into(state, ControlsDriver::key_id("controls.rope_base"), "500000", true));
        CHECK(requested(state).rope_base == 500000.0);
        // A negative offset snaps to 0.
        driver.type_into(state, ControlsDriver::key_id("controls.position_offset"), "-3", false);
        CHECK(requested(state).position_offset == 0);
        // Turning on cross-attention afterwards turns RoPE off, with a note.
        AppState crossed = state;
        crossed.session.config.cross_attention = true;
        crossed.session.config.kv_len = 3;
        CHECK(snap_options_to_valid(crossed.session));
        CHECK_FALSE(crossed.session.config.rope);
        CHECK(crossed.session.option_note.id == "controls.snap.rope_off");
    }
    SUBCASE("d_h = 3 cannot be rotated in pairs: the box stays unticked") {
        AppState state = options_state(5, 6, 2);
        open_sections(driver, state);
        CHECK_FALSE(driver.tick(state, "controls.rope"));
        CHECK_FALSE(state.session.config.rope);
        CHECK(shows(drawn_text(ControlsDriver::kWindow), english(refusal_of(state.session, [](AttentionConfig& x) { x.rope = true; }))));
    }
}

TEST_CASE("key/value heads offer only the divisors of num_heads, and follow num_heads when it changes") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    AppState state = options_state(5, 24, 6);
    open_sections(driver, state);
    const std::string popup = driver.open_combo(state, "###controls.kv_heads");
    REQUIRE(!popup.empty());
    for (int n = 1; n <= 6; ++n) {
        CAPTURE(n);
        CHECK(driver.drawn(state, ControlsDriver::id_of("###kv_heads" + std::to_string(n), popup.c_str()), popup.c_str()) ==
              check_kv_heads(6, n).ok());
    }
    CHECK(driver.choose(state, "###controls.kv_heads", "###kv_heads2"));
    CHECK(requested(state).H_kv() == 2);

    // num_heads 6 -> 4: 2 still divides; 6 -> 5: the nearest divisor at or below 2 is 1.
    CHECK(driver.type_into(state, ControlsDriver::key_id("controls.num_heads"), "4", true));
    CHECK(requested(state).H_kv() == 2);
    CHECK(driver.type_into(state, ControlsDriver::key_id("controls.num_heads"), "3", true));
    CHECK(state.session.config.num_kv_heads == 1);
    CHECK(state.session.option_note.id == "controls.snap.kv_heads");
    CHECK(requested(state).H_kv() == 1);

    SUBCASE("the stacked variant has a key module per head: sharing is greyed out") {
        AppState stacked = options_state(5, 8, 4);
        stacked.session.config.variant = Variant::Stacked;
        open_sections(driver, stacked);
        CHECK_FALSE(driver.choose(stacked, "###controls.kv_heads", "###kv_heads2"));
        CHECK(stacked.session.config.H_kv() == 4);
    }
}

TEST_CASE("input width, biases, output projection, nn.MultiheadAttention extras and dtype are set by their controls") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    AppState state = options_state(5, 8, 2);
    open_sections(driver, state);

    CHECK(driver.type_into(state, ControlsDriver::key_id("controls.input_dim"), "3", true));
    CHECK(requested(state).d_in() == 3);

    CHECK(driver.tick(state, "controls.bias.qkv"));
    CHECK_FALSE(requested(state).qkv_bias());
    CHECK(requested(state).out_bias());
    CHECK(driver.tick(state, "controls.bias.out"));
    CHECK_FALSE(requested(state).out_bias());
    CHECK_FALSE(requested(state).bias);  // both off is --no-bias
    CHECK(driver.tick(state, "controls.bias.qkv"));
    CHECK(requested(state).qkv_bias());
    CHECK_FALSE(requested(state).out_bias());

    CHECK(driver.tick(state, "controls.no_out_proj"));
    CHECK(requested(state).no_out_proj);

    CHECK(driver.tick(state, "controls.add_bias_kv"));
    CHECK(driver.tick(state, "controls.add_zero_attn"));
    CHECK(driver.tick(state, "controls.average_weights"));
    AttentionConfig c = requested(state);
    CHECK(c.add_bias_kv);
    CHECK(c.add_zero_attn);
    CHECK(c.average_weights);
    CHECK(c.S_total() == 5 + 2);

    CHECK(driver.click(state, ControlsDriver::key_id("controls.dtype.bfloat16"), ControlsDriver::kWindow, true));
    CHECK(requested(state).dtype == DType::BFloat16);
    CHECK(driver.click(state, ControlsDriver::key_id("controls.dtype.float16"), ControlsDriver::kWindow, true));
    CHECK(requested(state).dtype == DType::Float16);
    // Everything together still computes.
    CHECK(computed(state)->find(StepId::AttnWeightsAvg));

    SUBCASE("extra key columns are nn.MultiheadAttention's split layout: the other variants are greyed out") {
        CHECK_FALSE(driver.choose(state, "###controls.variant", "###controls.variant.stacked"));
        CHECK(state.session.config.variant == Variant::Split);
    }
}

TEST_CASE("what a weights file or a trained model decides is greyed out, with the reason") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    AppState state = options_state(5, 8, 4);
    state.session.sources.weights_path = "/tmp/controls9-not-read.safetensors";  // only its presence matters here
    open_sections(driver, state);
    CHECK_FALSE(driver.tick(state, "controls.bias.qkv"));
    CHECK_FALSE(driver.tick(state, "controls.add_bias_kv"));
    CHECK(state.session.config.qkv_bias());
    CHECK_FALSE(state.session.config.add_bias_kv);
    // Hovering says why.
    const std::optional<ImRect> box = driver.rect_of(state, ControlsDriver::key_id("controls.bias.qkv"));
    REQUIRE(box);
    ImGui::GetIO().MousePos = box->GetCenter();
    driver.frame(state);
    driver.frame(state);
    bool tooltip = false;
    for (const ImGuiWindow* w : GImGui->Windows)
        if (w->Active && (w->Flags & ImGuiWindowFlags_Tooltip) && shows(text_of(*w->DrawList), text::trf("controls.fixed_by_weights", {{"button", text::tr("controls.files.forget")}}))) tooltip = true;
    CHECK(tooltip);
    // What the file does not decide stays free.
    CHECK(driver.tick(state, "controls.no_out_proj"));
    CHECK(state.session.config.no_out_proj);
}

TEST_CASE("with a trained model the options show its choices, greyed out, and hovering says why") {
    HeadlessImGui imgui(1280, 3200);
    ControlsDriver driver;
    AppState state = options_state();
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    const AttentionConfig before = state.session.config;
    open_sections(driver, state);
    for (const char* key : {"controls.mask.preset.causal", "controls.mask.preset.window", "controls.rope", "controls.no_out_proj",
                            "controls.add_zero_attn", "controls.average_weights"}) {
        CAPTURE(key);
        CHECK_FALSE(driver.tick(state, key));
    }
    CHECK(state.session.config.mask_spec().presets.causal == before.mask_spec().presets.causal);
    CHECK_FALSE(state.session.config.rope);
    CHECK_FALSE(state.session.config.no_out_proj);
    const std::optional<ImRect> box = driver.rect_of(state, ControlsDriver::key_id("controls.rope"));
    REQUIRE(box);
    ImGui::GetIO().MousePos = box->GetCenter();
    driver.frame(state);
    driver.frame(state);
    bool tooltip = false;
    for (const ImGuiWindow* w : GImGui->Windows)
        if (w->Active && (w->Flags & ImGuiWindowFlags_Tooltip) && shows(text_of(*w->DrawList), text::trf("controls.fixed_by_model", {{"button", text::tr("model.use_random")}}))) tooltip = true;
    CHECK(tooltip);
}

TEST_CASE("sentences of unequal length add padding to the presets chosen, not in place of them") {
    Session session;
    set_mask_presets(session.config, MaskPresets{true, false, false, false});
    session.sentence = "the cat sat | a dog";
    REQUIRE(follow_sentence(session));
    const MaskPresets presets = session.config.mask_spec().presets;
    CHECK(presets.causal);
    CHECK(presets.padding);
    CHECK(session.valid_lengths == std::vector<int>{3, 2});
    SUBCASE("left padding already reads the lengths: nothing is added") {
        Session left;
        set_mask_presets(left.config, MaskPresets{false, false, true, false});
        left.sentence = "the cat sat | a dog";
        REQUIRE(follow_sentence(left));
        CHECK_FALSE(left.config.mask_spec().presets.padding);
        CHECK(left.config.mask_spec().presets.left_padding);
    }
    // One preset alone is stored as `mask`, the form the settings file keeps.
    Session alone;
    set_mask_presets(alone.config, MaskPresets{false, true, false, false});
    CHECK(alone.config.mask == MaskKind::Padding);
    CHECK_FALSE(alone.config.mask_presets.any());
}

TEST_CASE("every step draws at 1024x768 with the options on and every section of the controls open") {
    HeadlessImGui imgui(1024, 768);
    AttentionConfig c = sized(5, 8, 4);
    c.num_kv_heads = 2;
    c.rope = true;
    c.mask_presets.causal = true;
    c.mask_presets.window = true;
    c.window = 2;
    c.mask_fill.kind = MaskFillKind::Value;
    c.mask_fill.value = -1e9f;
    c.scale.kind = ScaleKind::Hidden;
    c.mask_before_scale = true;
    c.no_qkv_bias = true;
    c.average_weights = true;
    c.dtype = DType::BFloat16;
    AppState state = state_for(c);
    REQUIRE(state.results.trace);
    REQUIRE(state.results.trace->find(StepId::KRepeated));
    const uint64_t markers = text::markers_produced();
    imgui.frame(state);
    ImGuiWindow* controls = ImGui::FindWindowByName("##controls_body");
    if (!controls)
        for (ImGuiWindow* w : GImGui->Windows)
            if (std::string(w->Name).find("##controls_body") != std::string::npos) controls = w;
    REQUIRE(controls);
    for (const char* key : kSections) controls->StateStorage.SetInt(controls->GetID((std::string("###") + key).c_str()), 1);
    const int n = state.ui.playback.step_count();
    for (int step = 0; step < n; ++step) {
        CAPTURE(step);
        state.ui.playback.set_position(step, 0.5f);
        imgui.frame(state);
        CHECK(drawn_window("Canvas"));
    }
    // The panel scrolls at this size: what the sections show, top then further down.
    std::string drawn = drawn_text(text::label("window.controls"));
    CHECK(shows(drawn, text::tr("controls.window")));
    for (int scrolled = 0; scrolled < 8; ++scrolled) {
        controls->Scroll.y = std::min(controls->ScrollMax.y, controls->Scroll.y + 300.0f);
        imgui.frame(state);
        drawn += drawn_text(text::label("window.controls"));
    }
    CHECK(shows(drawn, text::tr("controls.rope_base")));
    CHECK(shows(drawn, text::trf("controls.kv_heads.short.gqa", {{"kv_heads", 2}})));
    CHECK(shows(drawn, text::tr("controls.dtype.bfloat16")));
    CHECK(text::markers_produced() == markers);  // every text drawn had its key and parameters
}

TEST_CASE("files are (L, B, E): the checkbox reads a sequence-first query file as PyTorch's batch_first=False") {
    const std::string path = (std::filesystem::temp_directory_path() / "attnviz_seq_first_query.npy").string();
    // (L=3, B=2, E=4): item b's row l is 10 * l + b + d / 10.
    std::vector<float> values;
    for (int l = 0; l < 3; ++l)
        for (int b = 0; b < 2; ++b)
            for (int d = 0; d < 4; ++d) values.push_back(10.0f * l + b + d / 10.0f);
    REQUIRE(io::write_npy(path, Tensor::from_values({3, 2, 4}, {"L", "B", "E"}, values)).ok());
    HeadlessImGui imgui(1200, 3200);
    ControlsDriver driver;
    AppState state;
    state.session.config.hidden_dim = 4;
    state.session.sources.query_path = path;
    state.session.tokens_from_sentence = false;
    driver.frame(state);
    CHECK(driver.tick(state, "controls.files.seq_first"));
    CHECK(state.session.config.seq_first);
    std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE(request);
    ComputeResult result = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    const Tensor& input = result.trace->find(StepId::Input)->tensor;  // (B, L, E)
    CHECK(input.dim(0) == 2);
    CHECK(input.dim(1) == 3);
    CHECK(input.at({1, 2, 0}) == 21.0f);  // item 1, row 2
    std::remove(path.c_str());
}
