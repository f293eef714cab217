#include "app/gui/window/present_keys.h"

#include <GLFW/glfw3.h>

#include <algorithm>

#include "app/gui/display/annotations.h"

namespace attn::gui {
namespace {

bool is_modifier(int key) {
    return key == GLFW_KEY_LEFT_SHIFT || key == GLFW_KEY_RIGHT_SHIFT || key == GLFW_KEY_LEFT_CONTROL ||
           key == GLFW_KEY_RIGHT_CONTROL || key == GLFW_KEY_LEFT_ALT || key == GLFW_KEY_RIGHT_ALT ||
           key == GLFW_KEY_LEFT_SUPER || key == GLFW_KEY_RIGHT_SUPER;
}

// Right / Page Down on a slide whose animation has not played: play it (finish it when
// the slide stopped mid-step, else from the start) instead of moving on.
// A step with nothing to play (the input) goes straight on: the press must show something.
bool play_slide_animation(UiState& ui) {
    if (ui.present.animation_played || ui.lesson.pending || !ui.present.step_animates) return false;
    ui.present.animation_played = true;
    Playback& pb = ui.playback;
    if (pb.progress() < 1.0f) pb.next();
    else pb.jump_to(pb.step());
    return true;
}

// C: the slide's drawings go, kept in `wiped` for Ctrl+Z.
void wipe_drawings(UiState& ui, double now) {
    std::vector<lesson::Annotation>& drawings = ui.lesson.marks.annotations;
    if (drawings.empty()) return;
    ui.present.wiped = drawings;
    ui.present.drawings_changed |= clear_drawings(drawings);
    tell_presenter(ui, Message("present.wiped", {{"count", ui.present.wiped.size()}}), now);
}

// Ctrl+Z: with the pen on, the last drawing goes; otherwise (or with none left) what C
// wiped comes back. False when neither applies (the key is left to the slide edits' undo).
bool undo_drawings(UiState& ui) {
    PresentUi& present = ui.present;
    std::vector<lesson::Annotation>& drawings = ui.lesson.marks.annotations;
    if (present.pen && undo_drawing(drawings)) {
        present.drawings_changed = true;
        return true;
    }
    if (present.wiped.empty()) return present.pen;
    drawings.insert(drawings.begin(), present.wiped.begin(), present.wiped.end());
    present.wiped.clear();
    present.drawings_changed = true;
    return true;
}

// One key press; returns true when it was the presenter's.
bool presenter_key(int key, int mods, UiState& ui, bool lesson_open, double now) {
    PresentUi& present = ui.present;
    const bool plain = (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) == 0;
    const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
    switch (key) {
        case GLFW_KEY_B:
            if (plain) present.blank = true;
            return plain;
        case GLFW_KEY_N:
            if (plain && lesson_open) present.note_shown = !present.note_shown;
            return plain && lesson_open;
        case GLFW_KEY_L:
            if (plain && (mods & GLFW_MOD_SHIFT)) present.pointer_on = !present.pointer_on;
            return plain;  // held: follow_pointer
        case GLFW_KEY_D:
            if (plain) present.pen = !present.pen;
            return plain;
        case GLFW_KEY_C:
            if (plain) wipe_drawings(ui, now);
            return plain;
        case GLFW_KEY_Z:  // Ctrl+Z: the pen's undo, or what C wiped
            return ctrl && !(mods & GLFW_MOD_SHIFT) && undo_drawings(ui);
        case GLFW_KEY_G:  // the slide grid (lesson_keys.h takes the keys while it is open)
            if (plain && lesson_open) {
                present.grid = true;
                present.grid_choice = present.slide;
            }
            return plain && lesson_open;
        case GLFW_KEY_T:  // the lesson's clock starts again
            if (plain && lesson_open) present.started = now;
            return plain && lesson_open;
        case GLFW_KEY_1:
        case GLFW_KEY_2:
        case GLFW_KEY_3:
        case GLFW_KEY_4:
            if (plain && present.pen) present.pen_colour = key - GLFW_KEY_1;
            return plain && present.pen;
        case GLFW_KEY_RIGHT:
        case GLFW_KEY_PAGE_DOWN:
            return lesson_open && plain && play_slide_animation(ui);
        default: return false;
    }
}

}  // namespace

void presenter_keys(KeyPresses& presses, UiState& ui, bool lesson_open, double now) {
    // A blank screen comes back with any key, which does nothing else.
    if (ui.present.blank) {
        const bool any = std::any_of(presses.begin(), presses.end(), [](const auto& p) { return !is_modifier(p.first); });
        if (any) {
            ui.present.blank = false;
            presses.clear();
        }
        return;
    }
    for (auto it = presses.begin(); it != presses.end();) {
        if (presenter_key(it->first, it->second, ui, lesson_open, now)) it = presses.erase(it);
        else ++it;
    }
}

void follow_pointer(PresentUi& present, bool l_held, float x, float y, double now) {
    present.pointer_held = l_held;
    while (!present.trail.empty() && now - present.trail.front().time > kPointerTrailSeconds) present.trail.pop_front();
    if (!present.pointer_shown()) {
        present.trail.clear();
        return;
    }
    if (present.last.x != x || present.last.y != y) present.trail.push_back({x, y, now});
    present.last = {x, y, now};
}

void keep_slide_drawings(UiState& ui, lesson::OpenedLesson* lesson, int index) {
    if (!ui.present.drawings_changed) return;
    ui.present.drawings_changed = false;
    if (!lesson || index < 0 || index >= static_cast<int>(lesson->slides.size())) return;
    lesson::Slide& slide = lesson->slides[static_cast<size_t>(index)].slide;
    slide.view.annotations = ui.lesson.marks.annotations;
    // The lesson as read keeps the same slide (by its number), so a save writes the drawings.
    for (lesson::Slide& read : lesson->lesson.slides)
        if (read.number == slide.number) read.view.annotations = slide.view.annotations;
}

}  // namespace attn::gui
