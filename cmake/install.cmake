# Install rules and the Debian package (make install, make package).
#
#   <prefix>/bin/attnviz
#   <prefix>/share/applications/<id>.desktop              the menu entry
#   <prefix>/share/metainfo/<id>.metainfo.xml             AppStream (software centres)
#   <prefix>/share/icons/hicolor/{scalable,NxN}/apps/<id>.{svg,png}
#   <prefix>/share/attnviz/models, lessons                the data, readable by users
#   <prefix>/share/doc/attnviz/README.md
#
# The binary needs none of the data to run (languages, models, shaders and the PyTorch
# code are compiled in); it finds the data folder from its own path
# (app/io/data_dir.cpp), so any PREFIX and DESTDIR work.
include(GNUInstallDirs)

# The application's identity, declared once: file names, Icon= and the AppStream id.
set(ATTNVIZ_APP_ID "org.attnviz.AttnViz" CACHE INTERNAL "the desktop and AppStream id")
set(ATTNVIZ_RELEASE_DATE "2026-11-26")
set(ATTNVIZ_DATA_SUBDIR ${CMAKE_INSTALL_DATADIR}/attnviz)
# How the binary reaches the data folder from bin/ ("../share/attnviz").
file(RELATIVE_PATH ATTNVIZ_DATA_FROM_BIN /${CMAKE_INSTALL_BINDIR} /${ATTNVIZ_DATA_SUBDIR})
target_compile_definitions(attn_io PRIVATE ATTNVIZ_DATA_FROM_BIN="${ATTNVIZ_DATA_FROM_BIN}"
                           ATTNVIZ_SOURCE_ASSETS="${PROJECT_SOURCE_DIR}/assets")

# The one-line summary in each language is the window's title after "AttnViz - ", read
# from the catalogues so the menu entry says what the window says.
function(attnviz_window_summary code out_var)
    file(READ ${PROJECT_SOURCE_DIR}/assets/lang/${code}.json catalogue)
    string(JSON title GET "${catalogue}" "window.title")
    string(REGEX REPLACE "^AttnViz - " "" summary "${title}")
    # A Latin first letter becomes a capital ("Multi-head ..."); other scripts stay as written.
    string(SUBSTRING "${summary}" 0 1 first)
    if(first MATCHES "^[a-z]$")
        string(TOUPPER "${first}" first)
        string(SUBSTRING "${summary}" 1 -1 rest)
        set(summary "${first}${rest}")
    endif()
    set(${out_var} "${summary}" PARENT_SCOPE)
endfunction()
attnviz_window_summary(en ATTNVIZ_SUMMARY_EN)
attnviz_window_summary(zh-Hans ATTNVIZ_SUMMARY_ZH_HANS)
attnviz_window_summary(zh-Hant ATTNVIZ_SUMMARY_ZH_HANT)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/assets/lang/en.json ${PROJECT_SOURCE_DIR}/assets/lang/zh-Hans.json
             ${PROJECT_SOURCE_DIR}/assets/lang/zh-Hant.json)

set(ATTNVIZ_PACKAGING_DIR ${PROJECT_SOURCE_DIR}/packaging)
set(ATTNVIZ_DESKTOP_FILE ${PROJECT_BINARY_DIR}/packaging/${ATTNVIZ_APP_ID}.desktop)
set(ATTNVIZ_METAINFO_FILE ${PROJECT_BINARY_DIR}/packaging/${ATTNVIZ_APP_ID}.metainfo.xml)
configure_file(${ATTNVIZ_PACKAGING_DIR}/attnviz.desktop.in ${ATTNVIZ_DESKTOP_FILE} @ONLY)
configure_file(${ATTNVIZ_PACKAGING_DIR}/attnviz.metainfo.xml.in ${ATTNVIZ_METAINFO_FILE} @ONLY)

install(TARGETS attnviz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${ATTNVIZ_DESKTOP_FILE} DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${ATTNVIZ_METAINFO_FILE} DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${ATTNVIZ_PACKAGING_DIR}/icons/attnviz.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps RENAME ${ATTNVIZ_APP_ID}.svg)
file(GLOB ATTNVIZ_PNG_ICONS ${ATTNVIZ_PACKAGING_DIR}/icons/png/attnviz-*.png)
foreach(png ${ATTNVIZ_PNG_ICONS})
    string(REGEX MATCH "([0-9]+)\\.png$" _ ${png})
    install(FILES ${png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${CMAKE_MATCH_1}x${CMAKE_MATCH_1}/apps
            RENAME ${ATTNVIZ_APP_ID}.png)
endforeach()

# The data: the trained models (cards, weights and how they were made) and the lessons,
# whatever assets/lessons holds when the build is configured.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/models/ DESTINATION ${ATTNVIZ_DATA_SUBDIR}/models
        FILES_MATCHING PATTERN "*.json" PATTERN "*.safetensors" PATTERN "*.md" PATTERN "*.py"
        PATTERN "__pycache__" EXCLUDE)
if(EXISTS ${PROJECT_SOURCE_DIR}/assets/lessons)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/lessons/ DESTINATION ${ATTNVIZ_DATA_SUBDIR}/lessons)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/attnviz)

# --- make package: a .deb through CPack ------------------------------------------------
# Depends: the shared libraries' packages as dpkg-shlibdeps finds them, plus what the
# binary opens at run time, which it cannot see: the fonts (app/gui/kit/fonts_theme.cpp,
# cjk_font.cpp), libGL.so.1 (libepoxy loads it with dlopen) and Mesa's drivers.
# ffmpeg writes MP4 exports.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attnviz)
set(CPACK_PACKAGE_VENDOR "AttnViz")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "step through multi-head attention, one tensor at a time")
set(CPACK_PACKAGE_DESCRIPTION
    "AttnViz runs a real multi-head attention forward pass and shows every tensor along\n"
    "the way as an animated heatmap with named shapes and an explanation: for learning\n"
    "and teaching attention, with trained example models and a presentation mode.")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # attnviz_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "AttnViz developers <attnviz@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core, fonts-noto-cjk | fonts-droid-fallback, libgl1, libgl1-mesa-dri")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ffmpeg")
include(CPack)
