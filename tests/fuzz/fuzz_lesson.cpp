// Fuzz harness: the lesson reader (app/lesson/lesson_read.cpp) and writer. Whatever the
// bytes, read_lesson answers with a lesson or a one-line message; a lesson it accepts,
// written and read again, is the same lesson with no problem reported; a small slide's
// configuration goes through the command line's parser (slide_problem) without a crash.
#include <string>

#include "app/lesson/lesson.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_entries.h"

namespace attn::fuzz {

namespace {

bool one_line(const Message& message) {
    const std::string text = english(message);
    return !text.empty() && text.find('\n') == std::string::npos;
}

// Slides whose options would read the host's files or allocate more than a fuzz run may
// are not resolved (files have their own harnesses).
bool safe_to_resolve(const lesson::Slide& slide) {
    if (slide.setup.model.find('/') != std::string::npos || slide.setup.model.find(".json") != std::string::npos) return false;
    for (const char* name : {"weights", "query", "key", "value", "mask-file", "seq-len", "hidden-dim", "kv-len", "batch",
                             "input-dim", "kdim", "vdim", "max-memory"})
        if (slide.setup.options.count(name)) return false;
    return true;
}

}  // namespace

int lesson_entry(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const Result<lesson::LessonRead> read = lesson::read_lesson(text, "fuzz.json");
    if (!read) {
        FUZZ_CHECK(one_line(read.message()));
        return 0;
    }
    for (const Message& problem : read->problems) FUZZ_CHECK(one_line(problem));
    // The slides kept, renumbered as a written file numbers them.
    lesson::Lesson kept = read->lesson;
    for (size_t i = 0; i < kept.slides.size(); ++i) kept.slides[i].number = static_cast<int>(i) + 1;
    const std::string written = lesson::write_lesson(kept);
    const Result<lesson::LessonRead> again = lesson::read_lesson(written, "again.json");
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->problems.size() == (kept.slides.empty() ? 1u : 0u));  // only "no slides"
    if (!kept.slides.empty()) FUZZ_CHECK(again->lesson == kept);
    FUZZ_CHECK(lesson::write_lesson(again->lesson) == written);
    for (size_t i = 0; i < kept.slides.size() && i < 2; ++i) {
        if (!safe_to_resolve(kept.slides[i])) continue;
        const Result<io::Problem> problem = lesson::slide_problem(kept.slides[i]);
        if (!problem) FUZZ_CHECK(one_line(problem.message()));
    }
    return 0;
}

}  // namespace attn::fuzz

#ifdef ATTNVIZ_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return attn::fuzz::lesson_entry(data, size); }
#endif
