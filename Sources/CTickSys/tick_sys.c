// System calls Swift's Glibc module does not declare (they need _GNU_SOURCE,
// or are variadic). Compiled into every build, static or dynamic.
#define _GNU_SOURCE
#include "tick_sys.h"
#include <errno.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>
#endif

int tick_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
#else
    (void)olddirfd; (void)oldpath; (void)newdirfd; (void)newpath; (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

int tick_spawn_group(const char *path, char *const argv[], char *const envp[], const char *directory,
                     int in_fd, int out_fd, int err_fd, int pdeathsig) {
#if defined(__linux__)
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid; /* the parent, or -1 */
    setpgid(0, 0);
    if (pdeathsig != 0) {
        prctl(PR_SET_PDEATHSIG, pdeathsig);
        /* The parent may have died before prctl: then no signal comes. */
        if (getppid() != parent) _exit(128 + pdeathsig);
    }
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, 0);
    int defaults[] = {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP};
    for (unsigned i = 0; i < sizeof defaults / sizeof defaults[0]; i++) signal(defaults[i], SIG_DFL);
    int fds[3] = {in_fd, out_fd, err_fd};
    for (int i = 0; i < 3; i++) {
        if (fds[i] >= 0 && fds[i] != i && dup2(fds[i], i) < 0) _exit(127);
    }
    /* Nothing else of tick's (its store lock, its files) reaches the child. */
#if defined(SYS_close_range)
    if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
#endif
    for (int fd = 3; fd < 4096; fd++) close(fd);
    if (directory && chdir(directory) != 0) _exit(127);
    execve(path, argv, envp);
    _exit(127);
#else
    (void)path; (void)argv; (void)envp; (void)directory; (void)in_fd; (void)out_fd; (void)err_fd; (void)pdeathsig;
    errno = ENOSYS;
    return -1;
#endif
}
