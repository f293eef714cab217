#version 330 core
// One triangle that covers the whole viewport; no vertex buffer needed.
// Used to bake a heatmap: every fragment is one cell of the tensor slice.
void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
