// libinih: the INI parser behind patternlock.conf (Debian libinih-dev).
#include <ini.h>
