#include "app/io/staged_folder.h"

#include <random>

namespace attn::io {

namespace fs = std::filesystem;

namespace {

// "." + name + ".tmp-<random>" beside the target.
fs::path sibling(const fs::path& parent, const fs::path& target, const char* what) {
    return parent / ("." + target.filename().string() + what + std::to_string(std::random_device{}()));
}

}  // namespace

Status write_folder_staged(const std::string& dir, bool (*is_ours)(const fs::path&), const char* not_ours_message,
                           const std::function<Status(const fs::path& folder)>& fill) {
    std::error_code ec;
    fs::path target = fs::path(dir).lexically_normal();
    if (!target.empty() && !target.has_filename()) target = target.parent_path();  // "out/" -> "out"
    if (target.empty() || target == "." || target == "..") return Status::failure(Message("error.trace_dir.no_name"));
    const bool exists = fs::exists(target, ec);
    if (exists && !fs::is_directory(target, ec)) return Status::failure(Message("error.trace_dir.not_folder", {{"path", dir}}));
    const bool replacing = exists && !fs::is_empty(target, ec);
    if (replacing && !is_ours(target)) return Status::failure(Message(not_ours_message, {{"path", dir}}));
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::exists(parent, ec) && !fs::create_directories(parent, ec))
        return Status::failure(Message("error.trace_dir.cannot_create", {{"path", parent.string()}, {"reason", ec.message()}}));

    const fs::path temp = sibling(parent, target, ".tmp-");
    if (!fs::create_directory(temp, ec))
        return Status::failure(Message("error.trace_dir.cannot_write", {{"path", parent.string()}, {"reason", ec.message()}}));
    const auto fail = [&](Message message) {
        fs::remove_all(temp, ec);
        return Status::failure(std::move(message));
    };
    if (Status s = fill(temp); !s) return fail(s.message());

    // Swap in: the old folder is only removed once the new one is complete.
    const fs::path old = sibling(parent, target, ".old-");
    if (exists) {
        fs::rename(target, old, ec);
        if (ec) return fail(Message("error.trace_dir.cannot_replace", {{"path", dir}, {"reason", ec.message()}}));
    }
    fs::rename(temp, target, ec);
    if (ec) {
        if (exists) fs::rename(old, target, ec);
        return fail(Message("error.trace_dir.cannot_swap", {{"path", dir}}));
    }
    if (exists) fs::remove_all(old, ec);
    return ok_status();
}

}  // namespace attn::io
