// The names of the lesson format, shared by its reader and writer: the fields of each
// object in the order the writer puts them, and the closed lists of choices.
// The configuration's options are not listed here: they are the command line's
// (core/config_fields.h through app/options/config_options.h).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/message.h"

namespace attn::lesson {

inline const std::vector<std::string> kLessonFields = {"version", "title", "language", "minutes", "slides"};
inline const std::vector<std::string> kSlideFields = {
    "title", "note",    "model",    "recipe",   "sentence",    "layer",       "generate", "temperature", "top_k", "top_p", "sample_seed", "options",
    "step",  "head",    "batch_item", "moment", "decode_step", "pinned",      "followed",    "highlighted", "annotations", "panels",
    "highlight"};
// The fields that say how a generation draws its tokens: only with "generate".
inline const std::vector<std::string> kSamplingFields = {"temperature", "top_k", "top_p", "sample_seed"};
inline const std::vector<std::string> kCellFields = {"step", "panel", "row", "col", "part"};
inline const std::vector<std::string> kAnnotationFields = {"kind", "colour", "cell", "points"};
// By position: CellPart and Annotation::Kind.
inline constexpr std::array<const char*, 4> kCellParts = {"result", "input", "weight", "bias"};
inline constexpr std::array<const char*, 2> kAnnotationKinds = {"stroke", "arrow"};

// Why `name` cannot be a key of a slide's "options" (none when it is one of the command
// line's configuration options, by long name without "--").
std::optional<Message> check_option_name(const std::string& name);

// The shortest text that reads back as the same float ("0.3", "1e-05").
std::string number_text(double value);

}  // namespace attn::lesson
