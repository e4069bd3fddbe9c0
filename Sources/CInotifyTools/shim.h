#ifndef TICK_CINOTIFYTOOLS_SHIM_H
#define TICK_CINOTIFYTOOLS_SHIM_H
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
#include <inotifytools/inotify.h>
#endif
