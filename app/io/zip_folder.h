// A folder as one .zip file (stored, not compressed: .npy and PNG data gain little), for
// the browser build, which hands a saved folder (a trace's tensors, export-torch's
// files, every step as PNG) to the user as one download. Entries are "<folder name>/<path
// inside>" in UTF-8, so unzipping gives the folder back. Plain zip: at most 65,535 files
// and 4 GiB in all (larger folders are refused with a message).
#pragma once

#include <string>

#include "core/result.h"

namespace attn::io {

// The bytes of a .zip holding every regular file under `folder`, in sorted order.
Result<std::string> zip_folder(const std::string& folder);

}  // namespace attn::io
