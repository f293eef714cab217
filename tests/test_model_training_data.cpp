// train.py without training: the Chinese card text it writes is what the loader reads, and
// the shared sentence generators still draw the data the models were trained on
// (assets/models/check_training_data.py says what it compares).
#include <doctest/doctest.h>

#include <string>

#include "tests/shell_run.h"

TEST_CASE("train.py writes tiny-lm-zh's card text as the loader reads it, and draws the sentences it trained on") {
    using attn::testing::run_shell;
    if (run_shell("/usr/bin/python3 -c 'import torch, numpy'", "attnviz_training_data").exit_code != 0) {
        MESSAGE("SKIPPED: /usr/bin/python3 has no torch (python3-torch)");
        return;
    }
    const auto run = run_shell("OMP_NUM_THREADS=1 /usr/bin/python3 " ATTNVIZ_SOURCE_DIR "/assets/models/check_training_data.py",
                               "attnviz_training_data");
    INFO(run.out << run.err);
    CHECK(run.exit_code == 0);
}
