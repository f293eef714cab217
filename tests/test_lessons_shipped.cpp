// The lessons in assets/lessons: every one opens with no problem (every slide resolves and
// records its step), has 6 to 12 slides with a title and a speaker note, and comes in
// English, zh-Hans and zh-Hant with the same slides (only titles and notes differ).
// `gui lesson <name>` (tests/gui/CMakeLists.txt) draws every slide of every file.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>

#include "app/lesson/lesson.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

const char* const kLanguages[] = {"en", "zh-Hans", "zh-Hant"};

// "head-split.zh-Hans.json" -> {"head-split", "zh-Hans"}.
std::pair<std::string, std::string> name_and_language(const fs::path& file) {
    const std::string stem = file.stem().string();
    const size_t dot = stem.find('.');
    return {stem.substr(0, dot), dot == std::string::npos ? "" : stem.substr(dot + 1)};
}

// The slide without its words.
lesson::Slide unworded(lesson::Slide slide) {
    slide.title.clear();
    slide.note.clear();
    return slide;
}

}  // namespace

TEST_CASE("every shipped lesson opens whole, with 6 to 12 noted slides, in each of its three languages alike") {
    std::map<std::string, std::map<std::string, lesson::Lesson>> lessons;  // name -> language -> lesson
    for (const auto& entry : fs::directory_iterator(fs::path(ATTNVIZ_SOURCE_DIR) / "assets" / "lessons")) {
        if (entry.path().extension() != ".json") continue;
        CAPTURE(entry.path().filename().string());
        const auto [name, language] = name_and_language(entry.path());
        const Result<lesson::OpenedLesson> opened = lesson::open_lesson(entry.path().string());
        REQUIRE_MESSAGE(opened.ok(), opened.error());
        for (const Message& problem : opened->problems) FAIL_CHECK(english(problem));
        const lesson::Lesson& l = opened->lesson;
        CHECK(l.language == language);
        CHECK_FALSE(l.title.empty());
        CHECK(opened->slides.size() == l.slides.size());
        CHECK(l.slides.size() >= 6);
        CHECK(l.slides.size() <= 12);
        for (const lesson::Slide& slide : l.slides) {
            CAPTURE(slide.number);
            CHECK_FALSE(slide.title.empty());
            CHECK(slide.note.size() > 40);  // a note says something
        }
        lessons[name][language] = l;
    }
    CHECK(lessons.size() == 6);  // five lessons and Help > Tour
    for (const auto& entry : lessons) {  // no structured bindings: clang 14 cannot CAPTURE them
        const std::string& name = entry.first;
        const auto& versions = entry.second;
        CAPTURE(name);
        for (const char* language : kLanguages) CHECK_MESSAGE(versions.count(language) == 1, language);
        const lesson::Lesson& english_version = versions.begin()->second;
        for (const auto& language_version : versions) {
            const std::string& language = language_version.first;
            const lesson::Lesson& version = language_version.second;
            CAPTURE(language);
            REQUIRE(version.slides.size() == english_version.slides.size());
            for (size_t i = 0; i < version.slides.size(); ++i) {
                CAPTURE(i + 1);
                CHECK(unworded(version.slides[i]) == unworded(english_version.slides[i]));
                if (language != english_version.language) CHECK(version.slides[i].note != english_version.slides[i].note);
            }
        }
    }
}

TEST_CASE("the tour points at a part of the window on each of its 6 to 10 slides, and at every part once at least") {
    for (const char* language : kLanguages) {
        CAPTURE(language);
        const fs::path file = fs::path(ATTNVIZ_SOURCE_DIR) / "assets" / "lessons" / (std::string("tour.") + language + ".json");
        const Result<lesson::OpenedLesson> opened = lesson::open_lesson(file.string());
        REQUIRE_MESSAGE(opened.ok(), opened.error());
        CHECK(opened->problems.empty());
        CHECK(opened->lesson.language == language);
        const std::vector<lesson::Slide>& slides = opened->lesson.slides;
        CHECK(slides.size() >= 6);
        CHECK(slides.size() <= 10);
        std::map<std::string, int> pointed;
        for (const lesson::Slide& slide : slides) {
            CAPTURE(slide.number);
            CHECK_FALSE(slide.view.elements.empty());
            for (const std::string& id : slide.view.elements) ++pointed[id];
        }
        for (const char* id : {"controls", "timeline", "canvas", "storage", "inspector", "code"}) CHECK_MESSAGE(pointed[id] > 0, id);
    }
}
