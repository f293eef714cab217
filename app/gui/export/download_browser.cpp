#include "app/gui/export/download.h"

#include <emscripten.h>

// EM_ASM's JavaScript names its arguments $0, $1, ... and may have none, which -Wpedantic reports.
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"
#pragma clang diagnostic ignored "-Wgnu-zero-variadic-macro-arguments"

#include <filesystem>

#include "app/io/file_util.h"
#include "app/io/zip_folder.h"

namespace attn::gui {
namespace {

// The browser's download of `bytes` (not copied: the page copies them into a Blob).
void download_bytes(const std::string& name, const std::string& bytes) {
    EM_ASM(
        {
            const data = HEAPU8.slice($1, $1 + $2);
            const link = document.createElement("a");
            link.href = URL.createObjectURL(new Blob([data], {type: "application/octet-stream"}));
            link.download = UTF8ToString($0);
            document.body.appendChild(link);
            link.click();
            link.remove();
            setTimeout(() => URL.revokeObjectURL(link.href), 60000);
        },
        name.c_str(), bytes.data(), bytes.size());
}

}  // namespace

Message offer_download(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path target = fs::path(path).lexically_normal();
    const std::string name = (target.has_filename() ? target : target.parent_path()).filename().string();
    if (fs::is_directory(target, ec)) {
        Result<std::string> zip = io::zip_folder(target.string());
        if (!zip) return zip.message();
        download_bytes(name + ".zip", zip.value());
        return {};
    }
    Result<std::string> bytes = io::read_file_bytes(target.string());
    if (!bytes) return bytes.message();
    download_bytes(name, bytes.value());
    return {};
}

}  // namespace attn::gui
