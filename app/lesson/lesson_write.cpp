// write_lesson: Lesson -> JSON text, fields in the order of lesson_fields.h, only the
// fields that differ from what an absent field means, so a hand-written file and a saved
// one look alike.
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_fields.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>

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

// A drawn point's coordinate on the file's grid: a stroke of 200 points stays a short line.
Json rounded(float value) { return number(snap_to_grid(value)); }

Json annotation_json(const Annotation& a) {
    Json j = Json::object();
    j["kind"] = kAnnotationKinds[static_cast<size_t>(a.kind)];
    j["colour"] = kPenColours[static_cast<size_t>(a.colour)];
    j["cell"] = cell_json(a.cell);
    Json points = Json::array();
    for (const auto& p : a.points) points.push_back(Json::array({rounded(p[0]), rounded(p[1])}));
    j["points"] = std::move(points);
    return j;
}

// Each drawing goes into the indented file as a marker string, replaced afterwards by the
// drawing on one line (nlohmann's dump indents all or nothing).
std::string drawing_marker(size_t index) { return std::string("\x01") + "drawing " + std::to_string(index); }

std::string put_drawings_on_lines(std::string text, const std::vector<std::string>& drawings) {
    for (size_t i = 0; i < drawings.size(); ++i) {
        const std::string marker = "\"\\u0001drawing " + std::to_string(i) + "\"";
        const size_t at = text.find(marker);
        if (at != std::string::npos) text.replace(at, marker.size(), drawings[i]);
    }
    return text;
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
    if (s.generate > 0) {  // the sampling settings only when they differ from greedy's defaults
        const SamplingSettings absent;
        j["generate"] = s.generate;
        if (s.sampling.temperature != absent.temperature) j["temperature"] = number(s.sampling.temperature);
        if (s.sampling.top_k != absent.top_k) j["top_k"] = s.sampling.top_k;
        if (s.sampling.top_p != absent.top_p) j["top_p"] = number(s.sampling.top_p);
        if (s.sampling.seed != absent.seed) j["sample_seed"] = s.sampling.seed;
    }
    if (s.options.empty()) return;
    Json options = Json::object();
    for (const auto& [name, value] : s.options) options[name] = option_json(value);
    j["options"] = std::move(options);
}

void put_view(const SlideView& v, Json& j, std::vector<std::string>& drawings) {
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
        for (const Annotation& a : v.annotations) {
            j["annotations"].push_back(drawing_marker(drawings.size()));
            drawings.push_back(annotation_json(a).dump(-1, ' ', false, Json::error_handler_t::replace));
        }
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
    if (lesson.minutes > 0) root["minutes"] = lesson.minutes;
    root["slides"] = Json::array();
    std::vector<std::string> drawings;  // each on one line (put_drawings_on_lines)
    for (const Slide& slide : lesson.slides) {
        Json j = Json::object();
        j["title"] = slide.title;
        if (!slide.note.empty()) j["note"] = slide.note;
        put_setup(slide.setup, j);
        put_view(slide.view, j, drawings);
        root["slides"].push_back(std::move(j));
    }
    return put_drawings_on_lines(root.dump(2, ' ', false, Json::error_handler_t::replace), drawings) + "\n";
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
