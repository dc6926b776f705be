/* The console's own style sheet and script, built into the binary so that
 * it works offline with nothing to install (assets.c). */
#ifndef MP_CONSOLE_ASSETS_H
#define MP_CONSOLE_ASSETS_H

extern const char mp_console_css[];
extern const char mp_console_js[];

#endif
