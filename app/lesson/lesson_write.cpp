// write_lesson: Lesson -> JSON text, fields in the order of lesson_fields.h, only the
// fields that differ from what an absent field means, so a hand-written file and a saved
// one look alike.
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_fields.h"

#include <nlohmann/json.hpp>

#include <cctype>

namespace attn::lesson {
namespace {

using Json = nlohmann::ordered_json;

// A float as its shortest text, read back as a JSON number (0.3, not 0.30000001192092896).
Json number(float value) { return Json::parse(number_text(value), nullptr, false); }

Json cell_json(const CellAnchor& cell) {
    Json j = Json::object();
    j["step"] = step_name(cell.step);
    j["panel"] = cell.panel;
    j["row"] = cell.row;
    j["col"] = cell.col;
    if (cell.part != CellPart::Result) j["part"] = kCellParts[static_cast<size_t>(cell.part)];
    return j;
}

Json annotation_json(const Annotation& a) {
    Json j = Json::object();
    j["kind"] = kAnnotationKinds[static_cast<size_t>(a.kind)];
    j["colour"] = kPenColours[static_cast<size_t>(a.colour)];
    j["cell"] = cell_json(a.cell);
    Json points = Json::array();
    for (const auto& p : a.points) points.push_back(Json::array({number(p[0]), number(p[1])}));
    j["points"] = std::move(points);
    return j;
}

Json option_json(const OptionValue& value) {
    if (value.kind == OptionValue::Kind::Flag) return value.text == "true";
    if (value.kind == OptionValue::Kind::Number) {
        const Json parsed = Json::parse(value.text, nullptr, false);
        if (parsed.is_number()) return parsed;
    }
    return value.text;
}

void put_setup(const SlideSetup& s, Json& j) {
    if (!s.model.empty()) j["model"] = s.model;
    if (!s.recipe.empty()) j["recipe"] = s.recipe;
    if (s.sentence) j["sentence"] = *s.sentence;
    if (s.layer) j["layer"] = *s.layer;
    if (s.options.empty()) return;
    Json options = Json::object();
    for (const auto& [name, value] : s.options) options[name] = option_json(value);
    j["options"] = std::move(options);
}

void put_view(const SlideView& v, Json& j) {
    const SlideView absent;
    if (v.step) j["step"] = step_name(*v.step);
    if (v.head != absent.head) j["head"] = v.head;
    if (v.batch_item != absent.batch_item) j["batch_item"] = v.batch_item;
    if (v.moment != absent.moment) j["moment"] = number(v.moment);
    if (v.decode_step != absent.decode_step) j["decode_step"] = v.decode_step;
    if (v.pinned) j["pinned"] = cell_json(*v.pinned);
    if (v.followed) j["followed"] = cell_json(*v.followed);
    if (!v.highlighted.empty()) {
        j["highlighted"] = Json::array();
        for (const CellAnchor& cell : v.highlighted) j["highlighted"].push_back(cell_json(cell));
    }
    if (!v.annotations.empty()) {
        j["annotations"] = Json::array();
        for (const Annotation& a : v.annotations) j["annotations"].push_back(annotation_json(a));
    }
    if (!v.panels.empty()) {
        j["panels"] = Json::object();
        for (const auto& [name, open] : v.panels) j["panels"][name] = open;
    }
    if (!v.elements.empty()) j["highlight"] = v.elements;
}

}  // namespace

std::string write_lesson(const Lesson& lesson) {
    Json root = Json::object();
    root["version"] = kLessonVersion;
    root["title"] = lesson.title;
    root["language"] = lesson.language;
    root["slides"] = Json::array();
    for (const Slide& slide : lesson.slides) {
        Json j = Json::object();
        j["title"] = slide.title;
        if (!slide.note.empty()) j["note"] = slide.note;
        put_setup(slide.setup, j);
        put_view(slide.view, j);
        root["slides"].push_back(std::move(j));
    }
    return root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace attn::lesson

namespace attn::lesson {

std::string slide_file_name(const Slide& slide) {
    constexpr size_t kMaxTitleBytes = 60;
    std::string name = slide.number < 10 ? "0" + std::to_string(slide.number) : std::to_string(slide.number);
    name += '_';
    for (size_t i = 0; i < slide.title.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(slide.title[i]);
        const bool continuation = (c & 0xC0) == 0x80;
        if (name.size() >= kMaxTitleBytes && !continuation) break;  // cut only between characters
        const bool keep = c >= 0x80 || std::isalnum(c) || c == '-' || c == '.';
        if (keep) name += static_cast<char>(c);
        else if (name.back() != '_') name += '_';
    }
    while (name.back() == '_' || name.back() == '.') name.pop_back();
    return name + ".png";
}

}  // namespace attn::lesson
