// libpng (Debian libpng-dev), for headless frame dumps and golden-image tests.
#include <png.h>
