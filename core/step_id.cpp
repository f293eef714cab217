#include "core/step_id.h"

namespace attn {

std::optional<StepId> parse_step_name(std::string_view name) {
    for (const StepInfo& row : kStepTable)
        if (name == row.name) return row.id;
    return std::nullopt;
}

}  // namespace attn
