// Where an export may write: the checks the export dialog runs before anything is
// written, as pure functions of the typed text and the file system (no ImGui, no GL),
// so they can be tested headless.
#pragma once

#include <string>

#include "core/message.h"

namespace attn::gui {

// What the export writes at the path: one file (PNG, CSV) or a folder of files.
enum class ExportTarget { File, Folder };

// The verdict on a typed path, from "write it" to "refuse".
enum class PathVerdict {
    Ready,            // nothing there yet, the folder it goes into exists: write
    AskOverwrite,     // a file (or an earlier export folder) is there: ask before replacing it
    AskCreateFolder,  // exactly one folder level is missing: ask "create folder X?"
    Refused,          // cannot be written; `message` says why and what to do
};

struct PathCheck {
    PathVerdict verdict = PathVerdict::Refused;
    std::string resolved;        // absolute, normalised path that would be written
    std::string missing_folder;  // AskCreateFolder: the one folder to create
    Message message;             // for the dialog: the question or the reason for refusing
};

// The folder relative paths start from: the working directory, unless that is the
// file-system root or not writable (a desktop launcher), then $HOME.
std::string export_base_folder();

// Turns typed text into an absolute normalised path: "~" and "~/x" use $HOME, a relative
// path is taken from `base`, "a/../b" is folded. Returns "" for empty text.
std::string resolve_export_path(const std::string& typed, const std::string& base);

// Adds `extension` (".png") when the file name has none; keeps any other extension.
std::string with_default_extension(const std::string& path, const std::string& extension);

// The verdict on `typed` for an export of `target` kind. Never creates or writes anything.
// A chain of missing folders is refused; one missing level is a question.
PathCheck check_export_path(const std::string& typed, const std::string& base, ExportTarget target);

// Creates exactly one folder (whose parent must exist); an empty message or why not.
Message create_one_folder(const std::string& folder);

// Right before writing `path` (absolute): checks it again and does only what the user
// agreed to: replaces an existing file or non-empty folder only when `replace`, creates
// the one missing folder only when it is `create_folder`. A Folder target that does not
// exist yet is created (its parent exists). Returns an empty message when the export may
// write, else why not.
Message prepare_export_target(const std::string& path, ExportTarget target, bool replace,
                                  const std::string& create_folder);

}  // namespace attn::gui
