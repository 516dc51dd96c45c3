// libyaml's event-based parser (Debian libyaml-dev).
#include <yaml.h>
