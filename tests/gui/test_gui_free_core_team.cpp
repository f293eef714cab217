// The compute team's size: one thread per core that is idle now, read from the runnable
// count of /proc/loadavg (not OpenMP's 15-minute load average).
#include <doctest/doctest.h>

#include "app/gui/compute/free_core_team.h"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace attn::gui;

TEST_CASE("the team takes every idle core and never fewer than one thread") {
    CHECK(team_size_for(2, 1) == 2);  // only the caller runs: both cores
    CHECK(team_size_for(2, 2) == 1);  // one other thread runs: it has the second core
    CHECK(team_size_for(2, 9) == 1);  // a busy machine: the caller alone
    CHECK(team_size_for(8, 3) == 6);
    CHECK(team_size_for(1, 1) == 1);
    CHECK(team_size_for(4, 0) == 4);  // a count that missed the caller is not a reason to oversubscribe
}

TEST_CASE("the runnable count is read from a /proc/loadavg line and refused when malformed") {
    CHECK(runnable_threads("0.52 0.61 0.70 3/412 12345") == 3);
    CHECK(runnable_threads("1.64 1.21 1.44 1/79 8436\n") == 1);
    CHECK_FALSE(runnable_threads("").has_value());
    CHECK_FALSE(runnable_threads("0.5 0.6 0.7 x/412 1").has_value());
    CHECK_FALSE(runnable_threads("0.5 0.6 0.7 /412 1").has_value());
    CHECK_FALSE(runnable_threads("0.5 0.6 0.7 3412 1").has_value());
    CHECK_FALSE(runnable_threads("0.5 0.6").has_value());
}

// The display model is built after the forward: a frame that was being drawn when the
// request came in (one thread runnable elsewhere, so a team of one) has usually ended by
// then, and the display model takes the freed core (about 1.8 -> 1.2 ms at 256/512/8).
TEST_CASE("a team grows when cores were freed, never shrinks mid-request, and the caller's setting comes back") {
    CHECK(grown_team_size(1, 2) == 2);
    CHECK(grown_team_size(2, 1) == 2);
    CHECK(grown_team_size(1, std::nullopt) == 1);
#ifdef _OPENMP
    const int callers = omp_get_max_threads();  // put back at the end: later cases in this process use it
    omp_set_num_threads(3);
    {
        FreeCoreTeam team;
        omp_set_num_threads(omp_get_num_procs());
        team.grow_if_cores_freed();
        CHECK(omp_get_max_threads() == omp_get_num_procs());  // not shrunk, whatever the load
    }
    CHECK(omp_get_max_threads() == 3);
    omp_set_num_threads(callers);
#endif
}
