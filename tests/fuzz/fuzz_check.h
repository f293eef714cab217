// FUZZ_CHECK(cond): stops the process with a trap when an invariant is broken, in
// every build type (assert() is off in Release, where the replay test runs).
#pragma once

#include <cstdio>

#define FUZZ_CHECK(cond)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::fprintf(stderr, "fuzz invariant broken: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            __builtin_trap();                                                              \
        }                                                                                  \
    } while (0)
