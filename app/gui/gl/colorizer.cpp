#include <epoxy/gl.h>

#include "app/gui/gl/colorizer.h"

#include <string>

#include "app/gui/gl/shader_sources.h"

namespace attn::gui::gl {

namespace {

// heatmap_frag.glsl with `define` after its #version line.
std::string with_define(const char* source, const char* define) {
    std::string text = source;
    const size_t line_end = text.find('\n');
    return text.insert(line_end == std::string::npos ? text.size() : line_end + 1, std::string("#define ") + define + "\n");
}

}  // namespace

Colorizer::Colorizer()
    : finite_(shaders::heatmap_vert, with_define(shaders::heatmap_frag, "FINITE_VALUES 1").c_str()),
      sharp_(shaders::heatmap_vert, shaders::heatmap_frag),
      smooth_(shaders::heatmap_vert, with_define(shaders::heatmap_frag, "SMOOTH_CELLS 1").c_str()) {
    const auto div = colormap_table(ColormapKind::Diverging);
    const auto seq = colormap_table(ColormapKind::Sequential);
    const auto neutral = colormap_table(ColormapKind::Neutral);
    diverging_ = Texture(Texture::Format::RGBA8, 256, 1, div.data(), /*linear=*/true);
    sequential_ = Texture(Texture::Format::RGBA8, 256, 1, seq.data(), /*linear=*/true);
    neutral_ = Texture(Texture::Format::RGBA8, 256, 1, neutral.data(), /*linear=*/true);
}

Texture Colorizer::upload(const float* values, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return {};
    return Texture(Texture::Format::R32F, cols, rows, values);
}

void Colorizer::add_image(ImDrawList& list, const Texture& values, const HeatmapColouring& colouring, ImVec2 a, ImVec2 b,
                          ImVec2 uv0, ImVec2 uv1, ImU32 tint) {
    if (!colouring.colorizer || !colouring.colorizer->valid()) return;
    list.AddCallback(&Colorizer::use_for_next_quad, const_cast<HeatmapColouring*>(&colouring));
    list.AddImage(values.imgui_id(), a, b, uv0, uv1, tint);
    list.AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void Colorizer::use_for_next_quad(const ImDrawList*, const ImDrawCmd* command) {
    const auto& c = *static_cast<const HeatmapColouring*>(command->UserCallbackData);
    const Colorizer& self = *c.colorizer;
    // ImGui's program is in use here: its projection, so the quad lands on the same pixels.
    GLint imgui_program = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &imgui_program);
    float projection[16] = {};
    glGetUniformfv(static_cast<GLuint>(imgui_program), glGetUniformLocation(static_cast<GLuint>(imgui_program), "ProjMtx"),
                   projection);
    const ShaderProgram& program = c.cell_px >= 4 ? self.smooth_ : c.finite ? self.finite_ : self.sharp_;
    program.use();
    program.set_mat4("u_projection", projection);
    program.set_int("u_values", 0);  // ImGui binds the draw command's texture to unit 0
    program.set_int("u_colormap", 1);
    program.set_float("u_vmin", c.vmin);
    program.set_float("u_vmax", c.vmax);
    const float mask_rgba[4] = {c.masked.r, c.masked.g, c.masked.b, 1.0f};
    program.set_vec4("u_masked_color", mask_rgba);
    const float hatch_rgba[4] = {c.hatch.r, c.hatch.g, c.hatch.b, 1.0f};
    program.set_vec4("u_hatch_color", hatch_rgba);
    program.set_int("u_cell_px", c.cell_px);
    self.table(c.kind).bind(1);
    glActiveTexture(GL_TEXTURE0);
    // ImGui's vertex buffer is bound; point this program's attributes (locations 0..2) at it.
    const auto stride = static_cast<GLsizei>(sizeof(ImDrawVert));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(IM_OFFSETOF(ImDrawVert, pos)));
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(IM_OFFSETOF(ImDrawVert, uv)));
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<const void*>(IM_OFFSETOF(ImDrawVert, col)));
}

}  // namespace attn::gui::gl
