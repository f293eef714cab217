#include "app/gui/gl/leak_check.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace attn::gui::gl {

void check_leaks_before_gl_shutdown() {
#if defined(__SANITIZE_ADDRESS__)
    __lsan_do_leak_check();  // exits with LeakSanitizer's report if our code leaked
#endif
}

}  // namespace attn::gui::gl
