#include <epoxy/gl.h>

#include "app/gui/gl/colorizer.h"

#include "app/gui/gl/shader_sources.h"

namespace attn::gui::gl {

Colorizer::Colorizer()
    : program_(shaders::fullscreen_vert, shaders::heatmap_frag), vao_(VertexArray::create()) {
    const auto div = colormap_table(ColormapKind::Diverging);
    const auto seq = colormap_table(ColormapKind::Sequential);
    const auto neutral = colormap_table(ColormapKind::Neutral);
    diverging_ = Texture(Texture::Format::RGBA8, 256, 1, div.data(), /*linear=*/true);
    sequential_ = Texture(Texture::Format::RGBA8, 256, 1, seq.data(), /*linear=*/true);
    neutral_ = Texture(Texture::Format::RGBA8, 256, 1, neutral.data(), /*linear=*/true);
}

Texture Colorizer::bake(const float* values, int rows, int cols, float vmin, float vmax, ColormapKind kind,
                        Rgb masked, Rgb hatch, int cell_px) {
    if (!valid() || rows <= 0 || cols <= 0 || cell_px < 1) return {};
    GLint previous_fbo = 0, viewport[4] = {};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
    glGetIntegerv(GL_VIEWPORT, viewport);
    const GLboolean blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);

    const Texture input(Texture::Format::R32F, cols, rows, values);
    Framebuffer target(cols * cell_px, rows * cell_px);
    Texture out;
    if (target.valid()) {
        target.bind();
        program_.use();
        input.bind(0);
        table(kind).bind(1);
        program_.set_int("u_values", 0);
        program_.set_int("u_colormap", 1);
        program_.set_float("u_vmin", vmin);
        program_.set_float("u_vmax", vmax);
        const float mask_rgba[4] = {masked.r, masked.g, masked.b, 1.0f};
        program_.set_vec4("u_masked_color", mask_rgba);
        const float hatch_rgba[4] = {hatch.r, hatch.g, hatch.b, 1.0f};
        program_.set_vec4("u_hatch_color", hatch_rgba);
        program_.set_int("u_cell_px", cell_px);
        vao_.bind();
        draw_fullscreen_triangle();
        glBindVertexArray(0);
        glUseProgram(0);
        glActiveTexture(GL_TEXTURE0);
        out = target.take_color();
        // Several fragments per cell carry the anti-aliased hatch: sample them smoothly when the
        // picture is magnified (cell edges move by at most one of cell_px fragments).
        if (cell_px >= 4) out.set_linear(true);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous_fbo));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    if (blend) glEnable(GL_BLEND);
    if (scissor) glEnable(GL_SCISSOR_TEST);
    return out;
}

}  // namespace attn::gui::gl
