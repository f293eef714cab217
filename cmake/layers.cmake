# The build keeps the layers of app/layers.txt: a library may link only to libraries on
# a lower line of that file. attnviz_check_layer_links() runs after every target exists
# and stops the configure step with the offending pair. (tests/test_layers.cpp holds the
# includes to the same order.)

# The list (tests/layers/ points it at the same file from a fixture project).
if(NOT ATTNVIZ_LAYERS_FILE)
    set(ATTNVIZ_LAYERS_FILE ${PROJECT_SOURCE_DIR}/app/layers.txt)
endif()

# The libraries of app/layers.txt, top to bottom, each once (its highest line).
function(attnviz_layer_libraries out)
    file(STRINGS ${ATTNVIZ_LAYERS_FILE} lines REGEX "^[^#]")
    set(libraries)
    foreach(line IN LISTS lines)
        string(REGEX MATCHALL "[^ \t]+" words "${line}")
        list(LENGTH words count)
        if(count LESS 2)
            message(FATAL_ERROR "app/layers.txt: '${line}' needs a folder and a library (or -)")
        endif()
        list(GET words 1 library)
        if(NOT library STREQUAL "-")
            list(APPEND libraries ${library})
        endif()
    endforeach()
    list(REMOVE_DUPLICATES libraries)
    set(${out} ${libraries} PARENT_SCOPE)
endfunction()

# Every library of the list that exists (a build without the window has fewer) links only
# to the libraries listed after it.
function(attnviz_check_layer_links)
    attnviz_layer_libraries(layers)
    foreach(library IN LISTS layers)
        if(NOT TARGET ${library})
            continue()
        endif()
        list(FIND layers ${library} own)
        get_target_property(links ${library} LINK_LIBRARIES)
        get_target_property(interface ${library} INTERFACE_LINK_LIBRARIES)
        foreach(linked IN LISTS links interface)
            string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" linked "${linked}")
            list(FIND layers "${linked}" theirs)
            if(theirs GREATER_EQUAL 0 AND NOT theirs GREATER own)
                message(FATAL_ERROR "Layers (app/layers.txt): ${library} links to ${linked}, "
                                    "which is not below it. Move the shared code down or the caller up.")
            endif()
        endforeach()
    endforeach()
endfunction()
