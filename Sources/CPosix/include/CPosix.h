// CPosix: the few Linux facilities (with portable fallbacks where Darwin lacks them) Swift's Glibc module does not expose (epoll, eventfd, accept4,
// SO_PEERCRED, posix_spawn attributes, signal forwarding), behind small functions with plain C
// types. Everything that needs _GNU_SOURCE or a macro lives in CPosix.c, so this header stays
// importable next to Glibc without redefining anything. Only module Posix imports it.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: errno

/// The symbolic name of an errno value ("EADDRINUSE"), or NULL when unknown.
const char *_Nullable cposix_errno_name(int error);
/// The calling thread's errno (a function so Swift never deals with the TLS macro).
int cposix_errno(void);

// MARK: epoll (Linux only)

/// One epoll event in a layout Swift imports plainly (the kernel's struct is packed on x86-64).
typedef struct {
    uint32_t events;
    uint64_t data;
} cposix_epoll_event;

extern const uint32_t CPOSIX_EPOLLIN;
extern const uint32_t CPOSIX_EPOLLOUT;
extern const uint32_t CPOSIX_EPOLLERR;
extern const uint32_t CPOSIX_EPOLLHUP;
extern const uint32_t CPOSIX_EPOLLRDHUP;
extern const uint32_t CPOSIX_EPOLLET;

/// epoll_create1(EPOLL_CLOEXEC).
int cposix_epoll_create(void);
/// op: 1 add, 2 modify, 3 delete (EPOLL_CTL_ADD/MOD/DEL).
int cposix_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
/// epoll_wait copying into the unpacked event layout; at most 256 events per call.
int cposix_epoll_wait(int epfd, cposix_epoll_event *_Nonnull events, int maxevents, int timeout_ms);

/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK) (Linux only; elsewhere -1 with errno ENOSYS).
int cposix_eventfd(void);

/// timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK) (Linux only; elsewhere -1 with
/// errno ENOSYS).
int cposix_timerfd_monotonic(void);
/// Arms timerfd `fd` to expire once, when CLOCK_MONOTONIC reaches `deadline_ns` (absolute;
/// 0 disarms it). Linux only; elsewhere -1 with errno ENOSYS.
int cposix_timerfd_arm(int fd, uint64_t deadline_ns);

// MARK: poll

/// POLLRDHUP (peer shut down its writing side) where the system defines it, else 0.
int cposix_poll_rdhup(void);

// MARK: sockets

/// socket(AF_UNIX, type | SOCK_CLOEXEC [| SOCK_NONBLOCK]); type 1 stream, 2 datagram.
int cposix_unix_socket(int datagram, int nonblocking);
/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK).
int cposix_accept_nonblocking(int fd);
/// The usable bytes of sockaddr_un.sun_path (108 on Linux), including room for the NUL.
size_t cposix_sun_path_capacity(void);
/// bind/connect/sendto on an AF_UNIX address whose sun_path holds `length` bytes of `path`.
/// A path starting with a NUL byte is an abstract address (its length is exact).
/// Returns -1 with errno ENAMETOOLONG when the path does not fit.
int cposix_unix_bind(int fd, const uint8_t *_Nullable path, size_t length);
int cposix_unix_connect(int fd, const uint8_t *_Nullable path, size_t length);
ssize_t cposix_unix_sendto(int fd, const void *_Nonnull bytes, size_t count,
                           const uint8_t *_Nullable path, size_t length);
/// getsockopt(SO_PEERCRED).
int cposix_peer_credentials(int fd, int32_t *_Nonnull pid, uint32_t *_Nonnull uid, uint32_t *_Nonnull gid);
/// SO_SNDTIMEO / SO_RCVTIMEO in nanoseconds (0 = block forever).
int cposix_set_socket_timeout(int fd, int receive, int64_t nanoseconds);
/// send(fd, bytes, count, MSG_NOSIGNAL | MSG_DONTWAIT when nonblocking).
ssize_t cposix_send(int fd, const void *_Nonnull bytes, size_t count);

// MARK: descriptors and files

int cposix_set_nonblocking(int fd, int on);
int cposix_set_cloexec(int fd, int on);
int cposix_get_cloexec(int fd);
int cposix_get_nonblocking(int fd);
int cposix_open(const char *_Nonnull path, int flags, uint32_t mode);
extern const int CPOSIX_O_RDONLY;
extern const int CPOSIX_O_WRONLY;
extern const int CPOSIX_O_RDWR;
extern const int CPOSIX_O_CREAT;
extern const int CPOSIX_O_EXCL;
extern const int CPOSIX_O_TRUNC;
extern const int CPOSIX_O_APPEND;
extern const int CPOSIX_O_DIRECTORY;
extern const int CPOSIX_O_NOFOLLOW;
extern const int CPOSIX_O_CLOEXEC;
/// pipe2(O_CLOEXEC [| O_NONBLOCK]).
int cposix_pipe(int *_Nonnull read_fd, int *_Nonnull write_fd, int nonblocking);

/// What lstat/stat/fstat report, reduced to what vmd checks.
typedef struct {
    int kind;          // 1 regular, 2 directory, 3 symlink, 4 socket, 5 other
    uint32_t permissions; // st_mode & 07777
    uint32_t owner;
    int64_t size;
} cposix_file_info;
/// follow: 0 lstat, 1 stat.
int cposix_stat(const char *_Nonnull path, int follow, cposix_file_info *_Nonnull info);
int cposix_fstat(int fd, cposix_file_info *_Nonnull info);

// MARK: signals

/// Install a handler for `signo` that writes the signal number as one byte to `write_fd`
/// (async-signal-safe; any thread may take the signal). write_fd < 0 restores SIG_DFL.
int cposix_forward_signal(int signo, int write_fd);
/// signal(signo, SIG_IGN).
int cposix_ignore_signal(int signo);

// MARK: processes

/// posix_spawn with: stdin from stdin_path (or inherited when NULL), stdout and stderr appended
/// to output_path (or inherited when NULL), a new session when new_session != 0, default signal
/// dispositions and an empty signal mask (an ignored SIGPIPE must not leak into the child).
/// Returns 0 and the pid in *pid, or an errno value.
int cposix_spawn(pid_t *_Nonnull pid, const char *_Nonnull path,
                 char *_Nullable const *_Nonnull argv, char *_Nullable const *_Nonnull envp,
                 const char *_Nullable stdin_path, const char *_Nullable output_path,
                 int new_session, int search_path);
/// waitpid(pid, &status, nohang ? WNOHANG : 0) decoded: returns the pid (0 = still running) and
/// sets *exited/*code or *signaled/*signal.
pid_t cposix_wait(pid_t pid, int nohang, int *_Nonnull exited, int *_Nonnull code,
                  int *_Nonnull signaled, int *_Nonnull signal_number);
/// The process environment block.
char *_Nullable *_Nullable cposix_environ(void);

// MARK: limits and clocks

/// Raise RLIMIT_NOFILE's soft limit to its hard limit; reports both after the change.
int cposix_raise_nofile_limit(uint64_t *_Nonnull soft, uint64_t *_Nonnull hard);
uint64_t cposix_monotonic_ns(void);
int64_t cposix_realtime_ns(void);

// MARK: heap

/// Gives freed heap back to the kernel (glibc's `malloc_trim(0)`); returns 1 if memory was
/// released, 0 if not or where the C library has no such call.
int cposix_trim_heap(void);
/// Starts the thread that populates the main arena's new pages ahead of use (CPosix.c,
/// "heap prefaulting"); returns 1 when it runs (or already ran), 0 where unavailable.
int cposix_heap_prefault_start(void);
/// Hands the main arena's growth since the last call to the prefault thread: cheap when the
/// break has not moved (no system call). Safe from any thread.
void cposix_heap_prefault_poke(void);
/// Hands the pages of [start, start + count) to the prefault thread; returns 0 when it does
/// not run. The range must stay mapped until populated (for tests).
int cposix_prefault_range(void *_Nonnull start, size_t count);

#ifdef __cplusplus
}
#endif
