// CShimDevice: the kernel interfaces of the live device path (poll, signalfd, timerfd,
// mmap, the console's KD/VT ioctls, uinput), behind `pl_` names.
//
// The uapi headers are all macros and ioctl numbers built with _IOW(); Swift imports
// none of those, so each use gets a plain C function here. Included by CShim.h.
//
// Each function makes its calls once: EINTR comes back (-1 with errno, or -EINTR where
// the function returns -errno) and the Swift caller retries through SystemCalls'
// `retryingInterrupts`, so one helper does that for every caller.
#ifndef PATTERNLOCK_CSHIM_DEVICE_H
#define PATTERNLOCK_CSHIM_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/// One entry of a pl_poll set (the layout of struct pollfd).
typedef struct {
  int fd;
  short events;
  short revents;
} pl_pollfd;
/// Poll flags (POLLIN, POLLERR, POLLHUP, POLLNVAL).
enum { PL_POLLIN = 0x001, PL_POLLERR = 0x008, PL_POLLHUP = 0x010, PL_POLLNVAL = 0x020 };
/// poll(2); a negative timeout waits forever. EINTR comes back like any failure: after a
/// signal the loop looks at its state before waiting again (SystemCalls' PollSet).
int pl_poll(pl_pollfd *fds, int count, int timeout_ms);

/// Blocks SIGINT, SIGTERM, SIGUSR1 and SIGUSR2 in the calling thread and returns a
/// signalfd(2) that reports them (non-blocking, close-on-exec), or -1 with errno.
int pl_signalfd_open(void);
/// Reads one signal from a signalfd: its number, 0 when none is queued, -1 with errno.
int pl_signalfd_read(int fd);
/// Blocks the same signals without a signalfd (the lock's VT, before the loop's
/// signalfd exists: SIGINT and SIGTERM then wait for it rather than end the process).
void pl_signals_block(void);
/// Unblocks SIGINT and SIGTERM again (after the signalfd is closed); SIGUSR1 and SIGUSR2
/// stay blocked from the start of the process to its end.
void pl_signals_unblock(void);
/// Signal numbers.
enum { PL_SIGINT = 2, PL_SIGTERM = 15 };

/// A CLOCK_MONOTONIC timerfd(2), non-blocking and close-on-exec, or -1 with errno.
int pl_timerfd_create(void);
/// Arms a timerfd to fire once after `microseconds` (0 disarms it); 0 or -1 with errno.
int pl_timerfd_arm(int fd, uint64_t microseconds);
/// Reads a timerfd's expiry count: >0, 0 when it has not fired, -1 with errno.
int64_t pl_timerfd_read(int fd);

/// mmap(2) of `length` bytes, shared, read-write, at `offset`; NULL with errno on failure.
void *pl_mmap_shared(int fd, size_t length, uint64_t offset);
/// munmap(2).
int pl_munmap(void *address, size_t length);

/// Console modes (linux/kd.h).
enum { PL_KD_TEXT = 0x00, PL_KD_GRAPHICS = 0x01, PL_K_UNICODE = 0x03, PL_K_OFF = 0x04 };
/// ioctl(KDGETMODE): the console's display mode, or -1 with errno.
int pl_kd_get_mode(int tty);
/// ioctl(KDSETMODE); 0 or -1 with errno.
int pl_kd_set_mode(int tty, int mode);
/// ioctl(KDGKBMODE): the keyboard mode, or -1 with errno.
int pl_kd_get_keyboard_mode(int tty);
/// ioctl(KDSKBMODE); 0 or -1 with errno.
int pl_kd_set_keyboard_mode(int tty, int mode);

/// Virtual terminals (linux/vt.h), for handing the screen to a kiosk on another VT and
/// taking it back. SIGUSR1 asks a running lock to lock again (`patternlock lock`);
/// SIGUSR2 is the kernel's release and acquire signal while the lock's VT is in
/// VT_PROCESS mode.
enum { PL_SIGUSR1 = 10, PL_SIGUSR2 = 12, PL_VT_ACKACQ = 2 };
/// The number of the virtual terminal `fd` is (1 to 63), or -1 when it is none.
int pl_vt_number(int fd);
/// Opens /dev/ttyN read-write, close-on-exec and without making it the controlling
/// terminal; the descriptor or -1 with errno.
int pl_vt_open(int number);
/// ioctl(VT_GETSTATE): the active VT's number, or -1 with errno.
int pl_vt_active(int tty);
/// ioctl(VT_ACTIVATE): asks for VT `number` to become the active one; 0 or -1 with errno.
int pl_vt_activate(int tty, int number);
/// ioctl(VT_SETMODE): VT_PROCESS with SIGUSR2 as release and acquire signal when
/// `process` is non-zero (the kernel then asks before switching away), else VT_AUTO.
int pl_vt_set_process_mode(int tty, int process);
/// ioctl(VT_GETMODE): 1 when a process holds the VT in VT_PROCESS mode, 0 in VT_AUTO,
/// -1 with errno.
int pl_vt_is_held(int tty);
/// ioctl(VT_RELDISP): 1 lets a pending switch away go on, 0 refuses it, PL_VT_ACKACQ
/// acknowledges a switch to this VT; 0 or -1 with errno (EINVAL when none is pending).
int pl_vt_release_display(int tty, int answer);

/// What an fbdev device (/dev/fbN) reports of itself: FBIOGET_VSCREENINFO and
/// FBIOGET_FSCREENINFO (linux/fb.h), the fields a display back-end needs.
typedef struct {
  uint32_t xres, yres, xres_virtual, yres_virtual, xoffset, yoffset;
  uint32_t bits_per_pixel, grayscale, nonstd;
  /// Bit offset and length of each channel in a pixel word (msb_right is refused).
  uint32_t red_offset, red_length, green_offset, green_length, blue_offset, blue_length;
  uint32_t transp_offset, transp_length, msb_right;
  /// Physical size in millimetres (0 or ~0 when unknown).
  uint32_t width_mm, height_mm;
  /// Bytes per line, length of the mapped memory, FB_TYPE_* and FB_VISUAL_*.
  uint32_t line_length, smem_len, type, visual;
  /// The driver's name (fix.id), NUL-terminated.
  char id[17];
} pl_fb_info;
/// FB_TYPE_PACKED_PIXELS, FB_VISUAL_TRUECOLOR (linux/fb.h).
enum { PL_FB_TYPE_PACKED_PIXELS = 0, PL_FB_VISUAL_TRUECOLOR = 2 };
/// memfd_create(2) and ftruncate(2): an anonymous file of `bytes` zero bytes, closed on
/// exec, to map as a frame buffer in memory (`run --headless`); its descriptor, or -1
/// with errno.
int pl_memory_file(const char *name, size_t bytes);
/// ioctl(FBIOGET_VSCREENINFO) and ioctl(FBIOGET_FSCREENINFO) into `info`; 0 or -1 with errno.
int pl_fb_get_info(int fd, pl_fb_info *info);
/// ioctl(FBIOBLANK): `off` powers the output down (FB_BLANK_POWERDOWN), else unblanks it
/// (FB_BLANK_UNBLANK); 0 or -1 with errno (EINVAL where the driver cannot blank).
int pl_fb_set_power(int fd, bool off);

/// uinput (linux/uinput.h): enables event type `type` on a /dev/uinput fd (UI_SET_EVBIT).
int pl_uinput_enable_type(int fd, uint16_t type);
/// Enables `code` of `type` (UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_RELBIT, UI_SET_MSCBIT).
/// Other types are refused with EINVAL.
int pl_uinput_enable_code(int fd, uint16_t type, uint16_t code);
/// Sets an input property bit (UI_SET_PROPBIT), such as INPUT_PROP_DIRECT (1).
int pl_uinput_enable_property(int fd, uint16_t property);
/// UI_ABS_SETUP for one axis.
int pl_uinput_setup_axis(int fd, uint16_t code, int32_t minimum, int32_t maximum, int32_t fuzz,
                         int32_t flat, int32_t resolution);
/// UI_DEV_SETUP with a name and ids (the name is truncated to the kernel's 80 bytes).
int pl_uinput_setup_device(int fd, const char *name, uint16_t bustype, uint16_t vendor,
                           uint16_t product, uint16_t version);
/// UI_DEV_CREATE.
int pl_uinput_create(int fd);
/// UI_DEV_DESTROY.
int pl_uinput_destroy(int fd);
/// Writes one input_event (time left zero: the kernel stamps it); 0 or -1 with errno.
int pl_uinput_emit(int fd, uint16_t type, uint16_t code, int32_t value);
/// The sysfs name of a created uinput device (UI_GET_SYSNAME), such as "input12", into
/// `buffer`; 0 or -1 with errno.
int pl_uinput_sysname(int fd, char *buffer, size_t size);

/// open(2) with the caller's native flags (libinput's open_restricted passes them),
/// close-on-exec added: the descriptor, or -errno.
int pl_open_native(const char *path, int flags);

/// nanosleep(2) for `microseconds`; 0, or -1 with errno (EINTR when a signal cut it
/// short) and the time still to sleep in `left`. Not to be retried as it is: the caller
/// sleeps `left` again (SystemCalls' `sleep(microseconds:)`), or it would oversleep.
int pl_sleep_microseconds(uint64_t microseconds, uint64_t *left);

#endif
