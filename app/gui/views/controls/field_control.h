// The window's control for a plain configuration field, drawn from its row in the field
// table (core/config_fields.h) instead of by hand: the row's type picks the widget, its
// saved_range the limits, and its name the catalogue keys.
//   - a flag: a checkbox, greyed out (hovering says why) while the core refuses it ticked;
//   - a whole number: a slider over saved_range, logarithmic when the range spans more
//     than 64x; a typed box when it spans more than a slider can point at; a row where 0
//     means "derived" shows the derived value and the text `controls.<name>.auto`;
//   - a real number: a slider over saved_range (logarithmic when it spans 1000x);
//   - an enumeration: a radio button per value in saved_range, each greyed out with the
//     core's reason when refused.
// Catalogue keys: `controls.<name>` (the label), `controls.<name>.help` (a "(?)" marker, if
// the catalogue has it), `controls.<name>.<value>` (an enumeration's values, as to_string
// names them). Adding a plain option to the window is then its row, its keys and one name
// in a section's list (view_controls*.cpp).
#pragma once

#include <initializer_list>

#include "app/gui/state/session.h"
#include "core/config_fields.h"

namespace attn::gui {

// Draws `field`'s control, editing session.config; true when the configuration changed.
bool field_control(Session& session, const ConfigField& field);
// The controls of the rows named `names`, one after another.
bool field_controls(Session& session, std::initializer_list<const char*> names);

}  // namespace attn::gui
