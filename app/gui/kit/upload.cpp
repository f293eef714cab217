#include "app/gui/kit/upload.h"

namespace attn::gui {

bool can_upload() { return false; }

void upload_into(const std::string&) {}

}  // namespace attn::gui
