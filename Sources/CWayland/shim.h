// libwayland-client (Debian libwayland-dev): the display connection, proxies, the core
// protocol's requests (wl_compositor, wl_shm, wl_surface, wl_seat, wl_output).
#include <wayland-client.h>
