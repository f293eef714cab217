#include "app/io/file_util.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace attn::io {

Result<std::string> read_file_bytes(const std::string& path) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0)
        return Result<std::string>::failure("cannot open '" + path + "': " + std::strerror(errno));
    if (S_ISDIR(info.st_mode)) return Result<std::string>::failure("'" + path + "' is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) return Result<std::string>::failure("cannot open '" + path + "': " + std::strerror(errno));
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) return Result<std::string>::failure("cannot read '" + path + "'");
    return bytes.str();
}

Status write_file_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Status::failure("cannot write '" + path + "': " + std::strerror(errno));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return Status::failure("cannot write '" + path + "' (disk full?)");
    return ok_status();
}

}  // namespace attn::io
