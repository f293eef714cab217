# attnviz_embed_files(<output.cpp> <script.cmake> <comment> <input files...>)
# Generates <output.cpp> at build time by running <script.cmake> (cmake -P) with
# -DOUTPUT=<output.cpp> and -DINPUTS=<the input files>, re-run whenever an input or
# the script changes. Used to compile the shaders into the binary.
function(attnviz_embed_files output script comment)
    add_custom_command(
        OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${ARGN}" -P ${script}
        DEPENDS ${ARGN} ${script}
        COMMENT "${comment}"
        VERBATIM)
endfunction()

# attnviz_embed_bytes(<output.cpp> COMMENT <text> NAMESPACE <ns> TABLE <name>
#                     [STRIP_EXTENSION] INPUTS <files...>)
# Generates <output.cpp> holding the files as byte arrays in the table
# <ns>::<name>[] of attn::embed::EmbeddedFile (app/embed/embedded_file.h), and
# <ns>::<name>Count. Used for the language catalogues, the PyTorch code and the models.
function(attnviz_embed_bytes output)
    cmake_parse_arguments(EMBED "STRIP_EXTENSION" "COMMENT;NAMESPACE;TABLE" "INPUTS" ${ARGN})
    set(script ${PROJECT_SOURCE_DIR}/cmake/embed_bytes.cmake)
    set(strip OFF)
    if(EMBED_STRIP_EXTENSION)
        set(strip ON)
    endif()
    add_custom_command(
        OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${EMBED_INPUTS}" -DNAMESPACE=${EMBED_NAMESPACE}
                -DTABLE=${EMBED_TABLE} -DSTRIP_EXTENSION=${strip} -P ${script}
        DEPENDS ${EMBED_INPUTS} ${script}
        COMMENT "${EMBED_COMMENT}"
        VERBATIM)
endfunction()
