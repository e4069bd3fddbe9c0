#ifndef TICK_SYS_H
#define TICK_SYS_H

/// renameat2(2) as a direct system call, so that a fully static executable
/// has it too (a dlsym lookup finds nothing there). Returns 0, or -1 with
/// errno set; ENOSYS only where the kernel lacks the call (Linux < 3.15) or
/// on a system that is not Linux.
int tick_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

#endif
