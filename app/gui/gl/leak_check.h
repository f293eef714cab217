// Leak check for sanitizer builds, run while the GL driver is still loaded.
//
// Why: LeakSanitizer normally checks at process exit, after glfwTerminate() has unloaded
// Mesa's DRI driver; the driver's leftovers then sit in an "<unknown module>" that no
// suppression can name. Checking just before glfwTerminate() instead sees the driver's
// state as reachable (it still is), and reports exactly the blocks our code lost, with
// their stacks. After this check LeakSanitizer does not check again at exit.
// In builds without AddressSanitizer this does nothing.
#pragma once

namespace attn::gui::gl {

void check_leaks_before_gl_shutdown();

}  // namespace attn::gui::gl
