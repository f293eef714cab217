# attnviz_embed_files(<output.cpp> <script.cmake> <comment> <input files...>)
# Generates <output.cpp> at build time by running <script.cmake> (cmake -P) with
# -DOUTPUT=<output.cpp> and -DINPUTS=<the input files>, re-run whenever an input or
# the script changes. Used to compile shaders, language files and the example models into the binary.
function(attnviz_embed_files output script comment)
    add_custom_command(
        OUTPUT ${output}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${ARGN}" -P ${script}
        DEPENDS ${ARGN} ${script}
        COMMENT "${comment}"
        VERBATIM)
endfunction()
