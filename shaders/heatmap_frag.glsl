#version 330 core
// Colours one heatmap: value (R32F) -> colormap lookup, with masked cells hatched.
// The viewport is (rows * u_cell_px, cols * u_cell_px): each cell gets u_cell_px^2
// fragments (1 for big maps; more for small masked maps, so the hatching can be drawn
// inside a cell). Cells are read with texelFetch: no filtering, no aliasing.
uniform sampler2D u_values;    // (rows, cols) R32F; row 0 is the tensor's first row
uniform sampler2D u_colormap;  // (1, 256) RGBA8 colour stops, sampled linearly
uniform float u_vmin;          // value mapped to the left end of the colormap
uniform float u_vmax;          // value mapped to the right end
uniform int u_cell_px;         // fragments per cell side (>= 1)
uniform vec4 u_masked_color;   // -inf (masked score) cells
uniform vec4 u_hatch_color;    // the diagonal stripes drawn over masked cells
out vec4 frag_color;

vec3 colormap(float v) {
    float span = max(u_vmax - u_vmin, 1e-30);
    float t = clamp((v - u_vmin) / span, 0.0, 1.0);
    return texture(u_colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb;
}

// True on the diagonal stripes. Several fragments per cell: two stripes across each
// cell, each half a period wide so neighbours join edge to edge into lines. One fragment
// per cell (big maps): every third cell diagonal, which reads as hatching over a region.
bool on_stripe(ivec2 px) {
    if (u_cell_px < 4) return (px.x + px.y) % 3 == 0;
    int period = u_cell_px / 2;
    return (px.x + px.y) % period < (period + 1) / 2;
}

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    float v = texelFetch(u_values, px / max(u_cell_px, 1), 0).r;
    if (isinf(v) && v < 0.0) {
        // A masked score: neither a value on the colormap nor "not computed yet".
        frag_color = vec4(on_stripe(px) ? u_hatch_color.rgb : u_masked_color.rgb, 1.0);
        return;
    }
    if (isinf(v)) {
        // +inf marks a probability that is exactly 0 because its key was masked:
        // the colour of 0 with a faint hatch, so the mask stays visible.
        vec3 zero = colormap(0.0);
        frag_color = vec4(on_stripe(px) ? mix(zero, u_hatch_color.rgb, 0.45) : zero, 1.0);
        return;
    }
    if (isnan(v)) {
        frag_color = vec4(1.0, 0.0, 1.0, 1.0);
        return;
    }
    frag_color = vec4(colormap(v), 1.0);
}
