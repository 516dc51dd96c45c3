#define _GNU_SOURCE
#include "CShimDevice.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/uinput.h>
#include <linux/vt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <stdio.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(pl_pollfd) == sizeof(struct pollfd), "pl_pollfd must match struct pollfd");
_Static_assert(POLLIN == PL_POLLIN && POLLERR == PL_POLLERR && POLLHUP == PL_POLLHUP && POLLNVAL == PL_POLLNVAL,
               "poll flags");
_Static_assert(KD_GRAPHICS == PL_KD_GRAPHICS && KD_TEXT == PL_KD_TEXT && K_OFF == PL_K_OFF && K_UNICODE == PL_K_UNICODE, "kd modes");
_Static_assert(SIGINT == PL_SIGINT && SIGTERM == PL_SIGTERM && SIGUSR1 == PL_SIGUSR1 && SIGUSR2 == PL_SIGUSR2,
               "signal numbers");
_Static_assert(VT_ACKACQ == PL_VT_ACKACQ, "vt answers");

int pl_poll(pl_pollfd *fds, int count, int timeout_ms) {
  return poll((struct pollfd *)fds, (nfds_t)count, timeout_ms);
}

static sigset_t stop_signals(void) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGUSR1);
  sigaddset(&set, SIGUSR2);
  return set;
}

int pl_signalfd_open(void) {
  sigset_t set = stop_signals();
  if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
  return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int pl_signalfd_read(int fd) {
  struct signalfd_siginfo info;
  ssize_t n = read(fd, &info, sizeof info);
  if (n < 0) return errno == EAGAIN ? 0 : -1;
  if (n != (ssize_t)sizeof info) return 0;
  return (int)info.ssi_signo;
}

void pl_signals_block(void) {
  sigset_t set = stop_signals();
  sigprocmask(SIG_BLOCK, &set, NULL);
}

void pl_signals_unblock(void) {
  // SIGUSR1 and SIGUSR2 stay blocked for the process's life (see CShim.c's
  // hold_request_signals): only the stop signals are delivered normally again.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int pl_timerfd_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int pl_timerfd_arm(int fd, uint64_t microseconds) {
  struct itimerspec spec;
  memset(&spec, 0, sizeof spec);
  spec.it_value.tv_sec = (time_t)(microseconds / 1000000u);
  spec.it_value.tv_nsec = (long)(microseconds % 1000000u) * 1000;
  return timerfd_settime(fd, 0, &spec, NULL);
}

int64_t pl_timerfd_read(int fd) {
  uint64_t count = 0;
  ssize_t n = read(fd, &count, sizeof count);
  if (n < 0) return errno == EAGAIN ? 0 : -1;
  return (int64_t)count;
}

void *pl_mmap_shared(int fd, size_t length, uint64_t offset) {
  void *p = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
  return p == MAP_FAILED ? NULL : p;
}

int pl_munmap(void *address, size_t length) { return munmap(address, length); }

// The argument as a full unsigned long, the width the kernel reads it at. One attempt:
// EINTR comes back to the Swift caller, which retries through SystemCalls.
static int ioctl_value(int fd, unsigned long request, unsigned long argument) {
  return ioctl(fd, request, argument);
}

int pl_kd_get_mode(int tty) {
  int mode = 0;
  int r = ioctl(tty, KDGETMODE, &mode);
  return r < 0 ? -1 : mode;
}

int pl_kd_set_mode(int tty, int mode) { return ioctl_value(tty, KDSETMODE, (unsigned long)mode); }

int pl_kd_get_keyboard_mode(int tty) {
  int mode = 0;
  int r = ioctl(tty, KDGKBMODE, &mode);
  return r < 0 ? -1 : mode;
}

int pl_kd_set_keyboard_mode(int tty, int mode) { return ioctl_value(tty, KDSKBMODE, (unsigned long)mode); }

int pl_uinput_enable_type(int fd, uint16_t type) { return ioctl_value(fd, UI_SET_EVBIT, type); }

int pl_uinput_enable_code(int fd, uint16_t type, uint16_t code) {
  switch (type) {
  case EV_KEY: return ioctl_value(fd, UI_SET_KEYBIT, code);
  case EV_ABS: return ioctl_value(fd, UI_SET_ABSBIT, code);
  case EV_REL: return ioctl_value(fd, UI_SET_RELBIT, code);
  case EV_MSC: return ioctl_value(fd, UI_SET_MSCBIT, code);
  case EV_SW: return ioctl_value(fd, UI_SET_SWBIT, code);
  case EV_LED: return ioctl_value(fd, UI_SET_LEDBIT, code);
  default: errno = EINVAL; return -1;
  }
}

int pl_uinput_enable_property(int fd, uint16_t property) { return ioctl_value(fd, UI_SET_PROPBIT, property); }

int pl_uinput_setup_axis(int fd, uint16_t code, int32_t minimum, int32_t maximum, int32_t fuzz,
                         int32_t flat, int32_t resolution) {
  struct uinput_abs_setup setup;
  memset(&setup, 0, sizeof setup);
  setup.code = code;
  setup.absinfo.minimum = minimum;
  setup.absinfo.maximum = maximum;
  setup.absinfo.fuzz = fuzz;
  setup.absinfo.flat = flat;
  setup.absinfo.resolution = resolution;
  return ioctl_value(fd, UI_ABS_SETUP, (unsigned long)&setup);
}

int pl_uinput_setup_device(int fd, const char *name, uint16_t bustype, uint16_t vendor,
                           uint16_t product, uint16_t version) {
  struct uinput_setup setup;
  memset(&setup, 0, sizeof setup);
  strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
  setup.id.bustype = bustype;
  setup.id.vendor = vendor;
  setup.id.product = product;
  setup.id.version = version;
  return ioctl_value(fd, UI_DEV_SETUP, (unsigned long)&setup);
}

int pl_uinput_create(int fd) { return ioctl_value(fd, UI_DEV_CREATE, 0); }
int pl_uinput_destroy(int fd) { return ioctl_value(fd, UI_DEV_DESTROY, 0); }

int pl_uinput_emit(int fd, uint16_t type, uint16_t code, int32_t value) {
  struct input_event event;
  memset(&event, 0, sizeof event);
  event.type = type;
  event.code = code;
  event.value = value;
  ssize_t n = write(fd, &event, sizeof event);
  if (n < 0) return -1;
  if (n != (ssize_t)sizeof event) {
    errno = EIO;
    return -1;
  }
  return 0;
}

int pl_uinput_sysname(int fd, char *buffer, size_t size) {
  return ioctl(fd, UI_GET_SYSNAME(size), buffer) < 0 ? -1 : 0;
}

int pl_open_native(const char *path, int flags) {
  int fd = open(path, flags | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

int pl_sleep_microseconds(uint64_t microseconds, uint64_t *left) {
  struct timespec want = {(time_t)(microseconds / 1000000u), (long)(microseconds % 1000000u) * 1000};
  struct timespec rest = {0, 0};
  int result = nanosleep(&want, &rest);
  *left = result == 0 ? 0 : (uint64_t)rest.tv_sec * 1000000u + (uint64_t)rest.tv_nsec / 1000u;
  return result;
}

int pl_memory_file(const char *name, size_t bytes) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)bytes) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

int pl_fb_get_info(int fd, pl_fb_info *info) {
  struct fb_var_screeninfo var;
  struct fb_fix_screeninfo fix;
  memset(&var, 0, sizeof var);
  memset(&fix, 0, sizeof fix);
  if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0) return -1;
  if (ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) return -1;
  memset(info, 0, sizeof *info);
  info->xres = var.xres;
  info->yres = var.yres;
  info->xres_virtual = var.xres_virtual;
  info->yres_virtual = var.yres_virtual;
  info->xoffset = var.xoffset;
  info->yoffset = var.yoffset;
  info->bits_per_pixel = var.bits_per_pixel;
  info->grayscale = var.grayscale;
  info->nonstd = var.nonstd;
  info->red_offset = var.red.offset;
  info->red_length = var.red.length;
  info->green_offset = var.green.offset;
  info->green_length = var.green.length;
  info->blue_offset = var.blue.offset;
  info->blue_length = var.blue.length;
  info->transp_offset = var.transp.offset;
  info->transp_length = var.transp.length;
  info->msb_right = var.red.msb_right | var.green.msb_right | var.blue.msb_right;
  info->width_mm = var.width;
  info->height_mm = var.height;
  info->line_length = fix.line_length;
  info->smem_len = fix.smem_len;
  info->type = fix.type;
  info->visual = fix.visual;
  memcpy(info->id, fix.id, sizeof fix.id);
  info->id[16] = 0;
  return 0;
}

int pl_fb_set_power(int fd, bool off) {
  return ioctl(fd, FBIOBLANK, off ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK);
}

int pl_vt_number(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode)) return -1;
  // TTY_MAJOR 4; minors 1 to 63 are the VTs (0 is tty0, 64 and up serial ports).
  if (major(st.st_rdev) != 4 || minor(st.st_rdev) < 1 || minor(st.st_rdev) > 63) return -1;
  return (int)minor(st.st_rdev);
}

int pl_vt_open(int number) {
  char path[16];
  if (number < 1 || number > 63) {
    errno = EINVAL;
    return -1;
  }
  snprintf(path, sizeof path, "/dev/tty%d", number);
  return open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
}

int pl_vt_active(int tty) {
  struct vt_stat state;
  int r = ioctl(tty, VT_GETSTATE, &state);
  return r < 0 ? -1 : (int)state.v_active;
}

int pl_vt_activate(int tty, int number) {
  return ioctl(tty, VT_ACTIVATE, number);
}

int pl_vt_set_process_mode(int tty, int process) {
  struct vt_mode mode;
  memset(&mode, 0, sizeof mode);
  mode.mode = process ? VT_PROCESS : VT_AUTO;
  mode.relsig = process ? SIGUSR2 : 0;
  mode.acqsig = process ? SIGUSR2 : 0;
  return ioctl(tty, VT_SETMODE, &mode);
}

int pl_vt_release_display(int tty, int answer) {
  return ioctl(tty, VT_RELDISP, answer);
}

int pl_vt_is_held(int tty) {
  struct vt_mode mode;
  int r = ioctl(tty, VT_GETMODE, &mode);
  return r < 0 ? -1 : mode.mode == VT_PROCESS;
}
