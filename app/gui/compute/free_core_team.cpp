#include "app/gui/compute/free_core_team.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace attn::gui {

int team_size_for(int cores, int runnable) {
    const int busy_elsewhere = std::max(0, runnable - 1);
    return std::clamp(cores - busy_elsewhere, 1, std::max(1, cores));
}

int grown_team_size(int current, std::optional<int> free_now) { return std::max(current, free_now.value_or(current)); }

std::optional<int> runnable_threads(const std::string& loadavg_line) {
    std::istringstream in(loadavg_line);
    double one = 0, five = 0, fifteen = 0;
    std::string counts;
    if (!(in >> one >> five >> fifteen >> counts)) return std::nullopt;
    const size_t slash = counts.find('/');
    if (slash == std::string::npos || slash == 0) return std::nullopt;
    try {
        size_t used = 0;
        const int runnable = std::stoi(counts.substr(0, slash), &used);
        if (used != slash || runnable < 0) return std::nullopt;
        return runnable;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

#ifdef _OPENMP
namespace {

// The threads a team may have now, or nothing when /proc/loadavg cannot tell.
std::optional<int> free_team_size() {
    std::ifstream file("/proc/loadavg");
    std::string line;
    std::getline(file, line);
    const std::optional<int> runnable = runnable_threads(line);
    if (!runnable) return std::nullopt;
    return team_size_for(omp_get_num_procs(), *runnable);
}

}  // namespace
#endif

FreeCoreTeam::FreeCoreTeam() {
#ifdef _OPENMP
    previous_threads_ = omp_get_max_threads();
    previous_dynamic_ = omp_get_dynamic();
    if (const std::optional<int> size = free_team_size()) {
        omp_set_dynamic(0);
        omp_set_num_threads(*size);
    } else {
        omp_set_dynamic(1);  // no /proc: OpenMP's own estimate
    }
#endif
}

void FreeCoreTeam::grow_if_cores_freed() {
#ifdef _OPENMP
    if (omp_get_dynamic()) return;
    omp_set_num_threads(grown_team_size(omp_get_max_threads(), free_team_size()));
#endif
}

FreeCoreTeam::~FreeCoreTeam() {
#ifdef _OPENMP
    // The team's threads go now rather than spin-wait for the next region (libgomp spins for
    // milliseconds): the frame that shows the result is drawn next, by llvmpipe's threads on
    // the same cores. Without this, that frame took 1.5-5 ms longer about one time in four.
    omp_pause_resource_all(omp_pause_soft);
    omp_set_num_threads(previous_threads_);
    omp_set_dynamic(previous_dynamic_);
#endif
}

}  // namespace attn::gui
