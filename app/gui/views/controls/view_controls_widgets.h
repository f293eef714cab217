// Small pieces the controls panel's files share: help markers, notes, section headers
// and choices greyed out with the reason the core gives.
#pragma once

#include <string>

#include <imgui.h>

#include "core/message.h"

namespace attn::gui {

// What every section of the controls needs besides the session it edits.
struct ControlsContext {
    bool light_theme = false;
    // A trained model runs its own attention: every option is fixed; this says why.
    const char* model_reason = nullptr;
    // A weights file decides the projections' shapes (bias, num_kv_heads, input_dim,
    // bias_k/bias_v); this says why those controls are greyed out. Null without a file.
    const char* weights_reason = nullptr;
};

// What a section did: config_changed asks for a new trace; session_edited marks an edit
// that needs none (the session still comes back).
struct SectionEdit {
    bool config_changed = false;
    bool session_edited = false;
};

// A live text field (every keystroke is applied) whose Escape only leaves the field:
// ImGui's own Escape would put back the text the field had when it was clicked, undoing
// what was already applied. Returns true when the text changed.
bool input_text_live(const char* label, const char* hint, std::string* text);
// Wrapped text broken only at spaces or between Chinese characters (never inside "0.89"
// or "-inf", as ImGui's own wrapping does after a full stop), in a group so every line
// starts where the first did.
void text_wrapped_at_spaces(const std::string& text);
// "(?)" on the same line; hovering it shows `text`.
void help_marker(const char* text);
// A wrapped line in the theme's warning colour (nothing when `message` is empty).
void warning_note(const Message& message, bool light_theme);
// A wrapped line in the disabled-text colour.
void quiet_note(const std::string& text);
// A collapsing header titled by catalogue key `key` (closed at first unless `open`), with
// a "(?)" at its right end showing `help_key`'s text. Returns true when it is open.
bool section_header(const char* key, const char* help_key, bool open = false);
// A tooltip with `reason` over the last item, also when that item is disabled.
void reason_tooltip(const char* reason);
// A checkbox that cannot be ticked while `refusal` is non-empty (it is then greyed out,
// and hovering says why); unticking always works. Returns true when it toggled `value`.
bool guarded_checkbox(const char* label, bool* value, const Message& refusal);
// ImGui::SliderInt / SliderFloat whose value (printf `format`) is drawn inside the frame on
// the side away from the grab, so the grab never covers it ("= E (6)", "1.00x" in a narrow
// 1024x768 panel). Ctrl+click still types a value.
bool slider_int_aside(const char* label, int* value, int lo, int hi, const char* format, ImGuiSliderFlags flags);
bool slider_float_aside(const char* label, float* value, float lo, float hi, const char* format, ImGuiSliderFlags flags);
// A group of controls a trained model fixes: greyed out, hovering says why. Call
// end_fixed_group() after the controls (both do nothing special when `reason` is null).
void begin_fixed_group(const char* reason);
void end_fixed_group(const char* reason);
// A combo's label: beside it when the panel is wide, on its own line above a full-width
// combo when it is narrow (a 1024x768 projector), so the chosen text is never cut short.
// `preview`, the chosen text, moves the label above and widens the combo when it would
// not fit beside the label. Returns the ImGui label to pass to the combo.
std::string combo_label(const char* key, const char* preview = nullptr);
// The preview for the next combo (after combo_label): `full` when its frame holds it,
// else `brief` (a narrow panel cuts "stacked (one module per h").
const char* combo_preview(const char* full, const char* brief);
// flow() for a checkbox or radio button labelled `label` (its box comes first).
void flow_checkbox(const char* label);
// Puts the next item, `label` wide, on the same line when it fits, else on a new line.
void flow(const std::string& label);

}  // namespace attn::gui
