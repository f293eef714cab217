// The zip the browser build downloads for a saved folder (app/io/zip_folder.h), opened
// and checked by Python's zipfile (names, contents, CRCs), not by our own reader.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "app/io/zip_folder.h"
#include "shell_run.h"

namespace fs = std::filesystem;
using attn::testing::run_shell;
using attn::testing::scratch_dir;
using attn::testing::ShellRun;

namespace {

void write_text(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("a zipped folder holds every file under the folder's name, readable by Python's zipfile") {
    const fs::path dir = scratch_dir("zip_folder", "trace");
    write_text(dir / "manifest.json", "{\"steps\": 2}\n");
    write_text(dir / "steps" / "01_q.npy", std::string("\x93NUMPY\x01\x00", 8) + std::string(300, '\x7f'));
    write_text(dir / "tokens 中文.json", "[\"狗\"]");
    const attn::Result<std::string> zip = attn::io::zip_folder(dir.string());
    REQUIRE(zip.ok());
    const fs::path zip_path = dir.string() + ".zip";
    write_text(zip_path, zip.value());
    // Each name and its bytes' length, after zipfile checked every CRC (testzip).
    const ShellRun run = run_shell("python3 -c \"import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
                                   "assert z.testzip() is None; "
                                   "print(';'.join('%s=%d' % (i.filename, len(z.read(i))) for i in z.infolist()))\" '" +
                                       zip_path.string() + "'",
                                   "zip_folder");
    CAPTURE(run.err);
    CHECK(run.exit_code == 0);
    CHECK(run.out == "trace/manifest.json=13;trace/steps/01_q.npy=308;trace/tokens 中文.json=7\n");
}

TEST_CASE("zipping a folder that does not exist is a message, not a crash") {
    const attn::Result<std::string> zip = attn::io::zip_folder("/nonexistent/attnviz/folder");
    CHECK_FALSE(zip.ok());
}
