// CShimGPIO: finding GPIO lines by chip label or line name, and reading input lines
// (a door contact, an exit button) with edge events, through the kernel's GPIO
// character device (uAPI v2), behind `pl_` names. Included by CShim.h.
#ifndef PATTERNLOCK_CSHIM_GPIO_H
#define PATTERNLOCK_CSHIM_GPIO_H

#include <stddef.h>
#include <stdint.h>

/// The label (GPIO_GET_CHIPINFO_IOCTL, such as "pinctrl-rp1" or "9030000.pl061") and
/// line count of the chip `chip_path`: 0, or -1 with errno.
int pl_gpio_chip_info(const char *chip_path, char *label, size_t label_size, uint32_t *lines);

/// The name of `line` of the chip `chip_path` (the device tree's gpio-line-names; empty
/// when it has none): 0, or -1 with errno.
int pl_gpio_line_name(const char *chip_path, uint32_t line, char *name, size_t name_size);

/// Requests `line` of `chip_path` with `flags` (GPIO_V2_LINE_FLAG_*), debounced for
/// `debounce_us` microseconds when not 0, as consumer "patternlock": the request's
/// descriptor (close-on-exec), or -1 with errno. Inputs and the strike's output alike.
int pl_gpio_request_line(const char *chip_path, uint32_t line, uint64_t flags, uint32_t debounce_us);

/// Requests `line` of `chip_path` as an input that reports both edges, debounced for
/// `debounce_us` microseconds (by the chip, or by the kernel where the chip cannot),
/// inverted when `active_low`: the request's descriptor, non-blocking and close-on-exec,
/// or -1 with errno.
int pl_gpio_input_request(const char *chip_path, uint32_t line, int active_low, uint32_t debounce_us);

/// Reads one edge event from an input request `fd`: 1 for a rising (inactive to
/// active) edge, 0 for a falling one, -1 with errno (EAGAIN when none is queued).
int pl_gpio_input_next_edge(int fd);

/// The active (1) or inactive (0) level of an input request's line now, or -1 with errno.
int pl_gpio_input_level(int fd);

#endif
