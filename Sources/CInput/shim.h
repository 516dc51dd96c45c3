// libinput (Debian libinput-dev) and libudev (Debian libudev-dev): touch, pointer and
// keyboard events, device discovery on a seat, and udev monitors for display hotplug.
#include <libinput.h>
#include <libudev.h>
