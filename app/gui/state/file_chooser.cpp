#include "app/gui/state/file_chooser.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace attn::gui {

namespace fs = std::filesystem;

bool FileChooser::open(const std::string& folder) {
    std::error_code ec;
    fs::path p = fs::path(folder).lexically_normal();
    std::string text = p.string();
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    if (!fs::is_directory(text, ec)) {
        error_ = Message("chooser.not_a_folder", {{"folder", text}});
        return false;
    }
    std::vector<FileEntry> listed;
    // Taken before listing, so a file added while listing still changes it next time.
    const fs::file_time_type listed_time = fs::last_write_time(text, ec);
    fs::directory_iterator it(text, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        error_ = Message("chooser.cannot_list", {{"folder", text}, {"reason", ec.message()}});
        return false;
    }
    // A huge folder (/usr/lib) must not stall a frame for long: list the first few thousand.
    constexpr size_t kMaxEntries = 5000;
    for (; it != fs::directory_iterator() && listed.size() < kMaxEntries; it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        FileEntry e;
        e.name = name;
        std::error_code entry_ec;
        e.is_folder = it->is_directory(entry_ec);
        if (!e.is_folder) {
            if (!it->is_regular_file(entry_ec)) continue;
            if (!extensions_.empty()) {
                const std::string ext = it->path().extension().string();
                if (std::find(extensions_.begin(), extensions_.end(), ext) == extensions_.end()) continue;
            }
            e.bytes = it->file_size(entry_ec);
        }
        listed.push_back(std::move(e));
    }
    std::sort(listed.begin(), listed.end(), [](const FileEntry& a, const FileEntry& b) {
        if (a.is_folder != b.is_folder) return a.is_folder;
        return a.name < b.name;
    });
    folder_ = text;
    entries_ = std::move(listed);
    listed_time_ = listed_time;
    error_.clear();
    return true;
}

bool FileChooser::refresh_if_changed() {
    if (folder_.empty()) return false;
    std::error_code ec;
    const fs::file_time_type now = fs::last_write_time(folder_, ec);
    if (ec || now == listed_time_) return false;
    return open(folder_);
}

bool FileChooser::up() {
    const fs::path p(folder_);
    if (folder_.empty() || p == p.root_path()) return false;
    return open(p.parent_path().string());
}

bool FileChooser::enter(const std::string& name) {
    for (const FileEntry& e : entries_)
        if (e.is_folder && e.name == name) return open(path_of(name));
    error_ = Message("chooser.no_such_folder", {{"name", name}});
    return false;
}

bool FileChooser::follow(const std::string& path, bool path_is_folder) {
    if (path.empty()) return false;
    fs::path p = fs::path(path).lexically_normal();
    std::error_code ec;
    if (!(path_is_folder && fs::is_directory(p, ec))) p = p.parent_path();
    while (!p.empty() && !fs::is_directory(p, ec)) {
        if (p == p.root_path()) return false;
        p = p.parent_path();
    }
    if (p.empty() || p.string() == folder_) return false;
    return open(p.string());
}

std::string FileChooser::path_of(const std::string& name) const {
    return (fs::path(folder_) / name).string();
}

bool FileChooser::has_file(const std::string& name) const {
    return std::any_of(entries_.begin(), entries_.end(), [&](const FileEntry& e) { return !e.is_folder && e.name == name; });
}

std::string format_file_size(uintmax_t bytes) {
    char buf[32];
    if (bytes < 1024) std::snprintf(buf, sizeof(buf), "%ju B", bytes);
    else if (bytes < 1024 * 1024) std::snprintf(buf, sizeof(buf), "%.0f KB", static_cast<double>(bytes) / 1024.0);
    else std::snprintf(buf, sizeof(buf), "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return buf;
}

}  // namespace attn::gui
