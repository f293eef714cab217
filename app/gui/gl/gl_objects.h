// Small move-only owners of OpenGL objects. Every gl* call of the front end lives in
// app/gui/gl/ (ImGui's backend aside). Include <epoxy/gl.h> before anything GL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::gui::gl {

// A 2-D texture. Either one float channel (values) or RGBA8 (colours).
class Texture {
public:
    enum class Format { R32F, RGBA8 };
    Texture() = default;
    // Allocates width x height texels; `data` may be null (contents undefined).
    // Row 0 of `data` is texel row 0 (drawn at the top by ImGui with uv0 = (0, 0)).
    Texture(Format format, int width, int height, const void* data, bool linear = false);
    ~Texture();
    Texture(Texture&& other) noexcept;
    Texture& operator=(Texture&& other) noexcept;
    Texture(const Texture&) = delete;
    Texture& operator=(const Texture&) = delete;

    unsigned id() const { return id_; }
    int width() const { return width_; }
    int height() const { return height_; }
    bool valid() const { return id_ != 0; }
    // The handle ImGui::Image and ImDrawList::AddImage expect.
    void* imgui_id() const { return reinterpret_cast<void*>(static_cast<uintptr_t>(id_)); }
    void bind(int unit) const;
    // Linear (smooth when magnified) or nearest (sharp texels) sampling.
    void set_linear(bool linear);
    // An R32F texture's texels (0.., first_row..) from `rows` x `cols` row-major floats.
    void write_rows(int first_row, int rows, int cols, const float* values);

private:
    void release();
    unsigned id_ = 0;
    int width_ = 0, height_ = 0;
};

// A linked vertex + fragment program. Compile and link logs become error().
class ShaderProgram {
public:
    ShaderProgram() = default;
    ShaderProgram(const char* vertex_source, const char* fragment_source);
    ~ShaderProgram();
    ShaderProgram(ShaderProgram&& other) noexcept;
    ShaderProgram& operator=(ShaderProgram&& other) noexcept;
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    bool valid() const { return id_ != 0; }
    const std::string& error() const { return error_; }  // empty when valid
    void use() const;
    void set_int(const char* name, int value) const;
    void set_float(const char* name, float value) const;
    void set_vec4(const char* name, const float* rgba) const;
    void set_mat4(const char* name, const float* column_major) const;

private:
    void release();
    unsigned id_ = 0;
    std::string error_;
};

// A framebuffer with one RGBA8 colour texture, to draw off-screen at any size.
class Framebuffer {
public:
    Framebuffer() = default;
    Framebuffer(int width, int height);
    ~Framebuffer();
    Framebuffer(Framebuffer&& other) noexcept;
    Framebuffer& operator=(Framebuffer&& other) noexcept;
    Framebuffer(const Framebuffer&) = delete;
    Framebuffer& operator=(const Framebuffer&) = delete;

    bool valid() const { return id_ != 0; }
    int width() const { return color_.width(); }
    int height() const { return color_.height(); }
    // Binds for drawing and sets the viewport to the whole framebuffer.
    void bind() const;
    static void bind_default(int width, int height);
    // Hands the colour texture over (the framebuffer becomes empty).
    Texture take_color();
    // The colour texture, to draw what was drawn here (rows bottom-up, as GL draws them).
    const Texture& color() const { return color_; }
    // RGBA8 pixels, top row first (glReadPixels rows are bottom-up; this flips them).
    std::vector<unsigned char> read_rgba() const;

private:
    void release();
    unsigned id_ = 0;
    Texture color_;
};

// Small helpers that keep raw gl* calls inside this folder.
void clear_color(float r, float g, float b, float a);
void finish();                      // glFinish: wait for the GPU (for timing)
int max_texture_size();
std::string renderer_name();        // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"

}  // namespace attn::gui::gl
