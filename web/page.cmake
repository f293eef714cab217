# The page (make web): attnviz.js + attnviz.wasm, attnviz.data (the files below, in
# emscripten's in-memory file system at the paths the desktop reads) and index.html,
# all in ATTNVIZ_WEB_SITE. Included by the top level only under emcmake.
#
# Workarounds for Debian's emcc 3.1.6, one comment each:
#   - `-o attnviz.html` crashes in Debian's minify_html, so the page is our own
#     index.html (web/index.html), copied here, and emcc writes only .js/.wasm/.data;
#   - emcc's JS optimizer needs `acorn`, which Debian ships in /usr/share/nodejs
#     (NODE_PATH is set by the Makefile's web target).

# core/ops.h keeps the SSE control register in a field that WebAssembly (no SSE) never
# reads; clang reports it, and our targets build with -Werror (after -Wall, so it holds).
target_compile_options(attnviz_warnings INTERFACE -Wno-unused-private-field)

# The page's folder (make web: build-web/), apart from CMake's own files.
set(ATTNVIZ_WEB_SITE ${CMAKE_BINARY_DIR}/site CACHE PATH "Where the page is written")
set_target_properties(attnviz PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${ATTNVIZ_WEB_SITE})

# The data the window reads from disk on the desktop, at the same paths:
#   /assets/lessons         the shipped lessons (ATTNVIZ_SOURCE_ASSETS, data_dir.cpp)
#   DejaVu Sans (+ Mono)    fonts_theme.cpp
#   Noto Sans CJK subset    cjk_font.cpp (the characters of the catalogues, lessons and
#                           models, made at build time by web/cjk_subset.py)
set(ATTNVIZ_WEB_PRELOAD
    ${PROJECT_SOURCE_DIR}/assets/lessons@/assets/lessons
    /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf@/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
    /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf@/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf)
set(ATTNVIZ_WEB_CJK "" CACHE FILEPATH "The Noto Sans CJK subset collection (.ttc) built by make web")
if(ATTNVIZ_WEB_CJK)
    list(APPEND ATTNVIZ_WEB_PRELOAD ${ATTNVIZ_WEB_CJK}@/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc)
endif()
file(GLOB ATTNVIZ_WEB_LESSONS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/assets/lessons/*)
set_property(TARGET attnviz APPEND PROPERTY LINK_DEPENDS ${ATTNVIZ_WEB_LESSONS} ${ATTNVIZ_WEB_CJK}
             ${PROJECT_SOURCE_DIR}/web/glfw_page.js)
list(TRANSFORM ATTNVIZ_WEB_PRELOAD PREPEND "--preload-file=")

target_link_options(attnviz PRIVATE
    ${ATTNVIZ_WEB_PRELOAD}
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB
    # The settings' folder in IndexedDB (index.html mounts it).
    -lidbfs.js
    # Full screen through the browser (web/glfw_page.js replaces two of emscripten's GLFW functions).
    --js-library=${PROJECT_SOURCE_DIR}/web/glfw_page.js
    # What index.html and tests/web/page_test.py use of the runtime.
    -sEXPORTED_RUNTIME_METHODS=FS,ENV,addRunDependency,removeRunDependency)
target_compile_definitions(attn_io PRIVATE ATTNVIZ_DATA_FROM_BIN="." ATTNVIZ_SOURCE_ASSETS="/assets")

add_custom_command(OUTPUT ${ATTNVIZ_WEB_SITE}/index.html
    COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/web/index.html ${ATTNVIZ_WEB_SITE}/index.html
    DEPENDS ${PROJECT_SOURCE_DIR}/web/index.html
    COMMENT "The page: index.html")
add_custom_target(attnviz_page ALL DEPENDS ${ATTNVIZ_WEB_SITE}/index.html attnviz)
