#include "app/gui/gl/line_picture.h"

#include <epoxy/gl.h>
#include <backends/imgui_impl_opengl3.h>

#include <cmath>

namespace attn::gui {

void LinePicture::draw(ImDrawList& into, const Rect& area, uint32_t background, uint64_t key,
                       const std::function<void(ImDrawList&)>& draw_lines) {
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const int w = static_cast<int>(std::ceil(area.w * scale.x)), h = static_cast<int>(std::ceil(area.h * scale.y));
    if (ImGui::GetIO().BackendRendererUserData == nullptr || w <= 0 || h <= 0) {
        draw_lines(into);
        return;
    }
    if (!target_.valid() || target_.width() != w || target_.height() != h) {
        target_ = gl::Framebuffer(w, h);
        drawn_ = false;
    }
    if (!target_.valid()) {
        draw_lines(into);
        return;
    }
    if (!drawn_ || key != key_) redraw(area, background, draw_lines);
    key_ = key;
    drawn_ = true;
    // GL's rows run bottom-up: the image's top is its last row.
    into.AddImage(target_.color().imgui_id(), ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), ImVec2(0, 1), ImVec2(1, 0));
}

void LinePicture::redraw(const Rect& area, uint32_t background, const std::function<void(ImDrawList&)>& draw_lines) {
    ImDrawList list(ImGui::GetDrawListSharedData());
    list._ResetForNewFrame();
    list.PushClipRect(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()));
    list.PushTextureID(ImGui::GetIO().Fonts->TexID);  // anti-aliased lines read the atlas
    draw_lines(list);
    ImDrawList* lists[] = {&list};
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = list.VtxBuffer.Size;
    data.TotalIdxCount = list.IdxBuffer.Size;
    data.DisplayPos = ImVec2(area.x, area.y);
    data.DisplaySize = ImVec2(area.w, area.h);
    data.FramebufferScale = ImGui::GetIO().DisplayFramebufferScale;
    // The frame being built may be drawn into another framebuffer (exports): put it back.
    GLint previous = 0, viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    glGetIntegerv(GL_VIEWPORT, viewport);
    target_.bind();
    const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(background);
    gl::clear_color(bg.x, bg.y, bg.z, 1.0f);
    ImGui_ImplOpenGL3_RenderDrawData(&data);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
}

}  // namespace attn::gui
