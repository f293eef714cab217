// The one list of configuration fields: a row per AttentionConfig option, saying under
// which name each place knows it. The command line (app/options/config_options.cpp),
// settings.ini and the window's save and restore (app/gui/state/settings.cpp, app_state.cpp),
// the trace manifest (app/io/trace_writer.cpp) and the PyTorch export's module
// arguments (app/io/torch_export.cpp) loop over these rows instead of naming each field.
// Adding an option is one row here, its help text in assets/lang/en.json and its use in
// the core. Standard library only (plus the core's own parsers).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/config.h"

namespace attn {

// Where a field lives in AttentionConfig; its type decides how it is read and written.
using FieldMember =
    std::variant<bool AttentionConfig::*, int AttentionConfig::*, uint64_t AttentionConfig::*, float AttentionConfig::*,
                 double AttentionConfig::*, std::string AttentionConfig::*, std::vector<int> AttentionConfig::*,
                 MaskKind AttentionConfig::*, MaskPresets AttentionConfig::*, MaskFill AttentionConfig::*,
                 ScaleChoice AttentionConfig::*, RopeStyle AttentionConfig::*, DType AttentionConfig::*,
                 Variant AttentionConfig::*, InitKind AttentionConfig::*>;

// A value as the files write it: a JSON scalar or a list of whole numbers (monostate: null).
using FieldValue = std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, std::vector<int>>;

// A closed range of numbers; lo == hi means "no range".
struct FieldRange {
    double lo = 0, hi = 0;
    bool given() const { return lo < hi; }
};

// Facts about a row (bits of ConfigField::flags).
enum FieldFlag : unsigned {
    kShowDefault = 1u << 0,   // --help shows the default value
    kZeroIsAuto = 1u << 1,    // 0 means "derived" (S = L, kdim = d_in, ...): no default shown, no option written
    kFilesDecide = 1u << 2,   // weights or input files can fix it (a size, a bias): an explicit option must agree with them
    kNegatedFlag = 1u << 3,   // the option turns the field off (--no-bias clears `bias`)
    kSavedAsIndex = 1u << 4,  // settings.ini holds the enumeration's number, not its name
    kNullWhenEmpty = 1u << 5, // the manifest writes null for an empty text
    kExportNegated = 1u << 6, // the export's argument is the opposite flag (no_out_proj -> out_proj)
    kByteSize = 1u << 7,      // the option is a size with a unit ("2GiB")
};

struct ConfigField {
    const char* name;             // the member's name (the code's and the tests' handle)
    FieldMember member;
    const char* option;           // CLI11 names, "--seq-len,-L" ("": no option of its own)
    const char* help_key;         // catalogue key of the option's --help text
    const char* settings_key;     // key in settings.ini ("": not saved by the window)
    const char* manifest_key;     // key in the manifest's "config" ("": not written)
    const char* export_key;       // keyword argument of the exported Attention module ("": none)
    FieldRange option_range;      // what the command line accepts (none: validate() decides)
    FieldRange saved_range;       // what the window's controls take (an enumeration: its values' indices); settings.ini clamps to it
    unsigned flags = 0;           // FieldFlag bits
    const char* choices = "";     // the only texts the option takes, comma separated ("": any)
    // What the files write when it is not the member itself (resolved sizes, flags that
    // follow from others); nullptr: the member.
    FieldValue (*resolved)(const AttentionConfig&) = nullptr;

    bool has(FieldFlag flag) const { return (flags & flag) != 0; }
    // The option's first long name, "--seq-len" ("" when there is no option).
    std::string long_option() const;
};

// Every field, in the order of the command line's --help.
const std::vector<ConfigField>& config_fields();
// The row named `name`; asserts that it exists (names are the code's, not the user's).
const ConfigField& config_field(const std::string& name);
// The row's position in config_fields().
size_t field_index(const ConfigField& field);

// The field as the command line writes it: "4", "causal,left-padding", "-1e20", "bfloat16".
// The mask row writes every preset in use (its `mask` and its mask_presets together).
std::string format_field(const ConfigField& field, const AttentionConfig& config);
// Reads the command line's text into the field; a failure names the text.
Status parse_field(const ConfigField& field, const std::string& text, AttentionConfig& config);
// The value the files write (after the 0 = "derived" rules when the row resolves it).
FieldValue field_value(const ConfigField& field, const AttentionConfig& config);
// The reverse of field_value, for reading a manifest back; a value of the wrong kind fails.
Status set_field_value(const ConfigField& field, const FieldValue& value, AttentionConfig& config);
// Copies the field from one configuration to another.
void copy_field(const ConfigField& field, const AttentionConfig& from, AttentionConfig& to);

}  // namespace attn
