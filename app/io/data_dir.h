// Where AttnViz's installed data lives (the models, the lessons): read by people and by
// lessons that name files, never needed to run (languages, models, shaders and the PyTorch
// code are compiled into the binary).
#pragma once

#include <string>

namespace attn::io {

// The data folder: $ATTNVIZ_DATA_DIR when set; else <prefix>/share/attnviz beside the
// running binary's <prefix>/bin (found from /proc/self/exe, so any PREFIX and DESTDIR
// work); else, for a binary run from its build tree, the source tree's assets/.
// "" when none of them exists.
std::string data_dir();

}  // namespace attn::io
