// read_lesson: a lesson's JSON text -> Lesson. Each field is read by one small function
// that either fills its part of the slide or returns why not, as a message naming the
// slide and the field; a slide with any such message is left out, the others stay.
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/text/languages.h"
#include "core/text_split.h"

namespace attn::lesson {
namespace {

using Json = nlohmann::json;
using Why = std::optional<Message>;  // none: the field was read

// Deeper nesting than this is no lesson (a lesson nests five levels); refused before parsing.
constexpr int kMaxDepth = 32;

Message type_error(const char* expected) { return Message("lesson.why.type", {{"expected", Message(expected)}}); }

Message range_error(double value, double lo, double hi) {
    return Message("lesson.why.range", {{"value", number_text(value)}, {"lo", number_text(lo)}, {"hi", number_text(hi)}});
}

Message choice_error(const std::string& name, const std::vector<std::string>& known) {
    return Message("lesson.why.unknown_choice", {{"name", name}, {"names", quoted_list(known)}});
}

// A whole number within lo..hi.
Why read_int(const Json& value, int lo, int hi, int& out) {
    if (!value.is_number_integer()) return type_error("lesson.type.whole");
    const double v = value.get<double>();
    if (v < lo || v > hi) return range_error(v, lo, hi);
    out = value.get<int>();
    return std::nullopt;
}

Why read_float(const Json& value, double lo, double hi, float& out) {
    if (!value.is_number()) return type_error("lesson.type.number");
    const double v = value.get<double>();
    if (!(v >= lo && v <= hi)) return range_error(v, lo, hi);
    out = static_cast<float>(v);
    return std::nullopt;
}

Why read_text(const Json& value, std::string& out) {
    if (!value.is_string()) return type_error("lesson.type.text");
    out = value.get<std::string>();
    return std::nullopt;
}

Why read_step(const Json& value, StepId& out) {
    std::string name;
    if (Why why = read_text(value, name)) return why;
    const std::optional<StepId> id = parse_step_name(name);
    if (!id) return Message("lesson.why.unknown_step", {{"name", name}});
    out = *id;
    return std::nullopt;
}

// One of `names` (a closed list of the format), by position.
template <size_t N>
Why read_choice(const Json& value, const std::array<const char*, N>& names, int& out) {
    std::string name;
    if (Why why = read_text(value, name)) return why;
    for (size_t i = 0; i < N; ++i)
        if (name == names[i]) {
            out = static_cast<int>(i);
            return std::nullopt;
        }
    return choice_error(name, std::vector<std::string>(names.begin(), names.end()));
}

// The fields an object may have, from `known`; the first other one is named.
Why unknown_field(const Json& object, const std::vector<std::string>& known, std::string& field) {
    for (const auto& item : object.items()) {
        bool found = false;
        for (const std::string& k : known) found |= k == item.key();
        if (found) continue;
        field = item.key();
        return Message("lesson.why.unknown_field", {{"fields", quoted_list(known)}});
    }
    return std::nullopt;
}

// A cell: {"step", "panel", "row", "col", "part"}; the step defaults to the slide's.
Why read_cell(const Json& value, const std::optional<StepId>& slide_step, CellAnchor& cell) {
    if (!value.is_object()) return type_error("lesson.type.cell");
    std::string field;
    if (Why why = unknown_field(value, kCellFields, field)) return why;
    if (value.contains("step")) {
        if (Why why = read_step(value["step"], cell.step)) return why;
    } else if (slide_step) {
        cell.step = *slide_step;
    } else {
        return Message("lesson.why.cell_needs_step");
    }
    constexpr int kMaxIndex = 1 << 20;
    const std::pair<const char*, int*> numbers[] = {{"panel", &cell.panel}, {"row", &cell.row}, {"col", &cell.col}};
    for (const auto& [name, target] : numbers) {
        if (!value.contains(name)) return Message("lesson.why.cell_missing", {{"name", name}});
        if (Why why = read_int(value[name], 0, kMaxIndex, *target)) return why;
    }
    int part = 0;
    if (value.contains("part")) {
        if (Why why = read_choice(value["part"], kCellParts, part)) return why;
    }
    cell.part = static_cast<CellPart>(part);
    return std::nullopt;
}

// A list of at most `max` items, each read by `read_one(item, out)`.
template <typename T, typename ReadOne>
Why read_list(const Json& value, size_t max, std::vector<T>& out, ReadOne read_one) {
    if (!value.is_array()) return type_error("lesson.type.list");
    if (value.size() > max) return Message("lesson.why.too_many", {{"max", max}});
    for (const Json& item : value) {
        T one;
        if (Why why = read_one(item, one)) return why;
        out.push_back(std::move(one));
    }
    return std::nullopt;
}

Why read_points(const Json& value, std::vector<std::array<float, 2>>& points) {
    if (!value.is_array() || value.empty()) return type_error("lesson.type.points");
    if (value.size() > kMaxStrokePoints) return Message("lesson.why.too_many", {{"max", kMaxStrokePoints}});
    constexpr double kFar = 1 << 20;  // cells from the anchor
    for (const Json& point : value) {
        if (!point.is_array() || point.size() != 2) return type_error("lesson.type.points");
        std::array<float, 2> p{};
        for (size_t i = 0; i < 2; ++i)
            if (Why why = read_float(point[i], -kFar, kFar, p[i])) return why;
        points.push_back({snap_to_grid(p[0]), snap_to_grid(p[1])});
    }
    return std::nullopt;
}

Why read_annotation(const Json& value, const std::optional<StepId>& slide_step, Annotation& a) {
    if (!value.is_object()) return type_error("lesson.type.object");
    std::string field;
    if (Why why = unknown_field(value, kAnnotationFields, field)) return why;
    int kind = 0;
    if (!value.contains("kind")) return Message("lesson.why.cell_missing", {{"name", "kind"}});
    if (Why why = read_choice(value["kind"], kAnnotationKinds, kind)) return why;
    a.kind = static_cast<Annotation::Kind>(kind);
    if (value.contains("colour"))
        if (Why why = read_choice(value["colour"], kPenColours, a.colour)) return why;
    if (!value.contains("cell") || !value.contains("points"))
        return Message("lesson.why.cell_missing", {{"name", value.contains("cell") ? "points" : "cell"}});
    if (Why why = read_cell(value["cell"], slide_step, a.cell)) return why;
    if (Why why = read_points(value["points"], a.points)) return why;
    if (a.kind == Annotation::Kind::Arrow && a.points.size() != 2) return Message("lesson.why.arrow_points");
    return std::nullopt;
}

Why read_panels(const Json& value, std::map<std::string, bool>& panels) {
    if (!value.is_object()) return type_error("lesson.type.object");
    for (const auto& item : value.items()) {
        int index = 0;
        if (Why why = read_choice(Json(item.key()), kPanelNames, index)) return why;
        if (!item.value().is_boolean()) return type_error("lesson.type.flag");
        panels[item.key()] = item.value().get<bool>();
    }
    return std::nullopt;
}

// A window element's ID (kElementIds).
Why read_element(const Json& value, std::string& id) {
    int index = 0;
    if (Why why = read_choice(value, kElementIds, index)) return why;
    id = kElementIds[static_cast<size_t>(index)];
    return std::nullopt;
}

// The options object: each value a flag, a number or a text, by an option's long name.
Why read_options(const Json& value, std::map<std::string, OptionValue>& options) {
    if (!value.is_object()) return type_error("lesson.type.object");
    for (const auto& item : value.items()) {
        if (Why why = check_option_name(item.key())) return why;
        OptionValue option;
        const Json& v = item.value();
        if (v.is_boolean()) option = {OptionValue::Kind::Flag, v.get<bool>() ? "true" : "false"};
        else if (v.is_number()) option = {OptionValue::Kind::Number, v.dump()};
        else if (v.is_string()) option = {OptionValue::Kind::Text, v.get<std::string>()};
        else return type_error("lesson.type.option");
        options[item.key()] = std::move(option);
    }
    return std::nullopt;
}

Why read_head(const Json& value, int& head) {
    if (value.is_string() && value.get<std::string>() == "all") {
        head = -1;
        return std::nullopt;
    }
    if (!value.is_number_integer()) return type_error("lesson.type.head");
    return read_int(value, 0, 1 << 16, head);
}

// "top_p": in (0, 1], as --top-p (core/model/sampling.h).
Why read_top_p(const Json& value, float& out) {
    if (Why why = read_float(value, 0.0, 1.0, out)) return why;
    if (out == 0.0f) return Message("lesson.why.top_p_zero");
    return std::nullopt;
}

// "sample_seed": a whole number from 0.
Why read_seed(const Json& value, uint64_t& out) {
    int seed = 0;
    if (Why why = read_int(value, 0, std::numeric_limits<int>::max(), seed)) return why;
    out = static_cast<uint64_t>(seed);
    return std::nullopt;
}

// The fields of what the slide computes.
Why read_setup_field(const std::string& key, const Json& value, SlideSetup& setup) {
    if (key == "generate") return read_int(value, 1, 1 << 16, setup.generate);
    if (key == "temperature") return read_float(value, 0.0, 100.0, setup.sampling.temperature);
    if (key == "top_k") return read_int(value, 0, 1 << 20, setup.sampling.top_k);
    if (key == "top_p") return read_top_p(value, setup.sampling.top_p);
    if (key == "sample_seed") return read_seed(value, setup.sampling.seed);
    if (key == "model") return read_text(value, setup.model);
    if (key == "recipe") return read_text(value, setup.recipe);
    if (key == "sentence") return read_text(value, setup.sentence.emplace());
    if (key == "layer") return read_int(value, 0, 1 << 16, setup.layer.emplace());
    return read_options(value, setup.options);  // "options"
}

// One field of a slide (the step is read before the others: cells default to it).
Why read_slide_field(const std::string& key, const Json& value, Slide& slide) {
    SlideView& view = slide.view;
    if (key == "title") return read_text(value, slide.title);
    if (key == "note") return read_text(value, slide.note);
    if (key == "step") return read_step(value, view.step.emplace());
    if (key == "head") return read_head(value, view.head);
    if (key == "batch_item") return read_int(value, 0, 1 << 16, view.batch_item);
    if (key == "moment") return read_float(value, 0.0, 1.0, view.moment);
    if (key == "decode_step") return read_int(value, 0, 1 << 16, view.decode_step);
    if (key == "pinned") return read_cell(value, view.step, view.pinned.emplace());
    if (key == "followed") return read_cell(value, view.step, view.followed.emplace());
    const auto cell = [&](const Json& item, CellAnchor& out) { return read_cell(item, view.step, out); };
    const auto annotation = [&](const Json& item, Annotation& out) { return read_annotation(item, view.step, out); };
    if (key == "highlighted") return read_list(value, kMaxCells, view.highlighted, cell);
    if (key == "annotations") return read_list(value, kMaxAnnotations, view.annotations, annotation);
    if (key == "panels") return read_panels(value, view.panels);
    if (key == "highlight") return read_list(value, kElementIds.size(), view.elements, read_element);
    return read_setup_field(key, value, slide.setup);
}

// One slide, or the message that leaves it out.
std::optional<Message> read_slide(const Json& value, Slide& slide) {
    if (!value.is_object()) return Message("lesson.slide_whole_error", {{"slide", slide.number}, {"why", type_error("lesson.type.object")}});
    std::string field;
    if (Why why = unknown_field(value, kSlideFields, field)) return slide_error(slide.number, field, *why);
    if (!value.contains("title")) return slide_error(slide.number, "title", Message("lesson.why.missing"));
    if (value.contains("step"))
        if (Why why = read_slide_field("step", value["step"], slide)) return slide_error(slide.number, "step", *why);
    for (const auto& item : value.items()) {
        if (item.key() == "step") continue;
        if (Why why = read_slide_field(item.key(), item.value(), slide)) return slide_error(slide.number, item.key(), *why);
    }
    if (!slide.setup.model.empty() && !slide.setup.recipe.empty())
        return slide_error(slide.number, "recipe", Message("lesson.why.model_and_recipe"));
    if (!value.contains("generate"))  // how tokens are drawn means nothing without a generation
        for (const std::string& name : kSamplingFields)
            if (value.contains(name)) return slide_error(slide.number, name, Message("lesson.why.sampling_without_generate"));
    return std::nullopt;
}

// Bracket depth outside strings, so a pathological nesting is refused before parsing.
int nesting_depth(const std::string& text) {
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

// The whole text as JSON, or why it cannot be a lesson.
Result<Json> parse_json(const std::string& text, const std::string& name) {
    auto file_error = [&](Message why) { return Result<Json>::failure(Message("lesson.file_error", {{"file", name}, {"why", std::move(why)}})); };
    if (text.size() > kMaxLessonBytes)
        return file_error(Message("lesson.why.too_large", {{"size", text.size()}, {"max", kMaxLessonBytes}}));
    if (const std::optional<size_t> bad = first_invalid_utf8(text)) return file_error(Message("error.text.invalid_utf8", {{"byte", *bad}}));
    if (nesting_depth(text) > kMaxDepth) return file_error(Message("lesson.why.too_deep", {{"max", kMaxDepth}}));
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& e) {
        // The parser's own words are English: the window says where the text stops being JSON.
        const size_t at = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        const size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
        const size_t column = at - (line_start == std::string::npos || at == 0 ? 0 : line_start + 1) + 1;
        return file_error(Message("lesson.why.not_json", {{"line", line}, {"column", column}}));
    } catch (const Json::exception&) {
        return file_error(Message("lesson.why.not_json", {{"line", 1}, {"column", 1}}));
    }
}

// The lesson's own fields; a wrong title, language or length is a problem, not a refusal.
Why read_lesson_fields(const Json& root, Lesson& lesson, std::string& field) {
    if (Why why = unknown_field(root, kLessonFields, field)) return why;
    field = "version";
    if (!root.contains("version")) return Message("lesson.why.missing");
    if (Why why = read_int(root["version"], 1, std::numeric_limits<int>::max(), lesson.version)) return why;
    if (lesson.version > kLessonVersion)
        return Message("lesson.why.newer_version", {{"version", lesson.version}, {"supported", kLessonVersion}});
    field = "slides";
    if (!root.contains("slides") || !root["slides"].is_array()) return type_error("lesson.type.list");
    if (root["slides"].size() > kMaxSlides) return Message("lesson.why.too_many", {{"max", kMaxSlides}});
    return std::nullopt;
}

void read_title_language_minutes(const Json& root, const std::string& name, LessonRead& read) {
    Lesson& lesson = read.lesson;
    auto problem = [&](const char* field, Message why) {
        read.problems.push_back(Message("lesson.file_field_error", {{"file", name}, {"field", field}, {"why", std::move(why)}}));
    };
    if (root.contains("title"))
        if (Why why = read_text(root["title"], lesson.title)) problem("title", *why);
    if (root.contains("minutes"))
        if (Why why = read_int(root["minutes"], 1, kMaxLessonMinutes, lesson.minutes)) problem("minutes", *why);
    if (!root.contains("language")) return;
    std::string language;
    if (Why why = read_text(root["language"], language)) return problem("language", *why);
    if (!text::find_language(language)) {
        return problem("language", choice_error(language, text::language_codes()));
    }
    lesson.language = language;
}

}  // namespace

Message slide_error(int slide, const std::string& field, Message why) {
    return Message("lesson.slide_error", {{"slide", slide}, {"field", field}, {"why", std::move(why)}});
}

Result<LessonRead> read_lesson(const std::string& json_text, const std::string& name) {
    Result<Json> parsed = parse_json(json_text, name);
    if (!parsed) return Result<LessonRead>::failure(parsed.message());
    const Json& root = parsed.value();
    if (!root.is_object())
        return Result<LessonRead>::failure(Message("lesson.file_error", {{"file", name}, {"why", type_error("lesson.type.object")}}));
    LessonRead read;
    std::string field;
    if (Why why = read_lesson_fields(root, read.lesson, field))
        return Result<LessonRead>::failure(Message("lesson.file_field_error", {{"file", name}, {"field", field}, {"why", *why}}));
    read_title_language_minutes(root, name, read);
    int number = 0;
    for (const Json& item : root["slides"]) {
        Slide slide;
        slide.number = ++number;
        if (std::optional<Message> why = read_slide(item, slide)) read.problems.push_back(std::move(*why));
        else read.lesson.slides.push_back(std::move(slide));
    }
    if (number == 0) read.problems.push_back(Message("lesson.file_error", {{"file", name}, {"why", Message("lesson.why.no_slides")}}));
    return read;
}

}  // namespace attn::lesson
