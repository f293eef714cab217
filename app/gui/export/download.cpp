#include "app/gui/export/download.h"

namespace attn::gui {

Message offer_download(const std::string&) { return {}; }

}  // namespace attn::gui
