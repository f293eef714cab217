// Move-only OpenGL object owners. See gl_objects.h.
#include <epoxy/gl.h>

#include "app/gui/gl/gl_objects.h"

#include <cstring>
#include <utility>

namespace attn::gui::gl {

// ---------------------------------------------------------------- Texture
Texture::Texture(Format format, int width, int height, const void* data, bool linear)
    : width_(width), height_(height) {
    glGenTextures(1, &id_);
    glBindTexture(GL_TEXTURE_2D, id_);
    const GLint filter = linear ? GL_LINEAR : GL_NEAREST;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, format == Format::R32F ? 4 : 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    if (format == Format::R32F) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, height, 0, GL_RED, GL_FLOAT, data);
    } else {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
    }
}

Texture::~Texture() { release(); }

void Texture::set_linear(bool linear) {
    if (!id_) return;
    glBindTexture(GL_TEXTURE_2D, id_);
    const GLint filter = linear ? GL_LINEAR : GL_NEAREST;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
}

void Texture::write_rows(int first_row, int rows, int cols, const float* values) {
    if (!id_ || rows <= 0 || cols <= 0) return;
    glBindTexture(GL_TEXTURE_2D, id_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, first_row, cols, rows, GL_RED, GL_FLOAT, values);
}

Texture::Texture(Texture&& other) noexcept
    : id_(std::exchange(other.id_, 0u)), width_(other.width_), height_(other.height_) {}

Texture& Texture::operator=(Texture&& other) noexcept {
    if (this != &other) {
        release();
        id_ = std::exchange(other.id_, 0u);
        width_ = other.width_;
        height_ = other.height_;
    }
    return *this;
}

void Texture::bind(int unit) const {
    glActiveTexture(static_cast<GLenum>(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_2D, id_);
}

void Texture::release() {
    if (id_ != 0) glDeleteTextures(1, &id_);
    id_ = 0;
}

// ---------------------------------------------------------------- ShaderProgram
namespace {

unsigned compile_stage(GLenum stage, const char* source, std::string& error) {
    const GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
        error = std::string(stage == GL_VERTEX_SHADER ? "vertex" : "fragment") +
                " shader failed to compile: " + log;
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(const char* vertex_source, const char* fragment_source) {
    const unsigned vs = compile_stage(GL_VERTEX_SHADER, vertex_source, error_);
    if (vs == 0) return;
    const unsigned fs = compile_stage(GL_FRAGMENT_SHADER, fragment_source, error_);
    if (fs == 0) {
        glDeleteShader(vs);
        return;
    }
    id_ = glCreateProgram();
    glAttachShader(id_, vs);
    glAttachShader(id_, fs);
    glLinkProgram(id_);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(id_, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetProgramInfoLog(id_, sizeof(log), nullptr, log);
        error_ = std::string("shader program failed to link: ") + log;
        release();
    }
}

ShaderProgram::~ShaderProgram() { release(); }

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept
    : id_(std::exchange(other.id_, 0u)), error_(std::move(other.error_)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
    if (this != &other) {
        release();
        id_ = std::exchange(other.id_, 0u);
        error_ = std::move(other.error_);
    }
    return *this;
}

void ShaderProgram::use() const { glUseProgram(id_); }
void ShaderProgram::set_int(const char* name, int value) const {
    glUniform1i(glGetUniformLocation(id_, name), value);
}
void ShaderProgram::set_float(const char* name, float value) const {
    glUniform1f(glGetUniformLocation(id_, name), value);
}
void ShaderProgram::set_vec4(const char* name, const float* rgba) const {
    glUniform4fv(glGetUniformLocation(id_, name), 1, rgba);
}
void ShaderProgram::set_mat4(const char* name, const float* column_major) const {
    glUniformMatrix4fv(glGetUniformLocation(id_, name), 1, GL_FALSE, column_major);
}
void ShaderProgram::release() {
    if (id_ != 0) glDeleteProgram(id_);
    id_ = 0;
}

// ---------------------------------------------------------------- Framebuffer
Framebuffer::Framebuffer(int width, int height)
    : color_(Texture::Format::RGBA8, width, height, nullptr) {
    glGenFramebuffers(1, &id_);
    glBindFramebuffer(GL_FRAMEBUFFER, id_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_.id(), 0);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!complete) {
        release();
        color_ = Texture();
    }
}

Framebuffer::~Framebuffer() { release(); }

Framebuffer::Framebuffer(Framebuffer&& other) noexcept
    : id_(std::exchange(other.id_, 0u)), color_(std::move(other.color_)) {}

Framebuffer& Framebuffer::operator=(Framebuffer&& other) noexcept {
    if (this != &other) {
        release();
        id_ = std::exchange(other.id_, 0u);
        color_ = std::move(other.color_);
    }
    return *this;
}

void Framebuffer::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, id_);
    glViewport(0, 0, color_.width(), color_.height());
}

void Framebuffer::bind_default(int width, int height) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, width, height);
}

Texture Framebuffer::take_color() {
    Texture out = std::move(color_);
    release();
    return out;
}

std::vector<unsigned char> Framebuffer::read_rgba() const {
    const int w = color_.width(), h = color_.height();
    std::vector<unsigned char> bottom_up(static_cast<size_t>(w) * h * 4);
    glBindFramebuffer(GL_FRAMEBUFFER, id_);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
    std::vector<unsigned char> top_down(bottom_up.size());
    const size_t row = static_cast<size_t>(w) * 4;
    for (int y = 0; y < h; ++y) {
        std::memcpy(&top_down[static_cast<size_t>(y) * row],
                    &bottom_up[static_cast<size_t>(h - 1 - y) * row], row);
    }
    return top_down;
}

void Framebuffer::release() {
    if (id_ != 0) glDeleteFramebuffers(1, &id_);
    id_ = 0;
}

// ---------------------------------------------------------------- helpers
void clear_color(float r, float g, float b, float a) {
    glClearColor(r, g, b, a);
    glClear(GL_COLOR_BUFFER_BIT);
}
void finish() { glFinish(); }
int max_texture_size() {
    GLint size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
    return size;
}
std::string renderer_name() {
    const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return name ? name : "unknown";
}

}  // namespace attn::gui::gl
