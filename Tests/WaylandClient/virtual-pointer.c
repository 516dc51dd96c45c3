// A test client that draws through the compositor: a virtual pointer
// (zwlr_virtual_pointer_v1, which wlroots compositors such as labwc offer) moved to
// absolute positions of the output layout, its left button held from the first
// point to the last. Built by scripts/test-wayland against libwayland-client.
//
// The protocol's two interfaces are declared here by hand (Debian packages no XML for
// it): their requests in the order the protocol numbers them; no events.
//
// Usage: virtual-pointer WIDTH HEIGHT [--hover | --hold MS] X,Y [X,Y ...]
//   WIDTH HEIGHT  the output layout's size (the extent positions are given in)
//   --hover       move through the points without pressing the button
//   --hold MS     keep the button down on the last point for MS milliseconds before
//                 releasing it (a pattern caught mid-gesture); prints "holding" then
// Exits 0 once the compositor has had every event, 1 with a message otherwise.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

static const struct wl_interface virtual_pointer_interface;

static const struct wl_interface *manager_types[] = {&wl_seat_interface, &virtual_pointer_interface, &wl_seat_interface,
                                                     &wl_output_interface, &virtual_pointer_interface};
static const struct wl_message manager_requests[] = {
  {"create_virtual_pointer", "?on", manager_types + 0},
  {"destroy", "", NULL},
  {"create_virtual_pointer_with_output", "2?o?on", manager_types + 2},
};
static const struct wl_interface manager_interface = {"zwlr_virtual_pointer_manager_v1", 2, 3, manager_requests, 0, NULL};

static const struct wl_interface *no_types[] = {NULL, NULL, NULL, NULL, NULL};
static const struct wl_message pointer_requests[] = {
  {"motion", "uff", no_types},       {"motion_absolute", "uuuuu", no_types}, {"button", "uuu", no_types},
  {"axis", "uuf", no_types},         {"frame", "", no_types},                {"axis_source", "u", no_types},
  {"axis_stop", "uu", no_types},     {"axis_discrete", "uufi", no_types},    {"destroy", "", no_types},
};
static const struct wl_interface virtual_pointer_interface = {"zwlr_virtual_pointer_v1", 2, 9, pointer_requests, 0, NULL};

enum { MOTION_ABSOLUTE = 1, BUTTON = 2, FRAME = 4, DESTROY = 8 };
enum { BTN_LEFT = 0x110 };

static struct wl_proxy *manager;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
  (void)data;
  if (strcmp(interface, manager_interface.name) == 0)
    manager = wl_registry_bind(registry, name, &manager_interface, version < 1 ? version : 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data, (void)registry, (void)name; }
static const struct wl_registry_listener registry_listener = {global, global_remove};

static uint32_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint32_t)(t.tv_sec * 1000 + t.tv_nsec / 1000000);
}

static void pause_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&t, NULL);
}

static struct wl_display *display;
static struct wl_proxy *pointer;
static uint32_t width, height;

static void move_to(double x, double y) {
  wl_proxy_marshal(pointer, MOTION_ABSOLUTE, now_ms(), (uint32_t)(x + 0.5), (uint32_t)(y + 0.5), width, height);
  wl_proxy_marshal(pointer, FRAME);
  wl_display_flush(display);
  pause_ms(8);
}

static void button(int pressed) {
  wl_proxy_marshal(pointer, BUTTON, now_ms(), BTN_LEFT, pressed);
  wl_proxy_marshal(pointer, FRAME);
  wl_display_flush(display);
  pause_ms(30);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: virtual-pointer WIDTH HEIGHT [--hover | --hold MS] X,Y [X,Y ...]\n");
    return 1;
  }
  width = (uint32_t)atoi(argv[1]);
  height = (uint32_t)atoi(argv[2]);
  int first = 3, hover = 0;
  long hold = 0;
  if (strcmp(argv[3], "--hover") == 0) hover = 1, first = 4;
  if (strcmp(argv[3], "--hold") == 0 && argc > 5) hold = atol(argv[4]), first = 5;
  display = wl_display_connect(NULL);
  if (!display) {
    fprintf(stderr, "virtual-pointer: cannot connect to the Wayland display\n");
    return 1;
  }
  struct wl_registry *registry = wl_display_get_registry(display);
  wl_registry_add_listener(registry, &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (!manager) {
    fprintf(stderr, "virtual-pointer: the compositor has no zwlr_virtual_pointer_manager_v1\n");
    return 1;
  }
  pointer = wl_proxy_marshal_constructor(manager, 0, &virtual_pointer_interface, NULL, NULL);
  wl_display_roundtrip(display);
  double x = 0, y = 0;
  for (int i = first; i < argc; i++) {
    double tx, ty;
    if (sscanf(argv[i], "%lf,%lf", &tx, &ty) != 2) {
      fprintf(stderr, "virtual-pointer: '%s' is not X,Y\n", argv[i]);
      return 1;
    }
    if (i == first) {
      move_to(tx, ty);
      // A new pointer device is announced to clients as a change of the seat's
      // capabilities; they take a wl_pointer then, so the press waits for that.
      pause_ms(200);
      move_to(tx, ty);
      if (!hover) button(1);
    } else {
      // Steps of at most 12 pixels, as a finger's motion events come.
      double dx = tx - x, dy = ty - y;
      double length = dx * dx + dy * dy, steps = 1;
      while (steps * steps * 144 < length) steps++;
      for (int s = 1; s <= (int)steps; s++) move_to(x + dx * s / steps, y + dy * s / steps);
    }
    x = tx, y = ty;
  }
  if (hold > 0) {
    // The compositor has had every motion once the roundtrip returns.
    wl_display_roundtrip(display);
    printf("holding\n");
    fflush(stdout);
    pause_ms(hold);
  }
  if (!hover) button(0);
  wl_proxy_marshal(pointer, DESTROY);
  wl_proxy_destroy(pointer);
  if (wl_display_roundtrip(display) < 0) {
    fprintf(stderr, "virtual-pointer: the compositor ended the connection (protocol error?)\n");
    return 1;
  }
  wl_display_disconnect(display);
  return 0;
}
