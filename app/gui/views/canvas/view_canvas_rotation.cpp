#include "app/gui/views/canvas/view_canvas_rotation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/display/animation.h"
#include "app/gui/display/format.h"
#include "app/gui/display/head_groups.h"
#include "app/gui/display/rotation_pairs.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

constexpr int kMaxDials = 16;  // a wide head shows its first 16 pairs (the fastest turning)
constexpr float kPi = 3.14159265f;

bool is_rotation(const Painter& p) { return p.step(p.f->step).kind == StepKind::Rotation; }

float dial_size(const Painter& p) { return std::max(56.0f * p.f->scale, 4.8f * p.small_size()); }

// The vector the dials show: (head, row) of the hovered or pinned cell on this step,
// else the chosen head's last row.
void chosen_vector(const Painter& p, const CanvasUi& ui, int& head, int& row) {
    const StepDisplay& sd = p.display(p.f->step);
    const Tensor& t = p.step(p.f->step).tensor;
    for (const CellRef& ref : {ui.hovered, ui.pinned}) {
        if (!ref.valid() || ref.step != p.f->step || ref.part != CellRef::Part::Result) continue;
        if (ref.panel >= static_cast<int>(sd.panels.size())) continue;
        head = sd.panels[static_cast<size_t>(ref.panel)].head;
        row = ref.row;
        return;
    }
    const int heads = static_cast<int>(t.dim(1));
    const HeadGroups groups = head_groups(p.f->trace->config);
    const int chosen = ui.chosen_head();
    const bool kv_step = step_info(p.step(p.f->step).id).holds_kv_heads();
    head = std::clamp(kv_step && groups.grouped() ? groups.group_of(chosen) : chosen, 0, heads - 1);
    row = static_cast<int>(t.dim(2)) - 1;
}

}  // namespace

float rotation_band_height(const Painter& p, float w) {
    if (!is_rotation(p) || w < dial_size(p) * 2.0f) return 0.0f;
    return dial_size(p) + 3.0f * p.small_size() + 14.0f * p.f->scale;
}

void draw_rotation_band(const Painter& p, const CanvasUi& ui, const Rect& area) {
    if (!is_rotation(p) || area.h <= 0.0f) return;
    int head = 0, row = 0;
    chosen_vector(p, ui, head, row);
    const int b = p.f->model->batch_item;
    const std::vector<RotationPair> pairs = rotation_pairs(*p.f->trace, p.f->step, b, head, row);
    if (pairs.empty()) return;
    const float s = p.f->scale;
    const StepId id = p.step(p.f->step).id;
    const AttentionConfig& config = p.f->trace->config;
    const bool keys = step_info(id).side == StepSide::Key;
    const auto& tokens = keys ? p.f->model->key_tokens : p.f->model->query_tokens;
    const std::string token = row < static_cast<int>(tokens.size()) ? p.f->model->shown_token(tokens[static_cast<size_t>(row)]) : std::to_string(row);
    const text::Params words = {{"vector", std::string(keys ? "k" : "q")},
                                {"head", step_head_label(config, id, head, false)},
                                {"token", token},
                                {"position", config.position_offset + row}};
    std::string title = text::trf("canvas.rope.title", words);
    if (p.measure(p.f->fonts.small, title).x > area.w) title = text::trf("canvas.rope.title_short", words);
    p.text(p.f->fonts.small, ImVec2(area.x, area.y + 4.0f * s), p.pal.dim_text, title);

    // One scale for every dial of the vector, so lengths compare across pairs.
    float longest = 1e-12f;
    for (const RotationPair& pair : pairs) longest = std::max(longest, std::hypot(pair.x0, pair.y0));
    const float size = dial_size(p);
    const float gap = 10.0f * s;
    const int fit = std::max(1, static_cast<int>((area.w + gap) / (size + gap)));
    const int count = std::min({static_cast<int>(pairs.size()), kMaxDials, fit});
    const float t = ease(std::clamp(p.f->progress, 0.0f, 1.0f));
    const uint32_t colour = pack_rgba(with_contrast(step_head_color(config, id, head), p.pal.background_rgb, 3.0f));
    const float top = area.y + p.small_size() + 10.0f * s;
    for (int k = 0; k < count; ++k) {
        const RotationPair& pair = pairs[static_cast<size_t>(k)];
        const ImVec2 centre(area.x + static_cast<float>(k) * (size + gap) + size * 0.5f, top + size * 0.5f);
        const float radius = size * 0.5f - 2.0f * s;
        p.dl->AddCircle(centre, radius, p.pal.frame, 32);
        p.dl->AddLine(ImVec2(centre.x - radius, centre.y), ImVec2(centre.x + radius, centre.y), p.pal.frame);
        const float unit = radius / longest;
        // Screen y grows downwards: the second coordinate is drawn up.
        const auto at = [&](float x, float y) { return ImVec2(centre.x + x * unit, centre.y - y * unit); };
        p.dl->AddLine(centre, at(pair.x0, pair.y0), p.pal.dim_text, 1.0f * s);  // where it started
        // The arc swept so far, at a third of the vector's length (whole turns drawn once).
        const float swept = pair.angle * t;
        const float start = std::atan2(pair.y0, pair.x0);
        const float arc_r = std::hypot(pair.x0, pair.y0) * unit * 0.35f;
        const int segments = std::clamp(static_cast<int>(std::fabs(std::fmod(swept, 2.0f * kPi)) * 8.0f), 2, 48);
        const float arc = std::fabs(swept) >= 2.0f * kPi ? 2.0f * kPi : swept;
        for (int q = 0; q < segments && arc_r > 2.0f; ++q) {
            const float a0 = start + arc * static_cast<float>(q) / segments, a1 = start + arc * static_cast<float>(q + 1) / segments;
            p.dl->AddLine(ImVec2(centre.x + arc_r * std::cos(a0), centre.y - arc_r * std::sin(a0)),
                          ImVec2(centre.x + arc_r * std::cos(a1), centre.y - arc_r * std::sin(a1)), p.pal.highlight, 1.0f * s);
        }
        float x = 0, y = 0;
        rotated_at(pair, t, x, y);
        const ImVec2 tip = at(x, y);
        p.dl->AddLine(centre, tip, colour, 2.0f * s);
        p.dl->AddCircleFilled(tip, 2.5f * s, colour);
        const std::string columns = std::to_string(pair.first) + "," + std::to_string(pair.second);
        const std::string degrees = text::trf("canvas.rope.angle", {{"degrees", text::fixed(swept * 180.0f / kPi, 0)}});
        p.text(p.f->fonts.small, ImVec2(centre.x - p.measure(p.f->fonts.small, columns).x * 0.5f, top + size + 2.0f * s),
               p.pal.dim_text, columns);
        p.text(p.f->fonts.small, ImVec2(centre.x - p.measure(p.f->fonts.small, degrees).x * 0.5f, top + size + p.small_size() + 3.0f * s),
               p.pal.dim_text, degrees);
    }
}

}  // namespace attn::gui
