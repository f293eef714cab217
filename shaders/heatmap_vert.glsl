#version 330 core
// A heatmap quad as ImGui draws it (ImDrawVert: position, uv, colour), coloured by
// heatmap_frag.glsl instead of ImGui's own shader. The projection is ImGui's, read
// from its program when the quad is drawn, so the quad covers the same pixels.
layout(location = 0) in vec2 a_position;  // pixels, top left = (0, 0)
layout(location = 1) in vec2 a_uv;        // texture coordinates into the values
layout(location = 2) in vec4 a_color;     // ImGui's tint: white, alpha fades the panel
uniform mat4 u_projection;
out vec2 v_uv;
out vec4 v_color;

void main() {
    v_uv = a_uv;
    v_color = a_color;
    gl_Position = u_projection * vec4(a_position, 0.0, 1.0);
}
