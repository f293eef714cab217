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

// How much of this fragment the diagonal stripes cover, 0..1. Several fragments per
// cell: two stripes across each cell, each half a period wide so neighbours join edge to
// edge into lines, with edges one fragment soft (anti-aliased: no staircase when the
// texture is magnified). One fragment per cell (big maps): every third cell diagonal,
// which reads as hatching over a region.
float stripe_coverage(vec2 frag) {
    ivec2 px = ivec2(frag);
    if (u_cell_px < 4) return (px.x + px.y) % 3 == 0 ? 1.0 : 0.0;
    float period = float(u_cell_px / 2);          // along x + y, in fragments
    float across = period * 0.70710678;            // the same period measured across the stripes
    float phase = fract((frag.x + frag.y) / period);
    float dist = abs(phase - 0.25) * across;       // from the centre of the stripe (first half of the period)
    dist = min(dist, across - dist);
    return clamp(across * 0.25 - dist + 0.5, 0.0, 1.0);
}

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    float v = texelFetch(u_values, px / max(u_cell_px, 1), 0).r;
    float stripe = stripe_coverage(gl_FragCoord.xy);
    if (isinf(v) && v < 0.0) {
        // A masked score: neither a value on the colormap nor "not computed yet".
        frag_color = vec4(mix(u_masked_color.rgb, u_hatch_color.rgb, stripe), 1.0);
        return;
    }
    if (isinf(v)) {
        // +inf marks a probability that is exactly 0 because its key was masked:
        // the colour of 0 with a faint hatch, so the mask stays visible.
        vec3 zero = colormap(0.0);
        frag_color = vec4(mix(zero, u_hatch_color.rgb, 0.45 * stripe), 1.0);
        return;
    }
    if (isnan(v)) {
        frag_color = vec4(1.0, 0.0, 1.0, 1.0);
        return;
    }
    frag_color = vec4(colormap(v), 1.0);
}
