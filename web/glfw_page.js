// Four GLFW functions that emscripten 3.1.6's GLFW leaves unimplemented, for the browser build
// (linked with --js-library after emscripten's own, so these replace its versions):
//   glfwGetVideoMode     the screen's size in canvas pixels (CSS x devicePixelRatio);
//                        emscripten's returns NULL, so "full screen" found no monitor;
//   glfwSetWindowMonitor full screen through the browser (the page's element); emscripten's
//                        throws. The key press that asks for it (F, P) still counts as the
//                        user's gesture when the next animation frame runs this;
//   glfwGetWindowFrameSize  a canvas has no frame (emscripten's throws);
//   glfwPostEmptyEvent   wakes an idle page for its next animation frame, as it wakes the
//                        desktop's event wait (emscripten's does nothing): the flag
//                        app/gui/window/window_events_browser.cpp reads.
mergeInto(LibraryManager.library, {
  glfwPostEmptyEvent: function() {
    Module.attnvizInput = true;
  },
  // tests/web/page_test.py calls it as the app does.
  glfwPostEmptyEvent__postset: 'Module["attnvizPostEmptyEvent"] = _glfwPostEmptyEvent;',
  glfwGetWindowFrameSize: function(winid, left, top, right, bottom) {
    for (const edge of [left, top, right, bottom]) if (edge) HEAP32[edge >> 2] = 0;
  },
  glfwGetVideoMode__deps: ['malloc'],
  glfwGetVideoMode: function(monitor) {
    // GLFWvidmode: width, height, redBits, greenBits, blueBits, refreshRate (six ints).
    if (!Module.attnvizVideoMode) Module.attnvizVideoMode = _malloc(24);
    const mode = Module.attnvizVideoMode >> 2, ratio = window.devicePixelRatio || 1;
    HEAP32[mode] = Math.round(screen.width * ratio);
    HEAP32[mode + 1] = Math.round(screen.height * ratio);
    HEAP32[mode + 2] = HEAP32[mode + 3] = HEAP32[mode + 4] = 8;
    HEAP32[mode + 5] = 60;
    return Module.attnvizVideoMode;
  },
  glfwSetWindowMonitor: function(winid, monitor, xpos, ypos, width, height, refreshRate) {
    if (monitor && !document.fullscreenElement) {
      document.documentElement.requestFullscreen().catch(err => console.warn('attnviz: full screen refused: ' + err));
    } else if (!monitor && document.fullscreenElement) {
      document.exitFullscreen();
    }
  },
});
