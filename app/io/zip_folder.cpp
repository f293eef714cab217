#include "app/io/zip_folder.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "app/io/file_util.h"

namespace attn::io {
namespace fs = std::filesystem;

namespace {

// CRC-32 (IEEE, reflected 0xEDB88320), as zip requires for each entry.
uint32_t crc32_of(const std::string& bytes) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char b : bytes) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

void put16(std::string& out, uint32_t v) {
    out.push_back(static_cast<char>(v & 0xFF));
    out.push_back(static_cast<char>((v >> 8) & 0xFF));
}
void put32(std::string& out, uint32_t v) {
    put16(out, v & 0xFFFF);
    put16(out, v >> 16);
}

// The fields a local header and its central-directory entry share, from "version needed"
// to the name's length: version 2.0, UTF-8 names (flag bit 11), stored, 1980-01-01 00:00.
void put_common(std::string& out, uint32_t crc, uint32_t size, size_t name_length) {
    put16(out, 20);
    put16(out, 0x0800);
    put16(out, 0);
    put16(out, 0);
    put16(out, (0 << 9) | (1 << 5) | 1);
    put32(out, crc);
    put32(out, size);
    put32(out, size);
    put16(out, static_cast<uint32_t>(name_length));
}

}  // namespace

Result<std::string> zip_folder(const std::string& folder) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    if (ec) return Result<std::string>::failure(Message("error.file.read", {{"path", folder}, {"reason", ec.message()}}));
    if (files.size() > 0xFFFF) return Result<std::string>::failure(Message("error.zip.too_large", {{"folder", folder}}));
    std::sort(files.begin(), files.end());
    const std::string top = fs::path(folder).lexically_normal().filename().string();
    std::string zip, directory;
    for (const fs::path& file : files) {
        Result<std::string> bytes = read_file_bytes(file.string());
        if (!bytes) return Result<std::string>::failure(bytes.message());
        const std::string name = (fs::path(top.empty() ? "files" : top) / file.lexically_relative(folder)).generic_string();
        if (zip.size() + bytes.value().size() + name.size() + 30 > 0xFFFFFFFFu)
            return Result<std::string>::failure(Message("error.zip.too_large", {{"folder", folder}}));
        const uint32_t crc = crc32_of(bytes.value()), size = static_cast<uint32_t>(bytes.value().size());
        const uint32_t offset = static_cast<uint32_t>(zip.size());
        put32(zip, 0x04034b50);  // local file header
        put_common(zip, crc, size, name.size());
        put16(zip, 0);  // extra field length
        zip += name;
        zip += bytes.value();
        put32(directory, 0x02014b50);  // central directory entry
        put16(directory, 20);          // made by: version 2.0
        put_common(directory, crc, size, name.size());
        for (int field = 0; field < 4; ++field) put16(directory, 0);  // extra, comment, disk, internal attributes
        put32(directory, 0);  // external attributes
        put32(directory, offset);
        directory += name;
    }
    const uint32_t directory_offset = static_cast<uint32_t>(zip.size());
    zip += directory;
    put32(zip, 0x06054b50);  // end of central directory
    put16(zip, 0);
    put16(zip, 0);
    put16(zip, static_cast<uint32_t>(files.size()));
    put16(zip, static_cast<uint32_t>(files.size()));
    put32(zip, static_cast<uint32_t>(directory.size()));
    put32(zip, directory_offset);
    put16(zip, 0);
    return zip;
}

}  // namespace attn::io
