#ifndef TICK_CINOTIFYTOOLS_SHIM_H
#define TICK_CINOTIFYTOOLS_SHIM_H
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
#include <inotifytools/inotify.h>

/// The name of an event's file (the flexible array member Swift cannot see), or "".
static inline const char *tick_inotify_event_name(const struct inotify_event *event) {
    return event->len > 0 ? event->name : "";
}
#endif
