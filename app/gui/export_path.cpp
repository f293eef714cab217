#include "app/gui/export_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace attn::gui {

namespace fs = std::filesystem;

namespace {

std::string home_folder() {
    const char* home = std::getenv("HOME");
    return home && *home ? std::string(home) : std::string();
}

bool writable(const fs::path& folder) { return access(folder.c_str(), W_OK | X_OK) == 0; }

PathCheck refuse(std::string resolved, std::string message) {
    PathCheck c;
    c.verdict = PathVerdict::Refused;
    c.resolved = std::move(resolved);
    c.message = std::move(message);
    return c;
}

}  // namespace

std::string export_base_folder() {
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    if (!ec && cwd != cwd.root_path() && writable(cwd)) return cwd.string();
    const std::string home = home_folder();
    if (!home.empty()) return home;
    return ec ? std::string("/") : cwd.string();
}

std::string resolve_export_path(const std::string& typed, const std::string& base) {
    std::string text = typed;
    // Trailing spaces are a typing accident, never part of a name worth keeping.
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
    if (text.empty()) return "";
    fs::path p;
    if (text == "~" || text.rfind("~/", 0) == 0) {
        p = fs::path(home_folder()) / text.substr(text.size() > 1 ? 2 : 1);
    } else {
        p = fs::path(text);
    }
    if (p.is_relative()) p = fs::path(base) / p;
    p = p.lexically_normal();
    // "out/" names the folder "out".
    std::string s = p.string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
}

std::string with_default_extension(const std::string& path, const std::string& extension) {
    if (path.empty() || path.back() == '/') return path;
    return fs::path(path).has_extension() ? path : path + extension;
}

PathCheck check_export_path(const std::string& typed, const std::string& base, ExportTarget target) {
    const std::string resolved = resolve_export_path(typed, base);
    if (resolved.empty()) return refuse("", target == ExportTarget::File ? "type a file name" : "type a folder name");
    const fs::path path(resolved);
    if (path == path.root_path()) return refuse(resolved, "the file-system root cannot be an export target; choose a folder");
    const fs::path parent = path.parent_path();
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    const bool exists = fs::exists(status);

    PathCheck c;
    c.resolved = resolved;
    if (exists) {
        if (target == ExportTarget::File) {
            if (fs::is_directory(status)) return refuse(resolved, "'" + resolved + "' is a folder; add a file name");
            if (!fs::is_regular_file(status)) return refuse(resolved, "'" + resolved + "' is not a regular file; choose another name");
            if (!writable(parent)) return refuse(resolved, "cannot write in '" + parent.string() + "'; choose a folder you can write to");
            c.verdict = PathVerdict::AskOverwrite;
            c.message = "'" + path.filename().string() + "' already exists in " + parent.string() + ". Replace it?";
            return c;
        }
        if (!fs::is_directory(status)) return refuse(resolved, "'" + resolved + "' is a file, not a folder; choose a folder name");
        if (!writable(path)) return refuse(resolved, "cannot write in '" + resolved + "'; choose a folder you can write to");
        if (fs::is_empty(path, ec)) {
            c.verdict = PathVerdict::Ready;
            return c;
        }
        c.verdict = PathVerdict::AskOverwrite;
        c.message = "the folder '" + resolved + "' is not empty; files with the same names will be replaced. Continue?";
        return c;
    }

    const fs::file_status parent_status = fs::status(parent, ec);
    if (fs::exists(parent_status)) {
        if (!fs::is_directory(parent_status)) return refuse(resolved, "'" + parent.string() + "' is a file, not a folder");
        if (!writable(parent)) return refuse(resolved, "cannot write in '" + parent.string() + "'; choose a folder you can write to");
        c.verdict = PathVerdict::Ready;
        return c;
    }
    // The folder it goes into is missing: one missing level is a question, more is a typo.
    const fs::path grandparent = parent.parent_path();
    if (!fs::is_directory(grandparent, ec)) {
        return refuse(resolved, "the folder '" + parent.string() + "' does not exist (nor '" + grandparent.string() +
                                    "'); check the path or pick a folder in the list");
    }
    if (!writable(grandparent)) {
        return refuse(resolved, "the folder '" + parent.string() + "' does not exist and '" + grandparent.string() +
                                    "' is not writable; choose another folder");
    }
    c.verdict = PathVerdict::AskCreateFolder;
    c.missing_folder = parent.string();
    c.message = "the folder '" + parent.filename().string() + "' does not exist in " + grandparent.string() + ". Create it?";
    return c;
}

std::string create_one_folder(const std::string& folder) {
    std::error_code ec;
    const fs::path p(folder);
    if (fs::is_directory(p, ec)) return "";
    if (!fs::is_directory(p.parent_path(), ec)) return "cannot create '" + folder + "': its parent folder does not exist";
    if (!fs::create_directory(p, ec) || ec) return "cannot create '" + folder + "': " + ec.message();
    return "";
}

std::string prepare_export_target(const std::string& path, ExportTarget target, bool replace,
                                  const std::string& create_folder) {
    const PathCheck c = check_export_path(path, "/", target);
    switch (c.verdict) {
        case PathVerdict::Refused: return c.message;
        case PathVerdict::AskOverwrite:
            if (!replace) return "'" + c.resolved + "' already exists; confirm in the dialog to replace it";
            break;
        case PathVerdict::AskCreateFolder:
            if (create_folder.empty() || fs::path(create_folder).lexically_normal() != fs::path(c.missing_folder)) {
                return "the folder '" + c.missing_folder + "' does not exist; confirm in the dialog to create it";
            }
            if (std::string error = create_one_folder(c.missing_folder); !error.empty()) return error;
            break;
        case PathVerdict::Ready: break;
    }
    std::error_code ec;
    if (target == ExportTarget::Folder && !fs::is_directory(c.resolved, ec)) return create_one_folder(c.resolved);
    return "";
}

}  // namespace attn::gui
