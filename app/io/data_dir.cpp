#include "app/io/data_dir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

// Set by cmake/install.cmake: bin/ -> the data folder ("../share/attnviz"), and the
// source tree's assets/ for a binary that was never installed.
#ifndef ATTNVIZ_DATA_FROM_BIN
#error "ATTNVIZ_DATA_FROM_BIN must be defined by the build (cmake/install.cmake)"
#endif
#ifndef ATTNVIZ_SOURCE_ASSETS
#error "ATTNVIZ_SOURCE_ASSETS must be defined by the build (cmake/install.cmake)"
#endif

namespace attn::io {

namespace fs = std::filesystem;

std::string data_dir() {
    std::error_code ec;
    if (const char* forced = std::getenv("ATTNVIZ_DATA_DIR"); forced != nullptr && *forced != '\0')
        return fs::is_directory(forced, ec) ? std::string(forced) : std::string();
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = (exe.parent_path() / ATTNVIZ_DATA_FROM_BIN).lexically_normal();
        if (fs::is_directory(installed, ec)) return installed.string();
    }
    return fs::is_directory(ATTNVIZ_SOURCE_ASSETS, ec) ? std::string(ATTNVIZ_SOURCE_ASSETS) : std::string();
}

}  // namespace attn::io
