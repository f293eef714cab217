// Helpers for headless view tests: an ImGui context with a display size and built fonts
// (no window, no GL), a state computed by the real worker, and the text a window drew,
// read back from its draw list.
#pragma once

#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "app/gui/state/app_state.h"
#include "app/gui/views/frame.h"
#include "app/io/model_loader.h"

namespace attn::gui::testing {

struct HeadlessImGui {
    ImGuiContext* ctx;
    Fonts fonts;
    float scale = 1.0f;  // type and widgets, as the UI scale (and presentation's 1.5) make them
    HeadlessImGui(float w, float h, float type_scale = 1.0f) : ctx(ImGui::CreateContext()), scale(type_scale) {
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(w, h);
        io.DeltaTime = 1.0f / 60.0f;
        fonts = load_fonts(scale);
        unsigned char* pixels = nullptr;
        int tw = 0, th = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
        apply_theme(false, scale);
    }
    ~HeadlessImGui() { ImGui::DestroyContext(ctx); }
    HeadlessImGui(const HeadlessImGui&) = delete;
    HeadlessImGui& operator=(const HeadlessImGui&) = delete;
    // One whole frame of the UI; returns what the user asked for.
    Actions frame(AppState& state, bool presentation = false, bool canvas_only = false) {
        ImGui::NewFrame();
        FrameContext fc;
        fc.fonts = fonts;
        fc.scale = scale;
        fc.canvas_only = canvas_only;
        fc.presentation_header = presentation;
        const Actions actions = draw_frame(state, fc);
        ImGui::Render();
        return actions;
    }
};

// `c` computed by the real worker, as the window's first request for it.
inline ComputeResult computed(const AttentionConfig& c) {
    ComputeRequest request;
    request.config = c;
    request.max_extent = 256;
    return ComputeWorker::compute(request, 1);
}

// The session's request (make_request) computed and accepted, as the window does after
// config_changed.
inline void recompute_session(AppState& state) {
    const std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE_MESSAGE(request, english(state.session.config_message));
    ComputeRequest r = *request;
    r.max_extent = 256;
    const ComputeResult result = ComputeWorker::compute(r, 2);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    accept_result(state, result, 0.0);
}

// A state holding the trace of `c`, as the window has it after the worker's first result.
inline AppState state_for(const AttentionConfig& c) {
    AppState state;
    const ComputeResult result = computed(c);
    state.session.config = c;
    if (result.error.empty()) accept_result(state, result, 0.0);
    return state;
}

// A state holding layer `layer` of a trained model on its example sentence, as the
// window computes it.
inline AppState state_for_model(const char* name, int layer) {
    Result<std::shared_ptr<const Model>> model = io::load_model(name);
    REQUIRE_MESSAGE(model.ok(), model.error());
    ComputeRequest request;
    request.model = model.value();
    request.model_layer = layer;
    request.model_sentence = model.value()->spec.example;
    request.max_extent = 256;
    const auto computed = ComputeWorker::compute(request, 1);
    REQUIRE_MESSAGE(computed.error.empty(), computed.error);
    AppState state;
    accept_result(state, computed, 0.0);
    return state;
}

// The window named `name` if it was drawn in the last frame.
inline const ImGuiWindow* drawn_window(const char* name) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w && w->Active ? w : nullptr;
}

// The characters drawn into `list`, in drawing order. Every glyph is a quad whose first
// vertex carries the glyph's top-left atlas coordinate, unique in the atlas; spaces draw
// nothing, so the text comes back without them (compare with without_spaces()).
inline std::string text_of(const ImDrawList& list) {
    std::map<std::pair<float, float>, unsigned> glyph_at;
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) glyph_at[{g.U0, g.V0}] = g.Codepoint;
    std::string text;
    const ImVector<ImDrawVert>& v = list.VtxBuffer;
    for (int i = 0; i + 3 < v.Size; ++i) {
        const auto it = glyph_at.find({v[i].uv.x, v[i].uv.y});
        if (it == glyph_at.end()) continue;
        char utf8[5] = {};
        ImTextCharToUtf8(utf8, it->second);
        text += utf8;
        i += 3;  // the quad's other corners
    }
    return text;
}

// The text drawn by window `name` and its child windows in the last frame ("" when it
// was not drawn).
inline std::string drawn_text(const char* name) {
    std::string text;
    const ImGuiWindow* root = drawn_window(name);
    if (!root) return text;
    ImGuiContext& g = *GImGui;
    for (const ImGuiWindow* w : g.Windows)
        if (w->Active && (w == root || w->RootWindow == root)) text += text_of(*w->DrawList);
    return text;
}

inline std::string without_spaces(const std::string& s) {
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '\n') out += c;
    return out;
}

// True when `haystack` (drawn text) shows `needle`, spaces ignored.
inline bool shows(const std::string& haystack, const std::string& needle) {
    return haystack.find(without_spaces(needle)) != std::string::npos;
}

}  // namespace attn::gui::testing
