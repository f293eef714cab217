#include <epoxy/gl.h>

#include "app/gui/gl/offscreen.h"
#include "app/gui/gl/shader_sources.h"

#include <imgui.h>

#include <cfloat>
#include <backends/imgui_impl_opengl3.h>

namespace attn::gui {

namespace {
// Switches ImGui contexts for the lifetime of the guard.
struct ContextGuard {
    ImGuiContext* previous;
    explicit ContextGuard(ImGuiContext* use) : previous(ImGui::GetCurrentContext()) { ImGui::SetCurrentContext(use); }
    ~ContextGuard() { ImGui::SetCurrentContext(previous); }
};
}  // namespace

OffscreenRenderer::OffscreenRenderer(int width, int height, float scale, bool light, float type_scale)
    : scale_(scale * type_scale), light_(light) {
    const int pw = static_cast<int>(static_cast<float>(width) * scale);
    const int ph = static_cast<int>(static_cast<float>(height) * scale);
    const int limit = gl::max_texture_size();
    if (pw <= 0 || ph <= 0 || pw > limit || ph > limit) {
        error_ = Message("export.image_too_large", {{"width", pw}, {"height", ph}, {"limit", limit}});
        return;
    }
    fbo_ = gl::Framebuffer(pw, ph);
    if (!fbo_.valid()) {
        error_ = Message("export.no_framebuffer", {{"width", pw}, {"height", ph}});

        return;
    }
    previous_ = ImGui::GetCurrentContext();
    context_ = ImGui::CreateContext(nullptr);
    ContextGuard guard(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // an off-screen frame has no layout to remember
    io.DisplaySize = ImVec2(static_cast<float>(pw), static_cast<float>(ph));
    fonts_ = load_fonts(scale_);
    apply_theme(light, scale_);
    ImGui_ImplOpenGL3_Init(shaders::glsl_version);
}

OffscreenRenderer::~OffscreenRenderer() {
    if (!context_) return;
    {
        ContextGuard guard(context_);
        ImGui_ImplOpenGL3_Shutdown();
    }
    ImGui::DestroyContext(context_);
    // DestroyContext clears the current context when it was this one.
    if (ImGui::GetCurrentContext() == nullptr && previous_ != context_) ImGui::SetCurrentContext(previous_);
}

std::pair<int, int> OffscreenRenderer::font_atlas_size() const {
    if (!context_) return {0, 0};
    ContextGuard guard(context_);
    const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    return {atlas.TexWidth, atlas.TexHeight};
}

void OffscreenRenderer::render(const std::function<void(const Fonts&)>& build, float dt) {
    if (!context_) return;
    ContextGuard guard(context_);
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = dt > 0.0f ? dt : 1.0f / 60.0f;
    io.DisplaySize = ImVec2(static_cast<float>(fbo_.width()), static_cast<float>(fbo_.height()));
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    build(fonts_);
    ImGui::Render();
    fbo_.bind();
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    gl::clear_color(bg.x, bg.y, bg.z, 1.0f);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace attn::gui
