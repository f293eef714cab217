// GLSL sources embedded into the binary at build time from shaders/*.glsl
// (see app/gui/gl/embed_shaders.cmake), so the app runs from any folder.
#pragma once

namespace attn::gui::shaders {

// "#version 330 core" on the desktop, "#version 300 es" in the browser (WebGL 2): the
// version line of every shader below, and what ImGui_ImplOpenGL3_Init is given.
extern const char* const glsl_version;
extern const char* const heatmap_vert;  // shaders/heatmap_vert.glsl
extern const char* const heatmap_frag;  // shaders/heatmap_frag.glsl

}  // namespace attn::gui::shaders
