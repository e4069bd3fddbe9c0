#ifndef TICK_CNCURSESW_SHIM_H
#define TICK_CNCURSESW_SHIM_H
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* Macros and globals Swift cannot import as written. */
static inline int tick_curses_lines(void) { return LINES; }
static inline int tick_curses_cols(void) { return COLS; }
static inline chtype tick_attr_bold(void) { return A_BOLD; }
static inline chtype tick_attr_reverse(void) { return A_REVERSE; }
static inline chtype tick_attr_dim(void) { return A_DIM; }
static inline chtype tick_attr_underline(void) { return A_UNDERLINE; }
static inline chtype tick_color_pair(short n) { return COLOR_PAIR(n); }
static inline WINDOW *tick_stdscr(void) { return stdscr; }
static inline int tick_key_resize(void) { return KEY_RESIZE; }
static inline int tick_key_mouse(void) { return KEY_MOUSE; }
static inline mmask_t tick_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t tick_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t tick_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t tick_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t tick_button5_pressed(void) {
#ifdef BUTTON5_PRESSED
    return BUTTON5_PRESSED;
#else
    return 0;
#endif
}
static inline mmask_t tick_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
/* Draws UTF-8 text at (y, x), at most `n` bytes; ncursesw decodes it by the locale. */
static inline int tick_draw(int y, int x, const char *text, int n) { return mvaddnstr(y, x, text, n); }
static inline int tick_attr_on(chtype a) { return attron(a); }
static inline int tick_attr_off(chtype a) { return attroff(a); }
static inline int tick_get_wch(wint_t *wch) { return get_wch(wch); }
#endif
