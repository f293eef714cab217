#include "core/config_fields.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <type_traits>

#include "core/recipe.h"

namespace attn {
namespace {

using C = AttentionConfig;

// A size the files write resolved (0 = "derived" replaced by what it derives to).
template <int (C::*size)() const>
FieldValue resolved_size(const C& c) {
    return static_cast<int64_t>((c.*size)());
}
FieldValue resolved_no_qkv_bias(const C& c) { return !c.qkv_bias(); }
// Without an output projection there is no output bias to leave out.
FieldValue resolved_no_out_bias(const C& c) { return !c.no_out_proj && !c.out_bias(); }
FieldValue resolved_cross(const C& c) { return c.is_cross(); }

constexpr double kMaxSize = 1 << 20;  // what an option of a size accepts; the memory budget decides the rest
constexpr double kMaxOffset = 1 << 30;

// Columns: name, member, option, help key, settings key, manifest key, export argument,
// option range, saved range (the window's controls), flags, choices, resolved value.
const std::vector<ConfigField> kFields = {
    {"seq_len", &C::seq_len, "--seq-len,-L", "option.seq_len", "seq_len", "seq_len", "", {1, kMaxSize}, {1, 1024},
     kShowDefault | kFilesDecide, "", &resolved_size<&C::L>},
    {"kv_len", &C::kv_len, "--kv-len,-S", "option.kv_len", "", "kv_len", "", {1, kMaxSize}, {0, 1024},
     kShowDefault | kZeroIsAuto | kFilesDecide, "", &resolved_size<&C::S>},
    {"hidden_dim", &C::hidden_dim, "--hidden-dim,-E", "option.hidden_dim", "hidden_dim", "hidden_dim", "E", {1, kMaxSize},
     {1, 1024}, kShowDefault | kFilesDecide, "", &resolved_size<&C::E>},
    {"kdim", &C::kdim, "--kdim", "option.kdim", "", "kdim", "kdim", {1, kMaxSize}, {0, 1024},
     kShowDefault | kZeroIsAuto | kFilesDecide, "", &resolved_size<&C::key_dim>},
    {"vdim", &C::vdim, "--vdim", "option.vdim", "", "vdim", "vdim", {1, kMaxSize}, {0, 1024},
     kShowDefault | kZeroIsAuto | kFilesDecide, "", &resolved_size<&C::value_dim>},
    {"batch", &C::batch, "--batch,-B", "option.batch", "batch", "batch", "", {1, kMaxSize}, {1, 8},
     kShowDefault | kFilesDecide, "", &resolved_size<&C::batch_size>},
    {"num_heads", &C::num_heads, "--num-heads,-H", "option.num_heads", "num_heads", "num_heads", "H", {1, kMaxSize},
     {1, 32}, kShowDefault, "", &resolved_size<&C::H>},
    {"seed", &C::seed, "--seed", "option.seed", "seed", "seed", "", {}, {0, 1000000}, kShowDefault},
    {"input_dim", &C::input_dim, "--input-dim", "option.input_dim", "input_dim", "input_dim", "d_in", {1, kMaxSize},
     {0, 1024}, kShowDefault | kZeroIsAuto | kFilesDecide, "", &resolved_size<&C::d_in>},
    {"num_kv_heads", &C::num_kv_heads, "--num-kv-heads", "option.num_kv_heads", "num_kv_heads", "num_kv_heads", "H_kv",
     {1, kMaxSize}, {0, 64}, kShowDefault | kZeroIsAuto | kFilesDecide, "", &resolved_size<&C::H_kv>},
    {"decode_from", &C::decode_from, "--decode-from", "option.decode_from", "", "", "", {1, kMaxSize}, {},
     kZeroIsAuto},
    {"mask", &C::mask, "--mask", "option.mask", "mask", "mask", "", {}, {0, 2}, kShowDefault | kSavedAsIndex},
    {"mask_presets", &C::mask_presets, "", "", "mask_presets", "", "", {}, {}},  // on the command line: part of --mask
    {"valid_lengths", &C::valid_lengths, "--valid-lengths", "option.valid_lengths", "", "valid_lengths", "", {}, {}},
    {"window", &C::window, "--window", "option.window", "window", "window", "", {1, kMaxSize}, {0, 1024}, kZeroIsAuto},
    {"mask_fill", &C::mask_fill, "--mask-fill", "option.mask_fill", "mask_fill", "mask_fill", "", {}, {}, kShowDefault},
    {"scale", &C::scale, "--scale", "option.scale", "scale", "scale", "", {}, {}, kShowDefault},
    {"mask_before_scale", &C::mask_before_scale, "--mask-before-scale", "option.mask_before_scale", "mask_before_scale",
     "mask_before_scale", "mask_before_scale", {}, {}},
    {"rope", &C::rope, "--rope", "option.rope", "rope", "rope", "", {}, {}},
    {"rope_base", &C::rope_base, "--rope-base", "option.rope_base", "rope_base", "rope_base", "", {}, {1, 1e7},
     kShowDefault},
    {"rope_style", &C::rope_style, "--rope-style", "option.rope_style", "rope_style", "rope_style", "", {}, {0, 1},
     kShowDefault, "half,interleaved"},
    {"position_offset", &C::position_offset, "--position-offset", "option.position_offset", "position_offset",
     "position_offset", "", {0, kMaxOffset}, {0, 1000000}, kShowDefault},
    {"no_qkv_bias", &C::no_qkv_bias, "--no-qkv-bias", "option.no_qkv_bias", "no_qkv_bias", "no_qkv_bias", "qkv_bias",
     {}, {}, kExportNegated | kFilesDecide, "", &resolved_no_qkv_bias},
    {"no_out_bias", &C::no_out_bias, "--no-out-bias", "option.no_out_bias", "no_out_bias", "no_out_bias", "", {}, {}, kFilesDecide,
     "", &resolved_no_out_bias},
    {"no_out_proj", &C::no_out_proj, "--no-out-proj", "option.no_out_proj", "no_out_proj", "no_out_proj", "out_proj",
     {}, {}, kExportNegated | kFilesDecide},
    {"add_bias_kv", &C::add_bias_kv, "--add-bias-kv", "option.add_bias_kv", "add_bias_kv", "add_bias_kv", "add_bias_kv",
     {}, {}, kFilesDecide},
    {"add_zero_attn", &C::add_zero_attn, "--add-zero-attn", "option.add_zero_attn", "add_zero_attn", "add_zero_attn",
     "add_zero_attn", {}, {}},
    {"seq_first", &C::seq_first, "--seq-first", "option.seq_first", "", "seq_first", "", {}, {}},
    {"average_weights", &C::average_weights, "--average-weights", "option.average_weights", "average_weights",
     "average_weights", "average_weights", {}, {}},
    {"dtype", &C::dtype, "--dtype", "option.dtype", "dtype", "dtype", "", {}, {0, 2}, kShowDefault},
    {"dropout", &C::dropout, "--dropout", "option.dropout", "dropout", "dropout", "dropout", {}, {0, 0.9}, kShowDefault},
    {"dropout_seed", &C::dropout_seed, "--dropout-seed", "option.dropout_seed", "", "dropout_seed", "", {}, {},
     kShowDefault},
    {"bias", &C::bias, "--no-bias", "option.bias", "bias", "bias", "", {}, {}, kNegatedFlag | kFilesDecide},
    {"cross_attention", &C::cross_attention, "--cross", "option.cross_attention", "", "cross_attention", "", {}, {}, 0,
     "", &resolved_cross},
    {"variant", &C::variant, "--variant", "option.variant", "variant", "variant", "", {}, {0, 2},
     kShowDefault | kSavedAsIndex, "split,stacked,fused"},
    {"max_memory_bytes", &C::max_memory_bytes, "--max-memory", "option.max_memory_bytes", "", "", "", {}, {}, kByteSize},
    {"recipe", &C::recipe, "--recipe", "option.recipe", "recipe", "recipe", "", {}, {}, kNullWhenEmpty},
    {"init", &C::init, "--init", "option.init", "init", "init", "", {}, {}, 0, "torch,attnviz"},
};

Status refused(const ConfigField& field, const std::string& text) {
    return Status::failure(Message("error.config_field.bad_value", {{"name", field.name}, {"text", text}}));
}

// The whole text must be one number ("3abc", "nan" are refused).
template <typename T>
bool read_whole_number(const std::string& text, T& out) {
    std::istringstream in(text);
    T value{};
    if (text.empty() || (text[0] == '-' && std::is_unsigned_v<T>) || !(in >> value) || !(in >> std::ws).eof()) return false;
    if constexpr (std::is_floating_point_v<T>)
        if (!std::isfinite(value)) return false;
    out = value;
    return true;
}

// "6,4,1": whole numbers separated by commas.
bool read_int_list(const std::string& text, std::vector<int>& out) {
    std::vector<int> values;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        int value = 0;
        if (!read_whole_number(item, value)) return false;
        values.push_back(value);
    }
    if (!text.empty() && text.back() == ',') return false;
    out = std::move(values);
    return true;
}

// Stores a core parser's result, or passes its message on.
template <typename T, typename Parsed>
Status store(const Result<Parsed>& parsed, T& target) {
    if (!parsed) return Status::failure(parsed.message());
    target = parsed.value();
    return ok_status();
}

std::string number_text(double value, int digits) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

}  // namespace

std::string ConfigField::long_option() const {
    const std::string names = option;
    const size_t start = names.find("--");
    if (start == std::string::npos) return "";
    return names.substr(start, names.find(',', start) - start);
}

const std::vector<ConfigField>& config_fields() { return kFields; }

const ConfigField& config_field(const std::string& name) {
    for (const ConfigField& field : kFields)
        if (name == field.name) return field;
    assert(false && "config_field: no row of that name");
    return kFields.front();
}

size_t field_index(const ConfigField& field) { return static_cast<size_t>(&field - kFields.data()); }

std::string format_field(const ConfigField& field, const AttentionConfig& c) {
    return std::visit([&](auto member) -> std::string {
        using T = std::decay_t<decltype(c.*member)>;
        const T& value = c.*member;
        if constexpr (std::is_same_v<T, bool>) return value ? "1" : "0";
        else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, uint64_t>) return std::to_string(value);
        else if constexpr (std::is_same_v<T, float>) return number_text(value, 9);
        else if constexpr (std::is_same_v<T, double>) return number_text(value, 17);
        else if constexpr (std::is_same_v<T, std::string>) return value;
        else if constexpr (std::is_same_v<T, std::vector<int>>) {
            std::string text;
            for (size_t i = 0; i < value.size(); ++i) text += (i ? "," : "") + std::to_string(value[i]);
            return text;
        } else if constexpr (std::is_same_v<T, MaskKind>) return to_string(c.mask_spec().presets);  // every preset in use
        else return to_string(value);
    }, field.member);
}

Status parse_field(const ConfigField& field, const std::string& text, AttentionConfig& c) {
    return std::visit([&](auto member) -> Status {
        using T = std::decay_t<decltype(c.*member)>;
        T& target = c.*member;
        if constexpr (std::is_same_v<T, bool>) {
            if (text != "0" && text != "1") return refused(field, text);
            target = text == "1";
        } else if constexpr (std::is_arithmetic_v<T>) {
            if (!read_whole_number(text, target)) return refused(field, text);
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!text.empty() && find_recipe(text) == nullptr) return refused(field, text);  // the one text row: a recipe
            target = text;
        } else if constexpr (std::is_same_v<T, std::vector<int>>) {
            if (!read_int_list(text, target)) return refused(field, text);
        } else if constexpr (std::is_same_v<T, MaskKind>) {
            // One of the old three keeps its field; anything else goes to the presets.
            if (Result<MaskKind> legacy = parse_mask(text)) return store(legacy, target);
            c.mask = MaskKind::None;
            return store(parse_mask_presets(text), c.mask_presets);
        } else if constexpr (std::is_same_v<T, MaskPresets>) return store(parse_mask_presets(text), target);
        else if constexpr (std::is_same_v<T, MaskFill>) return store(parse_mask_fill(text), target);
        else if constexpr (std::is_same_v<T, ScaleChoice>) return store(parse_scale(text), target);
        else if constexpr (std::is_same_v<T, RopeStyle>) return store(parse_rope_style(text), target);
        else if constexpr (std::is_same_v<T, DType>) return store(parse_dtype(text), target);
        else if constexpr (std::is_same_v<T, Variant>) return store(parse_variant(text), target);
        else return store(parse_init(text), target);
        return ok_status();
    }, field.member);
}

FieldValue field_value(const ConfigField& field, const AttentionConfig& c) {
    if (field.resolved) return field.resolved(c);
    return std::visit([&](auto member) -> FieldValue {
        using T = std::decay_t<decltype(c.*member)>;
        const T& value = c.*member;
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, uint64_t> || std::is_same_v<T, std::vector<int>>)
            return value;
        else if constexpr (std::is_same_v<T, int>) return static_cast<int64_t>(value);
        else if constexpr (std::is_floating_point_v<T>) return static_cast<double>(value);
        else if constexpr (std::is_same_v<T, std::string>) {
            if (value.empty() && field.has(kNullWhenEmpty)) return std::monostate{};
            return value;
        } else return format_field(field, c);
    }, field.member);
}

namespace {

// A number of the file as T, when it is one and fits (whole numbers only for whole T).
template <typename T>
bool number_as(const FieldValue& value, T& out) {
    const uint64_t* u = std::get_if<uint64_t>(&value);
    const int64_t* i = std::get_if<int64_t>(&value);
    if constexpr (std::is_floating_point_v<T>) {
        if (const double* d = std::get_if<double>(&value)) out = static_cast<T>(*d);
        else if (u) out = static_cast<T>(*u);
        else if (i) out = static_cast<T>(*i);
        else return false;
    } else {
        constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<T>::max());
        constexpr int64_t kLowest = static_cast<int64_t>(std::numeric_limits<T>::lowest());
        if (u && *u <= kMax) out = static_cast<T>(*u);
        else if (i && *i >= kLowest && (*i < 0 || static_cast<uint64_t>(*i) <= kMax)) out = static_cast<T>(*i);
        else return false;
    }
    return true;
}

}  // namespace

Status set_field_value(const ConfigField& field, const FieldValue& value, AttentionConfig& c) {
    const std::string* text = std::get_if<std::string>(&value);
    return std::visit([&](auto member) -> Status {
        using T = std::decay_t<decltype(c.*member)>;
        T& target = c.*member;
        if constexpr (std::is_same_v<T, bool>) {
            if (!std::holds_alternative<bool>(value)) return refused(field, "?");
            target = std::get<bool>(value);
        } else if constexpr (std::is_arithmetic_v<T>) {
            if (!number_as(value, target)) return refused(field, "?");
        } else if constexpr (std::is_same_v<T, std::vector<int>>) {
            if (!std::holds_alternative<std::vector<int>>(value)) return refused(field, "?");
            target = std::get<std::vector<int>>(value);
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (std::holds_alternative<std::monostate>(value) && field.has(kNullWhenEmpty)) target.clear();
            else if (text) target = *text;
            else return refused(field, "?");
        } else {
            if (!text) return refused(field, "?");
            return parse_field(field, *text, c);
        }
        return ok_status();
    }, field.member);
}

void copy_field(const ConfigField& field, const AttentionConfig& from, AttentionConfig& to) {
    std::visit([&](auto member) { to.*member = from.*member; }, field.member);
}

}  // namespace attn
