// FreeCoreTeam: while a request is computed, OpenMP's team is sized by the cores that are
// free at that moment. The window shares the machine's cores with llvmpipe's render
// threads and whatever else runs; a team whose second thread waits for a busy core took
// 50-100 ms for a forward that one thread does in 1 ms (L=64, E=256, measured on 2 cores).
// OpenMP's own dynamic mode is no help here: libgomp subtracts the 15-minute load average,
// so one compile a quarter of an hour ago keeps a 2-core machine on one thread. The count
// of runnable threads right now (/proc/loadavg) is what tells whether a core is idle.
// Results do not depend on the team size. The caller's setting is restored afterwards, and
// the team's threads are released (omp_pause_resource_all) so none spins on a core that the
// frame drawn next needs.
#pragma once

#include <optional>
#include <string>

namespace attn::gui {

// Threads for a team on `cores` cores when `runnable` threads are runnable now, the
// calling one included: one per idle core plus the caller's, at least 1.
int team_size_for(int cores, int runnable);
// A team's size when it looks again mid-request: more threads when cores were freed, never
// fewer (its threads may be running; nothing known now: the size it has).
int grown_team_size(int current, std::optional<int> free_now);
// The runnable-threads count of a /proc/loadavg line ("0.52 0.61 0.70 3/412 12345"), or
// nothing when the line does not have that form.
std::optional<int> runnable_threads(const std::string& loadavg_line);

class FreeCoreTeam {
public:
    FreeCoreTeam();
    ~FreeCoreTeam();
    FreeCoreTeam(const FreeCoreTeam&) = delete;
    FreeCoreTeam& operator=(const FreeCoreTeam&) = delete;
    // Looks again at the free cores and adds threads for those freed since: a frame being
    // drawn when the request came in has usually finished by the time the trace is built.
    void grow_if_cores_freed();

private:
    [[maybe_unused]] int previous_threads_ = 0;
    [[maybe_unused]] int previous_dynamic_ = 0;
};

}  // namespace attn::gui
