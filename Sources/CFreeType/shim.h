// FreeType (Debian libfreetype-dev): glyphs are rasterised once at start-up.
#include <ft2build.h>
#include FT_FREETYPE_H
