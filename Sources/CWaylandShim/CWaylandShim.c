#define _GNU_SOURCE
#include "CWaylandShim.h"

#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

// ---- the ring ---------------------------------------------------------------------

static plw_event ring[PLW_RING_CAPACITY];
static unsigned ring_head, ring_count;
static int ring_overflowed;

void plw_push(plw_event event) {
  if (ring_count == PLW_RING_CAPACITY) {
    ring_overflowed = 1;
    return;
  }
  ring[(ring_head + ring_count) % PLW_RING_CAPACITY] = event;
  ring_count++;
}

int plw_next_event(plw_event *event) {
  if (ring_count == 0) return 0;
  *event = ring[ring_head];
  ring_head = (ring_head + 1) % PLW_RING_CAPACITY;
  ring_count--;
  return 1;
}

int plw_take_overflow(void) {
  int overflowed = ring_overflowed;
  ring_overflowed = 0;
  return overflowed;
}

static void push(uint32_t kind, uint32_t tag, uint32_t serial, uint32_t time, int32_t a, int32_t b, int32_t x, int32_t y) {
  plw_event event = {kind, tag, serial, time, a, b, x, y};
  plw_push(event);
}

static uint32_t tag_of(void *data) { return (uint32_t)(uintptr_t)data; }
static void *as_data(uint32_t tag) { return (void *)(uintptr_t)tag; }

// The tag of a surface the seat reports: lock surfaces carry theirs as user data.
static uint32_t surface_tag(struct wl_surface *surface) {
  return surface ? tag_of(wl_surface_get_user_data(surface)) : 0;
}

// ---- the keyboard: its keymap compiled here, keys turned into keysyms ------------------

static struct xkb_context *xkb;
static struct xkb_keymap *keymap;
static struct xkb_state *key_state;

static void forget_keymap(void) {
  if (key_state) xkb_state_unref(key_state);
  if (keymap) xkb_keymap_unref(keymap);
  key_state = NULL;
  keymap = NULL;
}

static void keyboard_keymap(void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size) {
  (void)data, (void)keyboard;
  forget_keymap();
  if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 || size == 0) {
    close(fd);
    push(PLW_KEYMAP_FAILED, 0, 0, 0, 0, 0, 0, 0);
    return;
  }
  void *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (text == MAP_FAILED) {
    push(PLW_KEYMAP_FAILED, 0, 0, 0, errno, 0, 0, 0);
    return;
  }
  if (!xkb) xkb = xkb_context_new(XKB_CONTEXT_NO_DEFAULT_INCLUDES | XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
  // The keymap text may or may not end in a NUL within `size`.
  keymap = xkb ? xkb_keymap_new_from_buffer(xkb, text, strnlen(text, size), XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
  munmap(text, size);
  key_state = keymap ? xkb_state_new(keymap) : NULL;
  if (!key_state) {
    forget_keymap();
    push(PLW_KEYMAP_FAILED, 0, 0, 0, 0, 0, 0, 0);
  }
}

static void keyboard_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface, struct wl_array *keys) {
  (void)data, (void)keyboard, (void)serial, (void)surface, (void)keys;
}

static void keyboard_leave(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface) {
  (void)data, (void)keyboard, (void)serial, (void)surface;
}

static void keyboard_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
  (void)data, (void)keyboard, (void)serial;
  if (state != WL_KEYBOARD_KEY_STATE_PRESSED || !key_state) return;
  // xkb numbers keys as evdev codes plus 8.
  xkb_keysym_t keysym = xkb_state_key_get_one_sym(key_state, key + 8);
  push(PLW_KEY_PRESSED, 0, 0, time, (int32_t)keysym, (int32_t)key, 0, 0);
}

static void keyboard_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t depressed, uint32_t latched,
                               uint32_t locked, uint32_t group) {
  (void)data, (void)keyboard, (void)serial;
  if (key_state) xkb_state_update_mask(key_state, depressed, latched, locked, 0, 0, group);
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
  (void)data, (void)keyboard, (void)rate, (void)delay;
}

static const struct wl_keyboard_listener keyboard_listener = {
  keyboard_keymap, keyboard_enter, keyboard_leave, keyboard_key, keyboard_modifiers, keyboard_repeat_info,
};

// ---- the pointer ------------------------------------------------------------------

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y) {
  (void)data;
  // No cursor over the lock: the lock draws what the finger or button does.
  wl_pointer_set_cursor(pointer, serial, NULL, 0, 0);
  push(PLW_POINTER_ENTER, surface_tag(surface), serial, 0, 0, 0, x, y);
}

static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface) {
  (void)data, (void)pointer;
  push(PLW_POINTER_LEAVE, surface_tag(surface), serial, 0, 0, 0, 0, 0);
}

static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
  (void)data, (void)pointer;
  push(PLW_POINTER_MOTION, 0, 0, time, 0, 0, x, y);
}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
  (void)data, (void)pointer;
  push(PLW_POINTER_BUTTON, 0, serial, time, (int32_t)button, state == WL_POINTER_BUTTON_STATE_PRESSED, 0, 0);
}

static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
  (void)data, (void)pointer, (void)time, (void)axis, (void)value;
}

static void pointer_frame(void *data, struct wl_pointer *pointer) { (void)data, (void)pointer; }
static void pointer_axis_source(void *data, struct wl_pointer *pointer, uint32_t source) { (void)data, (void)pointer, (void)source; }
static void pointer_axis_stop(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {
  (void)data, (void)pointer, (void)time, (void)axis;
}
static void pointer_axis_discrete(void *data, struct wl_pointer *pointer, uint32_t axis, int32_t discrete) {
  (void)data, (void)pointer, (void)axis, (void)discrete;
}

static const struct wl_pointer_listener pointer_listener = {
  pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis,
  pointer_frame, pointer_axis_source, pointer_axis_stop, pointer_axis_discrete,
};

// ---- touch ------------------------------------------------------------------------

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *surface, int32_t id,
                       wl_fixed_t x, wl_fixed_t y) {
  (void)data, (void)touch;
  push(PLW_TOUCH_DOWN, surface_tag(surface), serial, time, id, 0, x, y);
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
  (void)data, (void)touch;
  push(PLW_TOUCH_UP, 0, serial, time, id, 0, 0, 0);
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
  (void)data, (void)touch;
  push(PLW_TOUCH_MOTION, 0, 0, time, id, 0, x, y);
}

static void touch_frame(void *data, struct wl_touch *touch) {
  (void)data, (void)touch;
  push(PLW_TOUCH_FRAME, 0, 0, 0, 0, 0, 0, 0);
}

static void touch_cancel(void *data, struct wl_touch *touch) {
  (void)data, (void)touch;
  push(PLW_TOUCH_CANCEL, 0, 0, 0, 0, 0, 0, 0);
}

static void touch_shape(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t major, wl_fixed_t minor) {
  (void)data, (void)touch, (void)id, (void)major, (void)minor;
}

static void touch_orientation(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t orientation) {
  (void)data, (void)touch, (void)id, (void)orientation;
}

static const struct wl_touch_listener touch_listener = {
  touch_down, touch_up, touch_motion, touch_frame, touch_cancel, touch_shape, touch_orientation,
};

// ---- the seat: its devices are taken here as they come and go ------------------------

static struct wl_pointer *seat_pointer;
static struct wl_keyboard *seat_keyboard;
static struct wl_touch *seat_touch;

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
  (void)data;
  int has_pointer = (capabilities & WL_SEAT_CAPABILITY_POINTER) != 0;
  int has_keyboard = (capabilities & WL_SEAT_CAPABILITY_KEYBOARD) != 0;
  int has_touch = (capabilities & WL_SEAT_CAPABILITY_TOUCH) != 0;
  if (has_pointer && !seat_pointer) {
    seat_pointer = wl_seat_get_pointer(seat);
    wl_pointer_add_listener(seat_pointer, &pointer_listener, NULL);
  } else if (!has_pointer && seat_pointer) {
    wl_pointer_destroy(seat_pointer);
    seat_pointer = NULL;
  }
  if (has_keyboard && !seat_keyboard) {
    seat_keyboard = wl_seat_get_keyboard(seat);
    wl_keyboard_add_listener(seat_keyboard, &keyboard_listener, NULL);
  } else if (!has_keyboard && seat_keyboard) {
    wl_keyboard_destroy(seat_keyboard);
    seat_keyboard = NULL;
    forget_keymap();
  }
  if (has_touch && !seat_touch) {
    seat_touch = wl_seat_get_touch(seat);
    wl_touch_add_listener(seat_touch, &touch_listener, NULL);
  } else if (!has_touch && seat_touch) {
    wl_touch_destroy(seat_touch);
    seat_touch = NULL;
  }
  push(PLW_SEAT_CAPABILITIES, 0, 0, 0, (int32_t)capabilities, 0, 0, 0);
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) { (void)data, (void)seat, (void)name; }

static const struct wl_seat_listener seat_listener = {seat_capabilities, seat_name};

// ---- outputs ----------------------------------------------------------------------

static void output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y, int32_t width_mm, int32_t height_mm,
                            int32_t subpixel, const char *make, const char *model, int32_t transform) {
  (void)data, (void)output, (void)x, (void)y, (void)width_mm, (void)height_mm, (void)subpixel, (void)make, (void)model,
    (void)transform;
}

static void output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width, int32_t height, int32_t refresh) {
  (void)data, (void)output, (void)flags, (void)width, (void)height, (void)refresh;
}

static void output_done(void *data, struct wl_output *output) {
  (void)output;
  push(PLW_OUTPUT_DONE, tag_of(data), 0, 0, 0, 0, 0, 0);
}

static void output_scale(void *data, struct wl_output *output, int32_t factor) {
  (void)output;
  push(PLW_OUTPUT_SCALE, tag_of(data), 0, 0, factor, 0, 0, 0);
}

static void output_name(void *data, struct wl_output *output, const char *name) { (void)data, (void)output, (void)name; }
static void output_description(void *data, struct wl_output *output, const char *text) { (void)data, (void)output, (void)text; }

static const struct wl_output_listener output_listener = {
  output_geometry, output_mode, output_done, output_scale, output_name, output_description,
};

// ---- the lock, its surfaces, buffers and frames -------------------------------------

static void lock_locked(void *data, struct ext_session_lock_v1 *lock) {
  (void)data, (void)lock;
  push(PLW_LOCKED, 0, 0, 0, 0, 0, 0, 0);
}

static void lock_finished(void *data, struct ext_session_lock_v1 *lock) {
  (void)data, (void)lock;
  push(PLW_FINISHED, 0, 0, 0, 0, 0, 0, 0);
}

static const struct ext_session_lock_v1_listener lock_listener = {lock_locked, lock_finished};

void plw_listen_lock(struct ext_session_lock_v1 *lock) { ext_session_lock_v1_add_listener(lock, &lock_listener, NULL); }

static void lock_surface_configure(void *data, struct ext_session_lock_surface_v1 *surface, uint32_t serial, uint32_t width,
                                   uint32_t height) {
  (void)surface;
  push(PLW_CONFIGURE, tag_of(data), serial, 0, (int32_t)width, (int32_t)height, 0, 0);
}

static const struct ext_session_lock_surface_v1_listener lock_surface_listener = {lock_surface_configure};

void plw_listen_lock_surface(struct ext_session_lock_surface_v1 *surface, uint32_t tag) {
  ext_session_lock_surface_v1_add_listener(surface, &lock_surface_listener, as_data(tag));
}

static void buffer_release(void *data, struct wl_buffer *buffer) {
  (void)buffer;
  push(PLW_BUFFER_RELEASE, tag_of(data), 0, 0, 0, 0, 0, 0);
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

void plw_listen_buffer(struct wl_buffer *buffer, uint32_t tag) { wl_buffer_add_listener(buffer, &buffer_listener, as_data(tag)); }

static void preferred_scale(void *data, struct wp_fractional_scale_v1 *scale, uint32_t value) {
  (void)scale;
  push(PLW_PREFERRED_SCALE, tag_of(data), 0, 0, (int32_t)value, 0, 0, 0);
}

static const struct wp_fractional_scale_v1_listener fractional_scale_listener = {preferred_scale};

void plw_listen_fractional_scale(struct wp_fractional_scale_v1 *scale, uint32_t tag) {
  wp_fractional_scale_v1_add_listener(scale, &fractional_scale_listener, as_data(tag));
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
  wl_callback_destroy(callback);
  push(PLW_FRAME_DONE, tag_of(data), 0, time, 0, 0, 0, 0);
}

static const struct wl_callback_listener frame_listener = {frame_done};

void plw_request_frame(struct wl_surface *surface, uint32_t tag) {
  struct wl_callback *callback = wl_surface_frame(surface);
  wl_callback_add_listener(callback, &frame_listener, as_data(tag));
}

// ---- the registry -----------------------------------------------------------------

static struct wl_registry *registry;

static int interface_code(const char *name) {
  if (strcmp(name, wl_compositor_interface.name) == 0) return PLW_COMPOSITOR;
  if (strcmp(name, wl_shm_interface.name) == 0) return PLW_SHM;
  if (strcmp(name, ext_session_lock_manager_v1_interface.name) == 0) return PLW_SESSION_LOCK_MANAGER;
  if (strcmp(name, wl_output_interface.name) == 0) return PLW_OUTPUT;
  if (strcmp(name, wl_seat_interface.name) == 0) return PLW_SEAT;
  if (strcmp(name, wp_viewporter_interface.name) == 0) return PLW_VIEWPORTER;
  if (strcmp(name, wp_fractional_scale_manager_v1_interface.name) == 0) return PLW_FRACTIONAL_SCALE_MANAGER;
  return 0;
}

static void registry_global(void *data, struct wl_registry *r, uint32_t name, const char *interface, uint32_t version) {
  (void)data, (void)r;
  int code = interface_code(interface);
  if (code) push(PLW_GLOBAL, name, 0, 0, code, (int32_t)version, 0, 0);
}

static void registry_global_remove(void *data, struct wl_registry *r, uint32_t name) {
  (void)data, (void)r;
  push(PLW_GLOBAL_REMOVE, name, 0, 0, 0, 0, 0, 0);
}

static const struct wl_registry_listener registry_listener = {registry_global, registry_global_remove};

struct wl_display *plw_connect(const char *name) {
  struct wl_display *display = wl_display_connect(name);
  if (!display) return NULL;
  registry = wl_display_get_registry(display);
  wl_registry_add_listener(registry, &registry_listener, NULL);
  return display;
}

void plw_disconnect(struct wl_display *display) {
  forget_keymap();
  if (xkb) xkb_context_unref(xkb);
  xkb = NULL;
  seat_pointer = NULL;
  seat_keyboard = NULL;
  seat_touch = NULL;
  registry = NULL;
  wl_display_disconnect(display);
}

void *plw_bind(struct wl_display *display, uint32_t name, int interface, uint32_t version, uint32_t tag) {
  (void)display;
  const struct wl_interface *type;
  switch (interface) {
  case PLW_COMPOSITOR: type = &wl_compositor_interface; break;
  case PLW_SHM: type = &wl_shm_interface; break;
  case PLW_SESSION_LOCK_MANAGER: type = &ext_session_lock_manager_v1_interface; break;
  case PLW_OUTPUT: type = &wl_output_interface; break;
  case PLW_SEAT: type = &wl_seat_interface; break;
  case PLW_VIEWPORTER: type = &wp_viewporter_interface; break;
  case PLW_FRACTIONAL_SCALE_MANAGER: type = &wp_fractional_scale_manager_v1_interface; break;
  default: return NULL;
  }
  void *proxy = wl_registry_bind(registry, name, type, version);
  if (!proxy) return NULL;
  if (interface == PLW_OUTPUT) wl_output_add_listener(proxy, &output_listener, as_data(tag));
  if (interface == PLW_SEAT) wl_seat_add_listener(proxy, &seat_listener, as_data(tag));
  return proxy;
}

// ---- the connection's I/O -----------------------------------------------------------

int plw_dispatch_ready(struct wl_display *display) {
  // Events already queued are dispatched first; the socket is read only when the
  // queue is empty, and then without blocking (the loop polled it readable, or not).
  while (wl_display_prepare_read(display) != 0) {
    if (wl_display_dispatch_pending(display) < 0) return -1;
  }
  if (wl_display_flush(display) < 0 && errno != EAGAIN) {
    wl_display_cancel_read(display);
    return -1;
  }
  struct pollfd ready = {.fd = wl_display_get_fd(display), .events = POLLIN};
  if (poll(&ready, 1, 0) > 0) {
    if (wl_display_read_events(display) < 0) return -1;
  } else {
    wl_display_cancel_read(display);
  }
  if (wl_display_dispatch_pending(display) < 0) return -1;
  // Listeners send requests of their own (a new device's wl_pointer, the cursor):
  // they must not wait for the next frame to leave.
  if (wl_display_flush(display) < 0 && errno != EAGAIN) return -1;
  return 0;
}

int plw_flush(struct wl_display *display) { return wl_display_flush(display) < 0 ? -1 : 0; }

int plw_roundtrip(struct wl_display *display) { return wl_display_roundtrip(display) < 0 ? -1 : 0; }

int plw_wait(struct wl_display *display, int milliseconds) {
  unsigned before = ring_count;
  while (wl_display_prepare_read(display) != 0) {
    if (wl_display_dispatch_pending(display) < 0) return -1;
  }
  if (wl_display_flush(display) < 0 && errno != EAGAIN) {
    wl_display_cancel_read(display);
    return -1;
  }
  struct pollfd ready = {.fd = wl_display_get_fd(display), .events = POLLIN};
  int polled = poll(&ready, 1, milliseconds);
  if (polled > 0) {
    if (wl_display_read_events(display) < 0) return -1;
  } else {
    wl_display_cancel_read(display);
    // An interrupted wait is a wait that ended with nothing read: the caller's loop
    // comes round again, so nothing is retried here.
    if (polled < 0 && errno != EINTR) return -1;
  }
  if (wl_display_dispatch_pending(display) < 0) return -1;
  if (wl_display_flush(display) < 0 && errno != EAGAIN) return -1;
  return ring_count != before;
}

// ---- shared memory ------------------------------------------------------------------

int plw_shm_file(size_t size, void **memory) {
  int fd = memfd_create("patternlock-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)size) < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  void *mapped = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (mapped == MAP_FAILED) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  *memory = mapped;
  return fd;
}

void plw_shm_unmap(void *memory, size_t size) { munmap(memory, size); }
