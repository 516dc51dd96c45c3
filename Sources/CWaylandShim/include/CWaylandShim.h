// CWaylandShim: the Wayland listeners of the session lock, in C, so that Swift needs
// no C callbacks. Each event the lock cares about is copied into one fixed ring of
// plain records (`plw_event`) while libwayland dispatches; the Swift side drains the
// ring after each dispatch. Nothing here allocates per event: the ring is static, and
// the keymap (compiled once per keymap event, not per key) is the only heap use.
//
// Objects are told apart by a tag chosen by the Swift side (its user data): an
// output's registry name, a surface's slot, a buffer's slot.
#ifndef PATTERNLOCK_CWAYLANDSHIM_H
#define PATTERNLOCK_CWAYLANDSHIM_H

#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

#include "ext-session-lock-v1-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "viewporter-client-protocol.h"

/// What a ring record says. Fields of `plw_event` used by each are listed beside it.
typedef enum {
  /// A global the lock uses appeared: tag = registry name, a = plw_interface, b = version.
  PLW_GLOBAL = 1,
  /// A global went away: tag = registry name.
  PLW_GLOBAL_REMOVE,
  /// An output's integer scale: tag = registry name, a = scale.
  PLW_OUTPUT_SCALE,
  /// An output's properties are complete: tag = registry name.
  PLW_OUTPUT_DONE,
  /// The compositor has locked the session (the client may now unlock it).
  PLW_LOCKED,
  /// The lock was refused or taken away: the client must destroy it and never unlock.
  PLW_FINISHED,
  /// A lock surface's size: tag = surface tag, serial, a = width, b = height (logical).
  PLW_CONFIGURE,
  /// A preferred fractional scale: tag = surface tag, a = scale in 120ths.
  PLW_PREFERRED_SCALE,
  /// The compositor is done reading a buffer: tag = buffer tag.
  PLW_BUFFER_RELEASE,
  /// A frame callback fired: tag = surface tag, time = milliseconds.
  PLW_FRAME_DONE,
  /// The seat's capabilities: a = WL_SEAT_CAPABILITY_* bits.
  PLW_SEAT_CAPABILITIES,
  /// The pointer entered a surface: tag = surface tag, x, y = position (wl_fixed_t).
  PLW_POINTER_ENTER,
  /// The pointer left its surface: tag = surface tag.
  PLW_POINTER_LEAVE,
  /// time, x, y.
  PLW_POINTER_MOTION,
  /// time, a = button (BTN_*), b = 1 pressed / 0 released.
  PLW_POINTER_BUTTON,
  /// A finger went down: tag = surface tag, a = touch id, time, x, y.
  PLW_TOUCH_DOWN,
  /// a = touch id, time, x, y.
  PLW_TOUCH_MOTION,
  /// a = touch id, time.
  PLW_TOUCH_UP,
  /// The end of a set of touch events.
  PLW_TOUCH_FRAME,
  /// The compositor took the touch sequence away.
  PLW_TOUCH_CANCEL,
  /// A key was pressed: time, a = keysym under the current modifiers, b = evdev code.
  PLW_KEY_PRESSED,
  /// The keymap could not be read or compiled: keys are ignored until the next one.
  PLW_KEYMAP_FAILED,
} plw_event_kind;

/// The globals the lock binds.
typedef enum {
  PLW_COMPOSITOR = 1,
  PLW_SHM,
  PLW_SESSION_LOCK_MANAGER,
  PLW_OUTPUT,
  PLW_SEAT,
  PLW_VIEWPORTER,
  PLW_FRACTIONAL_SCALE_MANAGER,
} plw_interface;

/// One ring record.
typedef struct {
  uint32_t kind;
  uint32_t tag;
  uint32_t serial;
  uint32_t time;
  int32_t a;
  int32_t b;
  int32_t x;
  int32_t y;
} plw_event;

/// The ring's capacity: far more than one dispatch of a lock's events.
enum { PLW_RING_CAPACITY = 1024 };

/// Connects to the compositor (`name` NULL: $WAYLAND_DISPLAY) and asks for the
/// registry, whose globals arrive as PLW_GLOBAL records. NULL with errno on failure.
struct wl_display *plw_connect(const char *name);
/// Disconnects and forgets the keymap.
void plw_disconnect(struct wl_display *display);

/// Binds the global `name` of `interface` at `version` (clamped by the caller) and
/// listens to it with `tag`; NULL for an interface that is not one of plw_interface.
void *plw_bind(struct wl_display *display, uint32_t name, int interface, uint32_t version, uint32_t tag);

/// Listeners with the caller's tag.
void plw_listen_lock(struct ext_session_lock_v1 *lock);
void plw_listen_lock_surface(struct ext_session_lock_surface_v1 *surface, uint32_t tag);
void plw_listen_buffer(struct wl_buffer *buffer, uint32_t tag);
void plw_listen_fractional_scale(struct wp_fractional_scale_v1 *scale, uint32_t tag);
/// Asks for a frame callback on `surface`, reported as PLW_FRAME_DONE with `tag`.
void plw_request_frame(struct wl_surface *surface, uint32_t tag);

/// Reads what the socket has without blocking and dispatches it into the ring.
/// 0, or -1 with errno (the connection is lost: EPIPE, ECONNRESET, EPROTO).
int plw_dispatch_ready(struct wl_display *display);
/// Sends the queued requests; 0, or -1 with errno (EAGAIN: try again when writable).
int plw_flush(struct wl_display *display);
/// Sends the requests and waits until the compositor answered them all (set-up only).
int plw_roundtrip(struct wl_display *display);
/// Sends the requests, waits at most `milliseconds` for events and dispatches them into
/// the ring: 1 when some came, 0 when none did, -1 with errno when the connection is lost.
int plw_wait(struct wl_display *display, int milliseconds);

/// Takes the oldest record into `event`; 0 when the ring is empty.
int plw_next_event(plw_event *event);
/// Whether events were lost because the ring was full since the last call (then clears it).
int plw_take_overflow(void);
/// Puts one record into the ring (the tests feed the Swift side through it).
void plw_push(plw_event event);

/// A shared-memory file of `size` bytes for a wl_shm pool, mapped into `*memory`:
/// its descriptor, or -1 with errno.
int plw_shm_file(size_t size, void **memory);
/// Unmaps what plw_shm_file mapped.
void plw_shm_unmap(void *memory, size_t size);

#endif
