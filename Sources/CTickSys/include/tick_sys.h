#ifndef TICK_SYS_H
#define TICK_SYS_H

/// renameat2(2) as a direct system call, so that a fully static executable
/// has it too (a dlsym lookup finds nothing there). Returns 0, or -1 with
/// errno set; ENOSYS only where the kernel lacks the call (Linux < 3.15) or
/// on a system that is not Linux.
int tick_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/// Starts `path` with `argv` and `envp` in `directory`, its stdin, stdout and
/// stderr the given descriptors, in a process group of its own, and with
/// `pdeathsig` (when not 0) as its parent-death signal (prctl
/// PR_SET_PDEATHSIG, Linux): the child gets it when the thread that started
/// it ends, tick's exit or a signal that kills it included. Between fork and
/// exec only async-signal-safe calls. Returns the child's pid, or -1 with
/// errno set. A child that cannot exec exits 127.
int tick_spawn_group(const char *path, char *const argv[], char *const envp[], const char *directory,
                     int in_fd, int out_fd, int err_fd, int pdeathsig);

#endif
