#include "app/gui/kit/upload.h"

#include <emscripten.h>

// EM_ASM's JavaScript names its arguments $0, $1, ... and may have none, which -Wpedantic reports.
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"
#pragma clang diagnostic ignored "-Wgnu-zero-variadic-macro-arguments"

namespace attn::gui {

bool can_upload() { return true; }

void upload_into(const std::string& folder) {
    // One hidden <input type=file> (id attnviz-upload: tests/web/page_test.py fills it
    // through the DevTools protocol); its files are written into `folder` as they arrive.
    // The click comes a frame after the user's, within the browser's allowance for
    // opening a file picker.
    EM_ASM(
        {
            let input = document.getElementById("attnviz-upload");
            if (!input) {
                input = document.createElement("input");
                input.type = "file";
                input.multiple = true;
                input.id = "attnviz-upload";
                input.style.display = "none";
                document.body.appendChild(input);
                input.addEventListener("change", async () => {
                    for (const file of input.files) {
                        const bytes = new Uint8Array(await file.arrayBuffer());
                        FS.writeFile(input.dataset.folder + "/" + file.name, bytes);
                    }
                    input.value = "";
                });
            }
            input.dataset.folder = UTF8ToString($0);
            input.click();
        },
        folder.c_str());
}

}  // namespace attn::gui
