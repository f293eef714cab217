// The step table: names are unique, round-trip, and kAllStepIds lists every id once in order.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "core/step_id.h"

using attn::StepId;

TEST_CASE("step ids: every id has a distinct name that parses back to it") {
    std::set<std::string> names;
    for (size_t i = 0; i < attn::kAllStepIds.size(); ++i) {
        const StepId id = attn::kAllStepIds[i];
        CHECK(static_cast<size_t>(id) == i);  // record order == enum order
        const std::string name = attn::step_name(id);
        CHECK(name != "?");
        CHECK(names.insert(name).second);
        const auto parsed = attn::parse_step_name(name);
        REQUIRE(parsed.has_value());
        CHECK(*parsed == id);
    }
    CHECK(names.size() == attn::kStepIdCount);
    CHECK_FALSE(attn::parse_step_name("attn_score").has_value());
    CHECK_FALSE(attn::parse_step_name("").has_value());
}
