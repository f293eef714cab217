#version 330 core
// Colours one cell of a heatmap: value (R32F) -> colormap lookup.
// The viewport has exactly one fragment per texel of u_values, so the cell is
// read with texelFetch at the fragment's own coordinate (no filtering, no aliasing).
uniform sampler2D u_values;    // (rows, cols) R32F; row 0 is the tensor's first row
uniform sampler2D u_colormap;  // (1, 256) RGBA8 colour stops, sampled linearly
uniform float u_vmin;          // value mapped to the left end of the colormap
uniform float u_vmax;          // value mapped to the right end
uniform vec4 u_masked_color;   // colour of -inf (masked) cells
out vec4 frag_color;

void main() {
    float v = texelFetch(u_values, ivec2(gl_FragCoord.xy), 0).r;
    if (isinf(v) && v < 0.0) {
        // Masked cells get a neutral colour outside both colormaps (the canvas writes
        // "-inf" on them when they are big enough).
        frag_color = vec4(u_masked_color.rgb, 1.0);
        return;
    }
    if (isnan(v)) {
        frag_color = vec4(1.0, 0.0, 1.0, 1.0);
        return;
    }
    float span = max(u_vmax - u_vmin, 1e-30);
    float t = clamp((v - u_vmin) / span, 0.0, 1.0);
    frag_color = vec4(texture(u_colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb, 1.0);
}
