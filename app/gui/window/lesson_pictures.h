// Lesson > Export slides as pictures: the saved lesson drawn one PNG per slide by the
// program's own `attnviz snapshot --lesson` (the same pictures as on the command line),
// run as a child process so the window keeps drawing. The pictures go into a new folder
// beside the lesson file (`<name>_slides`, or `_slides_2` ... when that exists): no file of
// the user's is ever overwritten. A page starts no programs: in the browser the same code
// draws the slides in the page itself and the folder is downloaded as one zip
// (lesson_pictures_browser.cpp).
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/message.h"

namespace attn::gui {

class LessonPictures {
public:
    ~LessonPictures();  // waits for a running export (the child finishes its pictures)
    // Starts drawing `lesson_path`'s slides at width x height in `language`; a message saying
    // where they go, or why they cannot be drawn (one export at a time).
    Message start(const std::string& lesson_path, int width, int height, const std::string& language);
    // Starts writing `lesson_path`'s handout PDF beside it, in `language`.
    Message start_handout(const std::string& lesson_path, const std::string& language);
    // The finished export's message, once ("written to ...", or the child's reason).
    std::optional<Message> take_result();
    bool running() const;

private:
    // Runs the program as `args`; `done` when it exits 0, else `failed_key` with its reason.
    Message launch(const std::vector<std::string>& args, Message started, Message done, const char* failed_key);
    mutable std::mutex mutex_;
    std::thread waiter_;
    bool running_ = false;
    std::optional<Message> result_;
    // The browser's export: run by take_result in the frame after the one that showed
    // "Drawing the slides ..." (the page is busy while it draws them).
    std::function<Message()> in_page_;
    bool in_page_shown_ = false;
};

// A folder beside `lesson_path` that does not exist yet ("" when none of 99 names is free).
std::string new_pictures_folder(const std::string& lesson_path);
// A PDF file name beside `lesson_path` that does not exist yet ("" when none of 99 is free).
std::string new_handout_file(const std::string& lesson_path);

}  // namespace attn::gui
