// FileChooser: the state of the in-window file browser the open and export dialogs use
// (which folder is shown, what is in it, what was picked). No ImGui here, so the logic
// is tested headless; views/dialogs/view_file_chooser.cpp draws it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/message.h"

namespace attn::gui {

struct FileEntry {
    std::string name;
    bool is_folder = false;
    uintmax_t bytes = 0;  // files only
};

class FileChooser {
public:
    // Extensions shown (".png"); empty: every file. Folders are always shown.
    void set_extensions(std::vector<std::string> extensions) { extensions_ = std::move(extensions); }
    // Lists `folder` (absolute). On failure keeps the previous listing and sets error().
    bool open(const std::string& folder);
    // Re-lists the current folder (after an export wrote into it).
    void refresh() { open(folder_); }
    // Re-lists the current folder when it changed since it was listed (a file saved into it
    // from outside while the dialog is open: its modification time moved). One stat, so it
    // can run every frame. Returns whether it re-listed.
    bool refresh_if_changed();
    // One level up; false at the root.
    bool up();
    // Into a sub-folder of the current one, by its name in entries().
    bool enter(const std::string& name);
    // Shows the folder that `path` (absolute) is in, or `path` itself when it is a folder
    // and `path_is_folder`; walks up to the nearest folder that exists. Returns whether
    // the shown folder changed.
    bool follow(const std::string& path, bool path_is_folder);

    const std::string& folder() const { return folder_; }
    // Folders first, then files, each sorted by name; hidden entries (".x") left out.
    const std::vector<FileEntry>& entries() const { return entries_; }
    const Message& error() const { return error_; }  // rendered when drawn
    // The full path of an entry of the current folder.
    std::string path_of(const std::string& name) const;
    // True when a file with this name is in the current listing.
    bool has_file(const std::string& name) const;

private:
    std::string folder_;
    std::vector<FileEntry> entries_;
    std::vector<std::string> extensions_;
    std::filesystem::file_time_type listed_time_{};  // the folder's modification time when listed
    Message error_;
};

// "12 KB", "3.4 MB": a file size for the listing.
std::string format_file_size(uintmax_t bytes);

}  // namespace attn::gui
