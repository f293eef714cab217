#version 330 core
// Colours one heatmap while ImGui draws it: value (R32F) -> colormap lookup, masked
// cells hatched. The picture is (rows * u_cell_px, cols * u_cell_px) texels: each cell
// gets u_cell_px^2 of them (1 for big maps; more for small masked maps, so the hatching
// can be drawn inside a cell). Cells are read with texelFetch: no filtering, no aliasing.
// Each picture texel is rounded to 8 bits and, in the SMOOTH_CELLS variant (u_cell_px >= 4),
// filtered bilinearly between the four nearest, as when the picture was an RGBA8 texture
// of its own: the same pixels, without a render pass per heatmap. The FINITE_VALUES
// variant is for values with no inf or NaN (most big maps): the colormap alone. (Variants,
// not branches: a software rasteriser runs both sides of a branch for every fragment.)
uniform sampler2D u_values;    // (rows, cols) R32F; row 0 is the tensor's first row
uniform sampler2D u_colormap;  // (1, 256) RGBA8 colour stops, sampled linearly
uniform float u_vmin;          // value mapped to the left end of the colormap
uniform float u_vmax;          // value mapped to the right end
uniform int u_cell_px;         // picture texels per cell side (>= 1)
uniform vec4 u_masked_color;   // -inf (masked score) cells
uniform vec4 u_hatch_color;    // the diagonal stripes drawn over masked cells
in vec2 v_uv;                  // where in the values (0..1 across the texture)
in vec4 v_color;               // ImGui's tint
out vec4 frag_color;

vec3 colormap(float v) {
    float span = max(u_vmax - u_vmin, 1e-30);
    float t = clamp((v - u_vmin) / span, 0.0, 1.0);
    return texture(u_colormap, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb;
}

// How much of picture texel `px` the diagonal stripes cover, 0..1. Several texels per
// cell: two stripes across each cell, each half a period wide so neighbours join edge to
// edge into lines, with edges one texel soft (anti-aliased: no staircase when the
// picture is magnified). One texel per cell (big maps): every third cell diagonal,
// which reads as hatching over a region.
float stripe_coverage(ivec2 px) {
    if (u_cell_px < 4) return (px.x + px.y) % 3 == 0 ? 1.0 : 0.0;
    vec2 centre = vec2(px) + 0.5;
    float period = float(u_cell_px / 2);          // along x + y, in texels
    float across = period * 0.70710678;            // the same period measured across the stripes
    float phase = fract((centre.x + centre.y) / period);
    float dist = abs(phase - 0.25) * across;       // from the centre of the stripe (first half of the period)
    dist = min(dist, across - dist);
    return clamp(across * 0.25 - dist + 0.5, 0.0, 1.0);
}

// The colour of picture texel `px`, in 8 bits. Selects instead of branches (see above).
vec3 picture_texel(ivec2 px) {
    float v = texelFetch(u_values, px / max(u_cell_px, 1), 0).r;
#ifdef FINITE_VALUES
    vec3 c = colormap(v);
#else
    float stripe = stripe_coverage(px);
    // -inf: a masked score, neither a value on the colormap nor "not computed yet".
    // +inf: a probability that is exactly 0 because its key was masked: the colour of 0
    // with a faint hatch, so the mask stays visible.
    bool masked_score = isinf(v) && v < 0.0, masked_key = isinf(v) && v > 0.0;
    vec3 c = colormap(isinf(v) || isnan(v) ? 0.0 : v);
    c = masked_key ? mix(c, u_hatch_color.rgb, 0.45 * stripe) : c;
    c = masked_score ? mix(u_masked_color.rgb, u_hatch_color.rgb, stripe) : c;
    c = isnan(v) ? vec3(1.0, 0.0, 1.0) : c;
#endif
    return floor(clamp(c, 0.0, 1.0) * 255.0 + 0.5) / 255.0;
}

void main() {
    ivec2 size = textureSize(u_values, 0) * max(u_cell_px, 1);
    ivec2 last = size - 1;
    vec2 at = v_uv * vec2(size);  // in picture texels
#ifndef SMOOTH_CELLS
    vec3 c = picture_texel(clamp(ivec2(floor(at)), ivec2(0), last));  // nearest: sharp cells
#else
    // Smooth when magnified: the anti-aliased hatch's texels are blended (cell edges
    // move by at most one of u_cell_px texels).
    vec2 f = at - 0.5;
    vec2 w = fract(f);
    ivec2 lo = clamp(ivec2(floor(f)), ivec2(0), last), hi = clamp(ivec2(floor(f)) + 1, ivec2(0), last);
    vec3 top = mix(picture_texel(lo), picture_texel(ivec2(hi.x, lo.y)), w.x);
    vec3 bottom = mix(picture_texel(ivec2(lo.x, hi.y)), picture_texel(hi), w.x);
    vec3 c = mix(top, bottom, w.y);
#endif
    frag_color = v_color * vec4(c, 1.0);
}
