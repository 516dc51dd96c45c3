// LVGL configuration for the benchmark's LVGL peer (lvgl_scene.c): the software
// renderer and nothing else. Every option not set here keeps LVGL's default
// (lv_conf_internal.h).
#ifndef LV_CONF_H
#define LV_CONF_H

// The display's default format; lvgl_scene sets XRGB8888 or RGB565 per display, and
// the software renderer draws both from one build.
#define LV_COLOR_DEPTH 32

// The C library's malloc, string and printf functions: what a Linux build uses.
#define LV_USE_STDLIB_MALLOC LV_STDLIB_CLIB
#define LV_USE_STDLIB_STRING LV_STDLIB_CLIB
#define LV_USE_STDLIB_SPRINTF LV_STDLIB_CLIB

// One thread, no operating-system layer: lvgl_scene calls lv_refr_now itself.
#define LV_USE_OS LV_OS_NONE

// The software renderer with its anti-aliased shapes (round line ends, rounded
// rectangles), one draw unit, no assembly kernels.
#define LV_USE_DRAW_SW 1
#define LV_DRAW_SW_COMPLEX 1
#define LV_DRAW_SW_DRAW_UNIT_CNT 1

// Sub-pixel line end points: the finger and some dot centres are not whole pixels.
#define LV_USE_FLOAT 1

// No logging, no theme (every object is styled by lvgl_scene), no demos or examples.
#define LV_USE_LOG 0
#define LV_USE_THEME_DEFAULT 0
#define LV_USE_THEME_SIMPLE 0
#define LV_USE_THEME_MONO 0
#define LV_BUILD_EXAMPLES 0
#define LV_BUILD_DEMOS 0

#endif
