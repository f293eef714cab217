// GLSL sources embedded into the binary at build time from shaders/*.glsl
// (see app/gui/embed_shaders.cmake), so the app runs from any folder.
#pragma once

namespace attn::gui::shaders {

extern const char* const heatmap_vert;  // shaders/heatmap_vert.glsl
extern const char* const heatmap_frag;  // shaders/heatmap_frag.glsl

}  // namespace attn::gui::shaders
