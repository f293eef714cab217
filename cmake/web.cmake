# The browser build's dependencies (make web: emcmake cmake with Debian's emscripten 3.1.6).
# The same imported targets as third_party/dependencies.cmake, made for WebAssembly:
#   - header-only libraries (Eigen, nlohmann-json, CLI11, stb, doctest) from Debian's
#     packages, through a folder of links (adding /usr/include itself would put glibc's
#     headers in front of emscripten's libc);
#   - GLFW and OpenGL ES 3 (WebGL2) from emscripten's own ports (-sUSE_GLFW=3);
#   - Dear ImGui compiled from Debian's source package of the same version (1.86),
#     unpacked by web/debian_source.sh into ATTNVIZ_IMGUI_SOURCE;
#   - giflib (5.2.1) and libimagequant (2.17.0), the GIF writer's (app/media/gif_writer.cpp,
#     palette.cpp), compiled the same way from Debian's source packages of the versions the
#     desktop links (ATTNVIZ_GIFLIB_SOURCE, ATTNVIZ_IMAGEQUANT_SOURCE);
#   - libepoxy's header replaced by web/include/epoxy/gl.h (GLES3; WebGL needs no loader),
#     GLFW's extended by web/include/GLFW/glfw3.h (the 3.3 functions AttnViz uses).
# cairo/pango and ffmpeg have no browser build here: app/media compiles its browser side
# instead (app/media/CMakeLists.txt).
set(ATTNVIZ_IMGUI_SOURCE "" CACHE PATH "Dear ImGui 1.86 sources (web/debian_source.sh)")
set(ATTNVIZ_GIFLIB_SOURCE "" CACHE PATH "giflib 5.2.1 sources (web/debian_source.sh)")
set(ATTNVIZ_IMAGEQUANT_SOURCE "" CACHE PATH "libimagequant 2.17.0 sources (web/debian_source.sh)")
function(attnviz_web_unpacked variable file)
    if(NOT EXISTS "${${variable}}/${file}")
        message(FATAL_ERROR "${variable} must name the unpacked sources with ${file} (make web does this)")
    endif()
endfunction()
attnviz_web_unpacked(ATTNVIZ_IMGUI_SOURCE imgui.cpp)
attnviz_web_unpacked(ATTNVIZ_GIFLIB_SOURCE egif_lib.c)
attnviz_web_unpacked(ATTNVIZ_IMAGEQUANT_SOURCE libimagequant.c)

set(ATTNVIZ_WEB_SYSINC ${CMAKE_BINARY_DIR}/debian-headers)
file(MAKE_DIRECTORY ${ATTNVIZ_WEB_SYSINC})
foreach(link IN ITEMS eigen3/Eigen eigen3/unsupported nlohmann CLI stb doctest)
    get_filename_component(name ${link} NAME)
    if(NOT EXISTS /usr/include/${link})
        message(FATAL_ERROR "/usr/include/${link} is missing (make deps installs it)")
    endif()
    file(CREATE_LINK /usr/include/${link} ${ATTNVIZ_WEB_SYSINC}/${name} SYMBOLIC)
endforeach()

function(attnviz_web_headers target)
    add_library(${target} INTERFACE IMPORTED GLOBAL)
    target_include_directories(${target} SYSTEM INTERFACE ${ATTNVIZ_WEB_SYSINC} ${ARGN})
endfunction()
attnviz_web_headers(Eigen3::Eigen)
attnviz_web_headers(nlohmann_json::nlohmann_json)
attnviz_web_headers(CLI11::CLI11)
# Debian's libstb is an x86 library: its PNG writer is compiled here (web/stb_image_write.c).
add_library(attnviz_stb STATIC ${PROJECT_SOURCE_DIR}/web/stb_image_write.c)
target_include_directories(attnviz_stb SYSTEM PUBLIC ${ATTNVIZ_WEB_SYSINC}/stb)
add_library(stb::stb ALIAS attnviz_stb)
attnviz_web_headers(doctest::doctest)


if(ATTNVIZ_BUILD_GUI)
    # emscripten's GLFW, with the four GLFW 3.3 functions it lacks (web/glfw33.cpp).
    add_library(attnviz_glfw33 STATIC ${PROJECT_SOURCE_DIR}/web/glfw33.cpp)
    target_include_directories(attnviz_glfw33 BEFORE PUBLIC ${PROJECT_SOURCE_DIR}/web/include)
    target_link_options(attnviz_glfw33 PUBLIC -sUSE_GLFW=3)
    add_library(glfw ALIAS attnviz_glfw33)
    add_library(OpenGL::GL INTERFACE IMPORTED GLOBAL)
    # WebGL 2 only: the heatmaps are R32F textures read with texelFetch (GLSL ES 3.00).
    target_link_options(OpenGL::GL INTERFACE -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
    add_library(X11::X11 INTERFACE IMPORTED GLOBAL)  # nothing: the browser has no X11
    add_library(epoxy::epoxy INTERFACE IMPORTED GLOBAL)
    target_include_directories(epoxy::epoxy SYSTEM INTERFACE ${PROJECT_SOURCE_DIR}/web/include)

    file(GLOB imgui_sources ${ATTNVIZ_IMGUI_SOURCE}/imgui*.cpp)
    list(FILTER imgui_sources EXCLUDE REGEX "imgui_demo")
    add_library(attnviz_imgui STATIC ${imgui_sources}
        ${ATTNVIZ_IMGUI_SOURCE}/misc/cpp/imgui_stdlib.cpp
        ${ATTNVIZ_IMGUI_SOURCE}/backends/imgui_impl_glfw.cpp
        ${ATTNVIZ_IMGUI_SOURCE}/backends/imgui_impl_opengl3.cpp)
    # The desktop includes <imgui.h>, <imgui_stdlib.h> and <backends/imgui_impl_glfw.h>
    # (Debian's layout): the same here.
    target_include_directories(attnviz_imgui SYSTEM PUBLIC ${ATTNVIZ_IMGUI_SOURCE} ${ATTNVIZ_IMGUI_SOURCE}/misc/cpp)
    target_link_libraries(attnviz_imgui PUBLIC glfw OpenGL::GL)
    # WebGL 2 (GLSL ES 3.00), not ImGui 1.86's Emscripten default of WebGL 1. Only the
    # backend's own code reads it (its header declares the same functions either way).
    target_compile_definitions(attnviz_imgui PRIVATE IMGUI_IMPL_OPENGL_ES3)
    add_library(imgui::imgui ALIAS attnviz_imgui)
endif()

# Every target: WebAssembly SIMD (Eigen's 128-bit packets; about 3x faster forwards) and
# WebAssembly's own exceptions (the code reports I/O failures by exception in places;
# emscripten's default would abort on the first throw).
add_compile_options(-msimd128 -fwasm-exceptions)
add_link_options(-fwasm-exceptions)

# giflib's encoder: egif_lib.c (EGif*), gifalloc.c (colour maps), gif_hash.c (egif_lib's
# LZW code table), gif_err.c (GifErrorString), openbsd-reallocarray.c (gifalloc's
# reallocarray). Left out: dgif_lib.c (the decoder: the page writes GIFs, the tests read
# them in Python), gif_font.c (text drawn into images), quantize.c (giflib's own
# quantizer: libimagequant picks the palettes) and the command-line tools.
add_library(attnviz_giflib STATIC)
target_sources(attnviz_giflib PRIVATE
    ${ATTNVIZ_GIFLIB_SOURCE}/egif_lib.c ${ATTNVIZ_GIFLIB_SOURCE}/gifalloc.c ${ATTNVIZ_GIFLIB_SOURCE}/gif_hash.c
    ${ATTNVIZ_GIFLIB_SOURCE}/gif_err.c ${ATTNVIZ_GIFLIB_SOURCE}/openbsd-reallocarray.c)
target_include_directories(attnviz_giflib SYSTEM PUBLIC ${ATTNVIZ_GIFLIB_SOURCE})
add_library(GIF::GIF ALIAS attnviz_giflib)
# libimagequant's library: every C file its Makefile puts in libimagequant.a (pam, mediancut,
# blur, mempool, kmeans, nearest, libimagequant). Left out: example.c (a program) and
# org/pngquant/PngQuant.c (Java's binding). No OpenMP (the page has one thread) and no
# SSE (WebAssembly: its plain C paths, which -msimd128 above vectorises where it can).
add_library(attnviz_imagequant STATIC)
foreach(part IN ITEMS pam mediancut blur mempool kmeans nearest libimagequant)
    target_sources(attnviz_imagequant PRIVATE ${ATTNVIZ_IMAGEQUANT_SOURCE}/${part}.c)
endforeach()
target_include_directories(attnviz_imagequant SYSTEM PUBLIC ${ATTNVIZ_IMAGEQUANT_SOURCE})
add_library(PkgConfig::IMAGEQUANT ALIAS attnviz_imagequant)
# Both at the Release build's -O3 -DNDEBUG, as their own Makefiles do (libimagequant's
# asserts off, as in Debian's library), with -msimd128 like our code (add_compile_options
# above), and with their warnings silenced: they are Debian's code, not ours (our -Werror
# is attnviz_warnings', for our targets only), so a warning there is only noise.
target_compile_options(attnviz_giflib PRIVATE -w)
target_compile_options(attnviz_imagequant PRIVATE -w)
