// The browser build's stand-in for libepoxy's header (cmake/web.cmake): WebGL 2 is
// OpenGL ES 3.0, whose functions emscripten links directly, so no loader is needed.
#pragma once
#include <GLES3/gl3.h>
