// The browser side of lesson_pictures.h. A page starts no programs, so the slides are
// drawn in the page itself, by the code of `attnviz snapshot --lesson` (compute_lesson,
// write_lesson_pictures) with the window's own GL context, into a new folder of the page's
// memory, which the browser then downloads as one zip (download.h). It runs in the frame
// after the one that said "Drawing the slides ...": the page is busy while it draws.
// A PDF handout needs cairo and pango, which the page lacks: the window says so.
#include "app/gui/window/lesson_pictures.h"

#include <filesystem>

#include "app/gui/export/download.h"
#include "app/gui/export/lesson_run.h"
#include "app/text/languages.h"
#include "app/text/message_text.h"

namespace attn::gui {
namespace {

// The lesson's pictures as the desktop's child process draws them (it is given the
// window's language as --lang), then downloaded as <folder>.zip. The window's language is
// back when this returns.
Message draw_and_download(const SnapshotOptions& options, const std::string& language) {
    const std::string window_language = text::active().code();
    text::set_language(language);
    LessonRun run;
    Message failed = compute_lesson(options, run);
    if (failed.empty()) failed = write_lesson_pictures(options, run);
    text::set_language(window_language);
    if (!failed.empty()) return Message("lesson.pictures.failed", {{"reason", text::render(failed)}});
    if (const Message not_downloaded = offer_download(options.out_dir); !not_downloaded.empty())
        return Message("lesson.pictures.failed", {{"reason", text::render(not_downloaded)}});
    // The slides that did open are in the zip; the first that did not is said, as the
    // desktop says its child's first line.
    if (!run.opened.problems.empty())
        return Message("lesson.pictures.failed", {{"reason", text::render(run.opened.problems.front())}});
    return Message("lesson.pictures.downloaded", {{"file", std::filesystem::path(options.out_dir).filename().string() + ".zip"}});
}

}  // namespace

LessonPictures::~LessonPictures() = default;

bool LessonPictures::running() const { return static_cast<bool>(in_page_); }

Message LessonPictures::start(const std::string& lesson_path, int width, int height, const std::string& language) {
    if (running()) return Message("lesson.pictures.busy");
    const std::string dir = new_pictures_folder(lesson_path);
    if (dir.empty()) return Message("lesson.pictures.no_folder", {{"path", lesson_path}});
    SnapshotOptions options;
    options.lesson = lesson_path;
    options.out_dir = dir;
    options.width = width;
    options.height = height;
    in_page_ = [options, language] { return draw_and_download(options, language); };
    in_page_shown_ = false;
    return Message("lesson.pictures.started", {{"dir", dir}});
}

Message LessonPictures::start_handout(const std::string&, const std::string&) { return Message("web.unavailable.handout"); }

std::optional<Message> LessonPictures::take_result() {
    if (!in_page_) return std::nullopt;
    if (!in_page_shown_) {  // the frame that asked: its status line is drawn first
        in_page_shown_ = true;
        return std::nullopt;
    }
    const std::function<Message()> work = std::move(in_page_);
    in_page_ = nullptr;
    return work();
}

}  // namespace attn::gui
