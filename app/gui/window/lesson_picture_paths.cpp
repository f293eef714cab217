// The names lesson_pictures.h's exports write to, the same on the desktop and in the browser.
#include "app/gui/window/lesson_pictures.h"

#include <filesystem>

namespace attn::gui {

std::string new_pictures_folder(const std::string& lesson_path) {
    namespace fs = std::filesystem;
    const fs::path lesson(lesson_path);
    const std::string stem = (lesson.parent_path() / lesson.stem()).string() + "_slides";
    for (int n = 1; n < 100; ++n) {
        const std::string dir = n == 1 ? stem : stem + "_" + std::to_string(n);
        std::error_code ec;
        if (!fs::exists(dir, ec) && !ec) return dir;
    }
    return "";
}

std::string new_handout_file(const std::string& lesson_path) {
    namespace fs = std::filesystem;
    const fs::path lesson(lesson_path);
    const std::string stem = (lesson.parent_path() / lesson.stem()).string() + "_handout";
    for (int n = 1; n < 100; ++n) {
        const std::string pdf = (n == 1 ? stem : stem + "_" + std::to_string(n)) + ".pdf";
        std::error_code ec;
        if (!fs::exists(pdf, ec) && !ec) return pdf;
    }
    return "";
}

}  // namespace attn::gui
