// Running a shell command from a test (the attnviz binary, Debian's python3) and reading
// back what it printed: one helper for every test that drives a program from outside.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace attn::testing {

struct ShellRun {
    int exit_code = -1;  // -1 when the command did not exit normally
    std::string out, err;
};

// A file's bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// <tmp>/<prefix>_<pid>/<name>, emptied; its parent exists. One process's tests never
// share a folder with another's running at the same time (ctest -j).
inline std::filesystem::path scratch_dir(const std::string& prefix, const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / (prefix + "_" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    fs::create_directories(dir.parent_path());
    return dir;
}

// Runs `command` through the shell with its stdout and stderr captured.
inline ShellRun run_shell(const std::string& command, const std::string& scratch_prefix) {
    const std::filesystem::path base = scratch_dir(scratch_prefix, "shell");
    const std::string full = command + " >" + base.string() + ".out 2>" + base.string() + ".err";
    const int status = std::system(full.c_str());
    ShellRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(base.string() + ".out");
    r.err = slurp(base.string() + ".err");
    return r;
}

}  // namespace attn::testing
