# CMake glue for Debian packages: every dependency becomes an imported target.
# No sources are copied here; see README "Building" for the apt package names.

find_package(Eigen3 3.3 REQUIRED NO_MODULE)          # libeigen3-dev -> Eigen3::Eigen
if(ATTNVIZ_FAST_MATH_FLAGS)  # only the fast build uses OpenMP (clang would need libomp)
    find_package(OpenMP REQUIRED COMPONENTS CXX)      # g++ runtime   -> OpenMP::OpenMP_CXX
endif()
find_package(nlohmann_json 3 REQUIRED)                # nlohmann-json3-dev
find_package(CLI11 REQUIRED)                          # libcli11-dev  -> CLI11::CLI11
find_package(PkgConfig REQUIRED)

if(ATTNVIZ_BUILD_GUI)
    find_package(glfw3 3.3 REQUIRED)                  # libglfw3-dev  -> glfw
    find_package(OpenGL REQUIRED)                     # libgl-dev
    find_package(X11 REQUIRED)                        # libx11-dev    -> X11::X11 (key event times)
    pkg_check_modules(EPOXY REQUIRED IMPORTED_TARGET epoxy)     # libepoxy-dev: the GL loader
    pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)         # libstb-dev: PNG writing
    find_package(GIF 5 REQUIRED)                                # libgif-dev  -> GIF::GIF (animated exports)
    pkg_check_modules(IMAGEQUANT REQUIRED IMPORTED_TARGET imagequant)  # libimagequant-dev: GIF palettes
    pkg_check_modules(PANGOCAIRO REQUIRED IMPORTED_TARGET pangocairo cairo-pdf)  # libpango1.0-dev, libcairo2-dev: handouts
    # Debian's libimgui.a (1.86) already contains the GLFW and OpenGL3 backends.
    pkg_check_modules(IMGUI_PC REQUIRED imgui)
    find_library(IMGUI_LIBRARY NAMES libimgui.a imgui REQUIRED)
    add_library(imgui::imgui STATIC IMPORTED GLOBAL)
    set_target_properties(imgui::imgui PROPERTIES
        IMPORTED_LOCATION "${IMGUI_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${IMGUI_PC_INCLUDE_DIRS}")
    target_link_libraries(imgui::imgui INTERFACE PkgConfig::STB glfw OpenGL::GL ${CMAKE_DL_LIBS})
    add_library(stb::stb ALIAS PkgConfig::STB)
    add_library(epoxy::epoxy ALIAS PkgConfig::EPOXY)
endif()
