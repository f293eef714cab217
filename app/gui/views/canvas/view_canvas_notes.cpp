#include "app/gui/views/canvas/view_canvas_notes.h"

#include <algorithm>

#include "app/gui/display/format.h"
#include "app/gui/display/head_groups.h"
#include "app/text/languages.h"
#include "app/gui/kit/cjk_wrap.h"

namespace attn::gui {
namespace {

// "3 (head, query) rows ... fill -inf ..." for item `b`, or "" when none is fully masked.
std::string fully_masked_line(const Trace& trace, int b) {
    const AttentionConfig& c = trace.config;
    const int64_t H = c.H(), L = c.L();
    if (trace.fully_masked_rows.size() != static_cast<size_t>(c.batch_size() * H * L)) return "";
    int rows = 0;
    int64_t first_h = -1, first_i = -1;
    for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < L; ++i)
            if (trace.fully_masked_rows[static_cast<size_t>((b * H + h) * L + i)]) {
                if (rows++ == 0) first_h = h, first_i = i;
            }
    if (rows == 0) return "";
    // What the forward made of such a row, read off its weights: zeros (the -inf fill,
    // flagged) or uniform (a finite fill, as PyTorch).
    const Step* weights = trace.find(StepId::AttnWeights);
    const float first_weight = weights ? weights->tensor.at({b, first_h, first_i, 0}) : 0.0f;
    const std::string fill = to_string(c.mask_fill);
    if (first_weight == 0.0f) return text::trf("canvas.note.fully_masked_zero", {{"rows", rows}, {"fill", fill}});
    return text::trf("canvas.note.fully_masked_uniform",
                     {{"rows", rows}, {"fill", fill}, {"keys", c.S_total()}, {"weight", format_value(first_weight)}});
}

}  // namespace

std::vector<std::string> config_notes(const CanvasFrame& frame) {
    std::vector<std::string> lines;
    if (!frame.trace || !frame.model || frame.step < 0 || frame.step >= static_cast<int>(frame.trace->steps.size())) return lines;
    const Trace& trace = *frame.trace;
    const StepId id = trace.steps[static_cast<size_t>(frame.step)].id;
    if (step_info(id).shows_masked_rows()) {
        const int b = std::clamp(frame.model->batch_item, 0, std::max(0, trace.config.batch_size() - 1));
        if (std::string line = fully_masked_line(trace, b); !line.empty()) lines.push_back(std::move(line));
    }
    const StepDisplay& sd = frame.model->steps[static_cast<size_t>(frame.step)];
    const bool per_head = std::any_of(sd.panels.begin(), sd.panels.end(), [](const Panel& pn) { return pn.head >= 0; });
    if (per_head) {
        if (std::string line = head_groups_note(trace.config, id); !line.empty()) lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<std::string> wrap_notes(const Painter& p, const std::vector<std::string>& lines, float width) {
    // Broken at spaces and between Chinese characters, never inside a number (cjk_wrap.h).
    const ImFont& font = *(p.f->fonts.small ? p.f->fonts.small : ImGui::GetFont());
    std::vector<std::string> out;
    for (const std::string& line : lines)
        for (std::string& piece : wrap_cjk_lines(font, p.small_size(), line, width)) out.push_back(std::move(piece));
    return out;
}

float config_notes_height(const Painter& p, const std::vector<std::string>& lines) {
    if (lines.empty()) return 0.0f;
    return static_cast<float>(lines.size()) * (p.small_size() + 3.0f * p.f->scale) + 6.0f * p.f->scale;
}

void draw_config_notes(const Painter& p, const std::vector<std::string>& lines, const Rect& area) {
    float y = area.y + 6.0f * p.f->scale;
    for (const std::string& line : lines) {
        p.text(p.f->fonts.small, ImVec2(area.x, y), p.pal.notice, line);
        y += p.small_size() + 3.0f * p.f->scale;
    }
}

}  // namespace attn::gui
