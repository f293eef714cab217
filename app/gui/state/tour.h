// Help > Tour: a shipped lesson (assets/lessons/tour.<language>.json) whose slides point at
// parts of the window. While it runs, the overlay (views/panels/view_tour.h) outlines the
// slide's elements and shows its title and text in a bubble with Back, Next and Close;
// Right and Left move too. Closing it puts back the session the tour replaced, and the
// step, enlarged head and panels the learner had open.
#pragma once

#include <optional>
#include <string>

#include "app/gui/state/session.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

struct AppState;
struct ComputeRequest;

// What the learner had before the tour's first slide replaced it.
struct TourReturn {
    Session session;
    std::string step;            // the step on screen, by name (a name survives the recompute)
    int enlarged_head = -1;
    bool show_storage = true, show_code = false;
};

struct TourState {
    int index = -1;           // the slide shown, from 0; -1: no tour
    int count = 0;            // the tour's slides
    // The bubble's words: the slide's title and note. Also set, with no tour running, for a
    // lesson's slide that points at the window (lesson_apply.h); empty: no bubble.
    std::string title, text;
    std::optional<TourReturn> before;  // put back when the tour closes
    bool running() const { return index >= 0; }
};

// The tour's file for `language` ("en", "zh-Hans", ...) in the data folder (io::data_dir()),
// else the English one; "" when neither is there.
std::string tour_file(const std::string& language);

// The bubble's words and place for slide `index` of `count` (`attnviz snapshot --lesson`
// draws a tour slide's bubble with them too).
void set_tour_words(TourState& tour, const lesson::Slide& slide, int index, int count);
// Shows slide `index` of `tour` (as apply_slide does) and its words in the bubble; the
// first slide keeps the learner's session to put back. Returns the request that computes it.
ComputeRequest show_tour_slide(AppState& state, const lesson::OpenedLesson& tour, int index);
// Ends the tour: the slide's marks go, the learner's session comes back (true: it must be
// computed again) and the window goes back to the learner's step once it is.
bool close_tour(AppState& state);

}  // namespace attn::gui
