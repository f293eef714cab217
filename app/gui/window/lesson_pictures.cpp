#include "app/gui/window/lesson_pictures.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

extern char** environ;

namespace attn::gui {
namespace {

// The child's stderr, at most its first line (its one-line reason).
std::string first_line(int fd) {
    std::string text;
    char buffer[512];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
    return text.substr(0, text.find('\n'));
}

// Runs the program itself as `args` with stderr into a pipe; -1 when it cannot start.
pid_t spawn_self(const std::vector<std::string>& args, int& stderr_fd) {
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    stderr_fd = pipe_fds[0];
    return pid;
}

}  // namespace

LessonPictures::~LessonPictures() {
    if (waiter_.joinable()) waiter_.join();
}

bool LessonPictures::running() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return running_;
}

Message LessonPictures::start(const std::string& lesson_path, int width, int height, const std::string& language) {
    if (running()) return Message("lesson.pictures.busy");
    const std::string dir = new_pictures_folder(lesson_path);
    if (dir.empty()) return Message("lesson.pictures.no_folder", {{"path", lesson_path}});
    return launch({"attnviz", "snapshot", "--lesson", lesson_path, "--out", dir, "--size",
                   std::to_string(width) + "x" + std::to_string(height), "--lang", language},
                  Message("lesson.pictures.started", {{"dir", dir}}), Message("lesson.pictures.done", {{"dir", dir}}),
                  "lesson.pictures.failed");
}

Message LessonPictures::start_handout(const std::string& lesson_path, const std::string& language) {
    if (running()) return Message("lesson.pictures.busy");
    const std::string pdf = new_handout_file(lesson_path);
    if (pdf.empty()) return Message("lesson.handout.no_file", {{"path", lesson_path}});
    return launch({"attnviz", "snapshot", "--lesson", lesson_path, "--handout", pdf, "--lang", language},
                  Message("lesson.handout.started", {{"path", pdf}}), Message("lesson.handout.done", {{"path", pdf}}),
                  "lesson.handout.failed");
}

Message LessonPictures::launch(const std::vector<std::string>& args, Message started, Message done, const char* failed_key) {
    int stderr_fd = -1;
    const pid_t pid = spawn_self(args, stderr_fd);
    if (pid < 0) {
        if (stderr_fd >= 0) ::close(stderr_fd);
        return Message(failed_key, {{"reason", "cannot start attnviz snapshot"}});
    }
    if (waiter_.joinable()) waiter_.join();  // the previous export's thread, long finished
    running_ = true;
    waiter_ = std::thread([this, pid, stderr_fd, done = std::move(done), failed_key] {
        const std::string reason = first_line(stderr_fd);
        ::close(stderr_fd);
        int status = 0;
        ::waitpid(pid, &status, 0);
        const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        std::lock_guard<std::mutex> lock(mutex_);
        result_ = ok ? done : Message(failed_key, {{"reason", reason}});
        running_ = false;
    });
    return started;
}

std::optional<Message> LessonPictures::take_result() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<Message> out = std::move(result_);
    result_.reset();
    return out;
}

}  // namespace attn::gui
