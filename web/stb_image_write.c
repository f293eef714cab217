/* stb's PNG writer for the browser build (cmake/web.cmake), from Debian's libstb-dev
   header: on the desktop the same code comes compiled in Debian's libstb. */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
