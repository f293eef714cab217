// Small file helpers shared by the readers and writers.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"

namespace attn::io {

// Input files are capped at 4 GiB: the readers take at most 2^31 float32 elements
// (8 GiB) per tensor, but the whole file is held in memory while it is decoded, and
// attention weights that need more than 4 GiB (E above ~16k in float32) could never be
// traced within the default 2 GiB --max-memory anyway. A mistaken path (a disk image,
// a whole model) is refused at once instead of exhausting memory.
constexpr uint64_t kMaxInputFileBytes = uint64_t{4} << 30;

// The whole file as bytes, or a message naming the path and the reason. Only regular
// files are read: folders, devices (/dev/zero), named pipes and sockets are refused
// without blocking, and so is a file larger than `max_bytes`.
Result<std::string> read_file_bytes(const std::string& path, uint64_t max_bytes = kMaxInputFileBytes);
// Writes `bytes` to `path` all at once: under a temporary name in the same folder, then
// renamed over `path`. A failure leaves an existing file exactly as it was and no
// temporary behind; a folder, device or pipe at `path` is refused, never replaced.
Status write_file_bytes(const std::string& path, const std::string& bytes);

// Refuses a target that a rename would destroy or that cannot hold a file (a folder, a
// device, a pipe); ok for a new file or a regular one.
Status check_writable_target(const std::string& path);
// "dir/.name.tmp-<pid>-<n>": a hidden name beside `path` (rename() stays on one file
// system), unique per process and call, for output renamed into place when complete.
std::string temporary_name_for(const std::string& path);

// A file written in full under a temporary name beside `target`, put in place only by
// commit(): for output that must appear only if a later step succeeds (`trace
// --save-weights` names its file before the trace is written). Destroying it
// uncommitted removes the temporary; the target is never touched then.
class StagedFile {
public:
    static Result<StagedFile> write(const std::string& target, const std::string& bytes);
    StagedFile(StagedFile&& other) noexcept;
    StagedFile& operator=(StagedFile&&) = delete;
    StagedFile(const StagedFile&) = delete;
    ~StagedFile();
    // Renames the temporary over the target; a message naming the target otherwise.
    Status commit();

private:
    StagedFile(std::string target, std::string temporary);
    std::string target_;
    std::string temporary_;  // empty once committed or moved from
};

}  // namespace attn::io
