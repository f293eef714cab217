#include "app/gui/state/export_path.h"

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

PathCheck refuse(std::string resolved, Message message) {
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
    if (resolved.empty()) return refuse("", Message(target == ExportTarget::File ? "export.path.type_file" : "export.path.type_folder"));
    const fs::path path(resolved);
    if (path == path.root_path()) return refuse(resolved, Message("export.path.root"));
    const fs::path parent = path.parent_path();
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    const bool exists = fs::exists(status);

    PathCheck c;
    c.resolved = resolved;
    if (exists) {
        if (target == ExportTarget::File) {
            if (fs::is_directory(status)) return refuse(resolved, Message("export.path.is_folder", {{"path", resolved}}));
            if (!fs::is_regular_file(status)) return refuse(resolved, Message("export.path.not_regular", {{"path", resolved}}));
            if (!writable(parent)) return refuse(resolved, Message("export.path.not_writable", {{"folder", parent.string()}}));
            c.verdict = PathVerdict::AskOverwrite;
            c.message = Message("export.path.replace_file", {{"name", path.filename().string()}, {"folder", parent.string()}});
            return c;
        }
        if (!fs::is_directory(status)) return refuse(resolved, Message("export.path.is_file", {{"path", resolved}}));
        if (!writable(path)) return refuse(resolved, Message("export.path.not_writable", {{"folder", resolved}}));
        if (fs::is_empty(path, ec)) {
            c.verdict = PathVerdict::Ready;
            return c;
        }
        c.verdict = PathVerdict::AskOverwrite;
        c.message = Message("export.path.replace_in_folder", {{"folder", resolved}});
        return c;
    }

    const fs::file_status parent_status = fs::status(parent, ec);
    if (fs::exists(parent_status)) {
        if (!fs::is_directory(parent_status)) return refuse(resolved, Message("export.path.parent_is_file", {{"path", parent.string()}}));
        if (!writable(parent)) return refuse(resolved, Message("export.path.not_writable", {{"folder", parent.string()}}));
        c.verdict = PathVerdict::Ready;
        return c;
    }
    // The folder it goes into is missing: one missing level is a question, more is a typo.
    const fs::path grandparent = parent.parent_path();
    if (!fs::is_directory(grandparent, ec)) {
        return refuse(resolved, Message("export.path.two_missing", {{"folder", parent.string()}, {"parent", grandparent.string()}}));
    }
    if (!writable(grandparent)) {
        return refuse(resolved, Message("export.path.missing_unwritable", {{"folder", parent.string()}, {"parent", grandparent.string()}}));
    }
    c.verdict = PathVerdict::AskCreateFolder;
    c.missing_folder = parent.string();
    c.message = Message("export.path.create_folder", {{"name", parent.filename().string()}, {"parent", grandparent.string()}});
    return c;
}

Message create_one_folder(const std::string& folder) {
    std::error_code ec;
    const fs::path p(folder);
    if (fs::is_directory(p, ec)) return Message();
    if (!fs::is_directory(p.parent_path(), ec)) return Message("export.path.no_parent", {{"folder", folder}});
    if (!fs::create_directory(p, ec) || ec) return Message("export.path.cannot_create", {{"folder", folder}, {"reason", ec.message()}});
    return Message();
}

Message prepare_export_target(const std::string& path, ExportTarget target, bool replace,
                                  const std::string& create_folder) {
    const PathCheck c = check_export_path(path, "/", target);
    switch (c.verdict) {
        case PathVerdict::Refused: return c.message;
        case PathVerdict::AskOverwrite:
            if (!replace) return Message("export.path.confirm_replace", {{"path", c.resolved}});
            break;
        case PathVerdict::AskCreateFolder:
            if (create_folder.empty() || fs::path(create_folder).lexically_normal() != fs::path(c.missing_folder)) {
                return Message("export.path.confirm_create", {{"folder", c.missing_folder}});

            }
            if (Message error = create_one_folder(c.missing_folder); !error.empty()) return error;
            break;
        case PathVerdict::Ready: break;
    }
    std::error_code ec;
    if (target == ExportTarget::Folder && !fs::is_directory(c.resolved, ec)) return create_one_folder(c.resolved);
    return Message();
}

}  // namespace attn::gui
