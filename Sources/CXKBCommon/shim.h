// libxkbcommon (Debian libxkbcommon-dev): the compositor's keymap compiled, keys to
// keysyms under the current modifiers.
#include <xkbcommon/xkbcommon.h>
