// One frame of the whole UI, shared by the window, snapshots and exports: the normal
// layout (menu, controls, canvas, explanation, inspector, timeline), presentation
// mode, or the canvas alone. Views are registered here, in one place.
#pragma once

#include <optional>

#include "app/gui/app_state.h"
#include "app/gui/export.h"
#include "app/gui/fonts_theme.h"
#include "app/gui/heatmap_cache.h"

namespace attn::gui {

struct FrameContext {
    HeatmapCache* cache = nullptr;
    Fonts fonts;
    float scale = 1.0f;       // sizes of canvas drawing (UI scale x export scale)
    bool computing = false;   // the worker is busy: show "computing..."
    bool offscreen = false;   // snapshot/export: no menus, no dialogs, no mouse
    bool canvas_only = false; // draw nothing but the canvas
    bool presentation_header = false;  // offscreen: title and explanation around the canvas
    double now = 0;
};

// Height of a canvas-only export's title strip, in large-font heights.
constexpr float kCanvasTitleEm = 1.7f;

struct FrameActions {
    bool config_changed = false;
    bool scale_changed = false;
    bool theme_changed = false;
    bool language_changed = false;

    bool toggle_presentation = false;
    bool toggle_fullscreen = false;
    bool quit = false;
    std::optional<ExportRequest> export_request;
};

FrameActions draw_frame(AppState& state, const FrameContext& ctx);

}  // namespace attn::gui
