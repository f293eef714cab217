#include "app/gui/fonts_theme.h"

#include <imgui.h>

#include <filesystem>

namespace attn::gui {
namespace {

const char* find_font() {
    static const char* const candidates[] = {
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    };
    for (const char* path : candidates) {
        std::error_code ec;
        if (std::filesystem::exists(path, ec)) return path;
    }
    return nullptr;
}

ImFont* add_font(const char* path, float size) {
    ImGuiIO& io = ImGui::GetIO();
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0391, 0x03C9, 0x2013, 0x2026, 0x2190, 0x21FF,
                                     0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
    if (path) {
        ImFontConfig config;
        config.OversampleH = 2;
        if (ImFont* font = io.Fonts->AddFontFromFileTTF(path, size, &config, ranges)) return font;
    }
    ImFontConfig config;
    config.SizePixels = size;
    return io.Fonts->AddFontDefault(&config);
}

}  // namespace

Fonts load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const char* path = find_font();
    Fonts fonts;
    fonts.regular = add_font(path, 16.0f * scale);  // first font = ImGui's default
    fonts.small = add_font(path, 12.0f * scale);
    fonts.large = add_font(path, 26.0f * scale);
    io.Fonts->Build();
    return fonts;
}

void apply_theme(bool light, float scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    if (light) {
        ImGui::StyleColorsLight(&style);
        style.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.96f, 1.0f);
        style.Colors[ImGuiCol_ChildBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
    } else {
        ImGui::StyleColorsDark(&style);
        style.Colors[ImGuiCol_WindowBg] = ImVec4(0.105f, 0.11f, 0.125f, 1.0f);
        style.Colors[ImGuiCol_ChildBg] = ImVec4(0.085f, 0.09f, 0.10f, 1.0f);
    }
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.FramePadding = ImVec2(6, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.ScaleAllSizes(scale);
}

CanvasPalette canvas_palette(bool light) {
    CanvasPalette p;
    if (light) {
        p.background = IM_COL32(255, 255, 255, 255);
        p.empty_cell = IM_COL32(232, 232, 236, 255);
        p.text = IM_COL32(25, 25, 30, 255);
        p.dim_text = IM_COL32(100, 100, 110, 255);
        p.frame = IM_COL32(150, 150, 160, 255);
        p.highlight = IM_COL32(255, 200, 0, 255);
        p.highlight_fill = IM_COL32(255, 200, 0, 50);
        p.masked = {0.55f, 0.55f, 0.58f};
    } else {
        p.background = IM_COL32(22, 23, 26, 255);
        p.empty_cell = IM_COL32(44, 46, 52, 255);
        p.text = IM_COL32(235, 235, 240, 255);
        p.dim_text = IM_COL32(150, 152, 160, 255);
        p.frame = IM_COL32(90, 92, 100, 255);
        p.highlight = IM_COL32(255, 214, 10, 255);
        p.highlight_fill = IM_COL32(255, 214, 10, 45);
        p.masked = {0.04f, 0.04f, 0.05f};  // near black: unlike "not computed yet" cells
    }
    return p;
}

}  // namespace attn::gui
