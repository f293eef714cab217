// The registry: every view of the window in one list, with the dock slot it sits in.
// frame.cpp lays the slots out (side columns, splitter bars, the folded controls tab)
// and draws the registered views into them in list order, merging their Actions.
//
// What a view may write (the compiler holds it: the state comes in const):
//   - the session, the settings, the results and the jobs are read-only. A view that
//     edits one works on its own copy and returns it (or a precise request) in Actions;
//     draw_frame applies the edits (apply_edits, state/apply_edits.h) once the views of a dock slot
//     are drawn, so the slots drawn after it show them in the same frame (the dialog the
//     menu opens appears as the menu closes, as when views wrote in place).
//   - the UiState (how the window is looked at: playback, hovered and pinned cells, the
//     enlarged head, the storage strip, the pending UI scale) is writable: it is the
//     views' own and asks for no computation. A view later in the list sees what an
//     earlier one wrote this frame (the inspector shows the cell the canvas found under
//     the mouse).
//
// Adding a view:
//   1. write views/view_<name>.{h,cpp} with a draw function that takes only what it
//      draws (const parts of AppState, its part of the UiState, the FrameContext) and
//      returns Actions;
//   2. in view_registry.cpp, a short function that hands it its parts of the state (a
//      branch on compare mode goes into the view or a wrapper like compare_slots.h, never
//      into the list), and one line in the list: its window name, slot, flags and that
//      function.
// Nothing else changes: not frame.cpp, not AppState, not the settings. Every view of the
// main window is a row here, the presentation's title strip and footer included; the
// speaker's separate notes window (window/notes_window.h) has its own GL and ImGui
// contexts and draws one view, draw_note_text, which the in-window notes share.
#pragma once

#include <imgui.h>

#include <vector>

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/views/frame_context.h"
#include "app/gui/display/layout.h"

namespace attn::gui {

enum class DockSlot {
    MenuBar,      // the main menu bar along the top (the view opens it itself)
    Dialogs,      // modal popups over everything (the view opens them itself)
    Center,       // the canvas
    TokenStrip,   // above the canvas, with --decode-from: the prompt and the decoded tokens (view_token_strip.h)
    BesideCanvas, // right of or under the canvas, when shown (the code panel; split_center, layout.h)
    SlideList,    // left of the canvas while a lesson is being made (split_slide_list, layout.h)
    Left,         // the controls column; folds into a tab when the window is narrow
    Bottom,       // the strip under the canvas
    AboveBottom,  // floats on the canvas just above the Bottom slot (the view opens its window)
    RightTop,     // the right column, above its draggable bar
    RightBottom,  // the right column, below it
    StatusBar,    // the line along the bottom edge (the view opens its window)
    PresentTitle, // presentation and canvas-only pictures: the title strip along the top
    PresentFooter,// presentation: the explanation under the canvas, or in a column beside it
};

// How a view is drawn: `state` read-only, `ui` the writable UiState (the same object as
// state.ui), `area` its slot's rectangle in screen pixels.
using ViewDraw = Actions (*)(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area);

struct ViewSpec {
    const char* window;          // the docked window's name, or with `titled` the catalogue key
                                 // of its title (the key is then its ImGui ID and imgui.ini
                                 // key); nullptr when the view opens its own window(s)
    bool titled;                 // the window shows a title bar with a translated title
    DockSlot slot;
    ImGuiWindowFlags flags;      // added to kPanelFlags for a docked window
    bool edge_to_edge;           // no window padding (the canvas draws up to the border)
    bool interactive_only;       // not drawn into snapshots and exports
    ViewDraw draw;
};

// The registered views, in drawing order (later ones sit on top).
const std::vector<ViewSpec>& registered_views();
// The name a docked view's window is begun with ("Title###key" when titled).
const char* window_name(const ViewSpec& view);

// Flags of every docked panel: placed by the frame, never by the user or imgui.ini.
// NoFocusOnAppearing: a panel that (re)appears while a modal dialog is open must not ask
// for focus; ImGui 1.86 then looks for the modal that blocks it and asserts when the
// modal was opened from another window (seen in the monkey test: a panel reappearing
// under the path dialog aborted the window).
constexpr ImGuiWindowFlags kPanelFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
// Flags of the panels that tile the frame. The frame is cleared to the window background
// colour first, so a tiled panel's own background would only paint every pixel a second
// time: under llvmpipe (software GL) each full-window layer costs about 4 ms a frame at
// 1280x720. Windows that float over others (the first-run hint, dialogs) keep theirs.
constexpr ImGuiWindowFlags kTiledPanelFlags = kPanelFlags | ImGuiWindowFlags_NoBackground;
// Sets the next window's place and size (at least 1x1).
void place_window(float x, float y, float w, float h);

}  // namespace attn::gui
