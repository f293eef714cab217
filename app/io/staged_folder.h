// Writing a whole folder so that nothing is ever half-written or lost: its files go into a
// temporary sibling folder first, which is renamed to the target only once complete. An
// existing target is replaced only when it is one of ours (what `is_ours` recognises); the
// old folder is removed only after the new one is in place.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "core/result.h"

namespace attn::io {

// Writes `dir` through `fill`, which gets the fresh temporary folder to write into. A
// non-empty `dir` that `is_ours` does not recognise is refused with the catalogue message
// `not_ours_message` ({path}). A failure removes the temporary folder and leaves `dir` as it was.
Status write_folder_staged(const std::string& dir, bool (*is_ours)(const std::filesystem::path&),
                           const char* not_ours_message,
                           const std::function<Status(const std::filesystem::path& folder)>& fill);

}  // namespace attn::io
