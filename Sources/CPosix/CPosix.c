// CPosix.c: thin wrappers so Swift never touches a macro, a packed struct or a variadic call.
// Each function does one syscall (or a fixed sequence) and reports failure the libc way
// (-1 and errno), leaving retry-on-EINTR and error wording to Swift's single chokepoint.
#define _GNU_SOURCE
#include "CPosix.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif

#ifdef __APPLE__
// Darwin gives `environ` only to a program being linked, not to libraries and test bundles;
// _NSGetEnviron is the sanctioned way there.
#include <crt_externs.h>
#else
extern char **environ;
#endif

// MARK: errno

const char *cposix_errno_name(int error) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    return strerrorname_np(error);
#else
    (void)error;
    return NULL;
#endif
}

int cposix_errno(void) { return errno; }

// MARK: epoll

#ifdef __linux__
const uint32_t CPOSIX_EPOLLIN = EPOLLIN;
const uint32_t CPOSIX_EPOLLOUT = EPOLLOUT;
const uint32_t CPOSIX_EPOLLERR = EPOLLERR;
const uint32_t CPOSIX_EPOLLHUP = EPOLLHUP;
const uint32_t CPOSIX_EPOLLRDHUP = EPOLLRDHUP;
const uint32_t CPOSIX_EPOLLET = EPOLLET;

int cposix_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cposix_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = events;
    event.data.u64 = data;
    int kernel_op = op == 1 ? EPOLL_CTL_ADD : op == 2 ? EPOLL_CTL_MOD : EPOLL_CTL_DEL;
    return epoll_ctl(epfd, kernel_op, fd, &event);
}

int cposix_epoll_wait(int epfd, cposix_epoll_event *events, int maxevents, int timeout_ms) {
    struct epoll_event kernel[256];
    if (maxevents > 256) maxevents = 256;
    int count = epoll_wait(epfd, kernel, maxevents, timeout_ms);
    for (int i = 0; i < count; i++) {
        events[i].events = kernel[i].events;
        events[i].data = kernel[i].data.u64;
    }
    return count;
}

int cposix_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int cposix_timerfd_monotonic(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK); }

int cposix_timerfd_arm(int fd, uint64_t deadline_ns) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)(deadline_ns / 1000000000u);
    spec.it_value.tv_nsec = (long)(deadline_ns % 1000000000u);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}
#else
const uint32_t CPOSIX_EPOLLIN = 0x001;
const uint32_t CPOSIX_EPOLLOUT = 0x004;
const uint32_t CPOSIX_EPOLLERR = 0x008;
const uint32_t CPOSIX_EPOLLHUP = 0x010;
const uint32_t CPOSIX_EPOLLRDHUP = 0x2000;
const uint32_t CPOSIX_EPOLLET = 1u << 31;
int cposix_epoll_create(void) { errno = ENOSYS; return -1; }
int cposix_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    (void)epfd; (void)op; (void)fd; (void)events; (void)data; errno = ENOSYS; return -1;
}
int cposix_epoll_wait(int epfd, cposix_epoll_event *events, int maxevents, int timeout_ms) {
    (void)epfd; (void)events; (void)maxevents; (void)timeout_ms; errno = ENOSYS; return -1;
}
int cposix_eventfd(void) { errno = ENOSYS; return -1; }
int cposix_timerfd_monotonic(void) { errno = ENOSYS; return -1; }
int cposix_timerfd_arm(int fd, uint64_t deadline_ns) { (void)fd; (void)deadline_ns; errno = ENOSYS; return -1; }
#endif

// MARK: poll

int cposix_poll_rdhup(void) {
#ifdef POLLRDHUP
    return POLLRDHUP;
#else
    return 0;
#endif
}

// MARK: sockets

static int set_flag(int fd, int get, int set, int flag, int on) {
    int flags = fcntl(fd, get);
    if (flags < 0) return -1;
    int wanted = on ? (flags | flag) : (flags & ~flag);
    if (wanted == flags) return 0;
    return fcntl(fd, set, wanted);
}

int cposix_set_nonblocking(int fd, int on) { return set_flag(fd, F_GETFL, F_SETFL, O_NONBLOCK, on); }
int cposix_set_cloexec(int fd, int on) { return set_flag(fd, F_GETFD, F_SETFD, FD_CLOEXEC, on); }
int cposix_get_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    return flags < 0 ? -1 : (flags & FD_CLOEXEC) != 0;
}
int cposix_get_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : (flags & O_NONBLOCK) != 0;
}

int cposix_unix_socket(int datagram, int nonblocking) {
    int type = datagram ? SOCK_DGRAM : SOCK_STREAM;
#ifdef __linux__
    type |= SOCK_CLOEXEC;
    if (nonblocking) type |= SOCK_NONBLOCK;
    return socket(AF_UNIX, type, 0);
#else
    int fd = socket(AF_UNIX, type, 0);
    if (fd < 0) return -1;
    cposix_set_cloexec(fd, 1);
    if (nonblocking) cposix_set_nonblocking(fd, 1);
    return fd;
#endif
}

int cposix_accept_nonblocking(int fd) {
#ifdef __linux__
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
#else
    int client = accept(fd, NULL, NULL);
    if (client < 0) return -1;
    cposix_set_cloexec(client, 1);
    cposix_set_nonblocking(client, 1);
    return client;
#endif
}

size_t cposix_sun_path_capacity(void) {
    struct sockaddr_un address;
    return sizeof address.sun_path;
}

// Fills `address` and returns the socklen_t to pass, or 0 (errno ENAMETOOLONG) if it cannot fit.
static socklen_t make_address(struct sockaddr_un *address, const uint8_t *path, size_t length) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    if (path == NULL) {
        errno = EINVAL;
        return 0;
    }
    int abstract = length > 0 && path[0] == 0;
    // A filesystem path needs its terminating NUL inside sun_path; an abstract name does not.
    size_t limit = abstract ? sizeof address->sun_path : sizeof address->sun_path - 1;
    if (length == 0 || length > limit) {
        errno = ENAMETOOLONG;
        return 0;
    }
    memcpy(address->sun_path, path, length);
    if (abstract) return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length);
    return (socklen_t)sizeof *address;
}

int cposix_unix_bind(int fd, const uint8_t *path, size_t length) {
    struct sockaddr_un address;
    socklen_t size = make_address(&address, path, length);
    if (size == 0) return -1;
    return bind(fd, (const struct sockaddr *)&address, size);
}

int cposix_unix_connect(int fd, const uint8_t *path, size_t length) {
    struct sockaddr_un address;
    socklen_t size = make_address(&address, path, length);
    if (size == 0) return -1;
    return connect(fd, (const struct sockaddr *)&address, size);
}

ssize_t cposix_unix_sendto(int fd, const void *bytes, size_t count, const uint8_t *path, size_t length) {
    struct sockaddr_un address;
    socklen_t size = make_address(&address, path, length);
    if (size == 0) return -1;
#ifdef MSG_NOSIGNAL
    int flags = MSG_NOSIGNAL;
#else
    int flags = 0;
#endif
    return sendto(fd, bytes, count, flags, (const struct sockaddr *)&address, size);
}

int cposix_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
#ifdef __linux__
    struct ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) < 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
#else
    uid_t peer_uid;
    gid_t peer_gid;
    if (getpeereid(fd, &peer_uid, &peer_gid) < 0) return -1;
    *pid = 0;
    *uid = peer_uid;
    *gid = peer_gid;
    return 0;
#endif
}

int cposix_set_socket_timeout(int fd, int receive, int64_t nanoseconds) {
    struct timeval value;
    value.tv_sec = (time_t)(nanoseconds / 1000000000);
    value.tv_usec = (suseconds_t)((nanoseconds % 1000000000) / 1000);
    // A positive timeout shorter than 1 µs would read as "forever"; round it up.
    if (nanoseconds > 0 && value.tv_sec == 0 && value.tv_usec == 0) value.tv_usec = 1;
    return setsockopt(fd, SOL_SOCKET, receive ? SO_RCVTIMEO : SO_SNDTIMEO, &value, sizeof value);
}

ssize_t cposix_send(int fd, const void *bytes, size_t count) {
#ifdef MSG_NOSIGNAL
    return send(fd, bytes, count, MSG_NOSIGNAL);
#else
    return send(fd, bytes, count, 0);
#endif
}

// MARK: files

const int CPOSIX_O_RDONLY = O_RDONLY;
const int CPOSIX_O_WRONLY = O_WRONLY;
const int CPOSIX_O_RDWR = O_RDWR;
const int CPOSIX_O_CREAT = O_CREAT;
const int CPOSIX_O_EXCL = O_EXCL;
const int CPOSIX_O_TRUNC = O_TRUNC;
const int CPOSIX_O_APPEND = O_APPEND;
const int CPOSIX_O_DIRECTORY = O_DIRECTORY;
const int CPOSIX_O_NOFOLLOW = O_NOFOLLOW;
const int CPOSIX_O_CLOEXEC = O_CLOEXEC;

int cposix_open(const char *path, int flags, uint32_t mode) { return open(path, flags, (mode_t)mode); }

int cposix_pipe(int *read_fd, int *write_fd, int nonblocking) {
    int fds[2];
#ifdef __linux__
    if (pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0)) < 0) return -1;
#else
    if (pipe(fds) < 0) return -1;
    for (int i = 0; i < 2; i++) {
        cposix_set_cloexec(fds[i], 1);
        if (nonblocking) cposix_set_nonblocking(fds[i], 1);
    }
#endif
    *read_fd = fds[0];
    *write_fd = fds[1];
    return 0;
}

static void fill_info(const struct stat *status, cposix_file_info *info) {
    switch (status->st_mode & S_IFMT) {
    case S_IFREG: info->kind = 1; break;
    case S_IFDIR: info->kind = 2; break;
    case S_IFLNK: info->kind = 3; break;
    case S_IFSOCK: info->kind = 4; break;
    default: info->kind = 5; break;
    }
    info->permissions = (uint32_t)(status->st_mode & 07777);
    info->owner = (uint32_t)status->st_uid;
    info->size = (int64_t)status->st_size;
}

int cposix_stat(const char *path, int follow, cposix_file_info *info) {
    struct stat status;
    int result = follow ? stat(path, &status) : lstat(path, &status);
    if (result < 0) return -1;
    fill_info(&status, info);
    return 0;
}

int cposix_fstat(int fd, cposix_file_info *info) {
    struct stat status;
    if (fstat(fd, &status) < 0) return -1;
    fill_info(&status, info);
    return 0;
}

// MARK: signals

// One write end per signal number, read by the handler. A plain int array written before the
// handler is installed (and cleared after it is removed) is what async-signal-safe code can use.
static volatile sig_atomic_t forward_fds[65] = {[0 ... 64] = -1};

static void forward_handler(int signo) {
    int saved = errno; // the interrupted code may be about to read errno
    if (signo > 0 && signo < 65) {
        int fd = forward_fds[signo];
        if (fd >= 0) {
            unsigned char byte = (unsigned char)signo;
            ssize_t ignored = write(fd, &byte, 1); // a full pipe already holds a pending wakeup
            (void)ignored;
        }
    }
    errno = saved;
}

int cposix_forward_signal(int signo, int write_fd) {
    if (signo <= 0 || signo >= 65) {
        errno = EINVAL;
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    if (write_fd < 0) {
        action.sa_handler = SIG_DFL;
        if (sigaction(signo, &action, NULL) < 0) return -1;
        forward_fds[signo] = -1;
        return 0;
    }
    forward_fds[signo] = write_fd;
    action.sa_handler = forward_handler;
    action.sa_flags = SA_RESTART;
    if (sigaction(signo, &action, NULL) < 0) return -1;
    // The signal may have been blocked by whoever started us (a shell, a supervisor).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

int cposix_ignore_signal(int signo) { return signal(signo, SIG_IGN) == SIG_ERR ? -1 : 0; }

// MARK: processes

int cposix_spawn(pid_t *pid, const char *path, char *const *argv, char *const *envp,
                 const char *stdin_path, const char *output_path, int new_session, int search_path) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int error = posix_spawn_file_actions_init(&actions);
    if (error) return error;
    error = posix_spawnattr_init(&attributes);
    if (error) {
        posix_spawn_file_actions_destroy(&actions);
        return error;
    }
    if (stdin_path && !error) error = posix_spawn_file_actions_addopen(&actions, 0, stdin_path, O_RDONLY, 0);
    if (output_path && !error) {
        error = posix_spawn_file_actions_addopen(&actions, 1, output_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (!error) error = posix_spawn_file_actions_adddup2(&actions, 1, 2);
    }
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#ifdef POSIX_SPAWN_SETSID
    if (new_session) flags |= POSIX_SPAWN_SETSID;
#else
    (void)new_session;
#endif
    sigset_t empty, all;
    sigemptyset(&empty);
    sigfillset(&all);
    if (!error) error = posix_spawnattr_setsigmask(&attributes, &empty);
    if (!error) error = posix_spawnattr_setsigdefault(&attributes, &all);
    if (!error) error = posix_spawnattr_setflags(&attributes, flags);
    if (!error) {
        error = search_path ? posix_spawnp(pid, path, &actions, &attributes, argv, envp)
                            : posix_spawn(pid, path, &actions, &attributes, argv, envp);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}

pid_t cposix_wait(pid_t pid, int nohang, int *exited, int *code, int *signaled, int *signal_number) {
    int status = 0;
    pid_t result = waitpid(pid, &status, nohang ? WNOHANG : 0);
    *exited = 0;
    *code = 0;
    *signaled = 0;
    *signal_number = 0;
    if (result > 0) {
        if (WIFEXITED(status)) {
            *exited = 1;
            *code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            *signaled = 1;
            *signal_number = WTERMSIG(status);
        }
    }
    return result;
}

#ifdef __APPLE__
char **cposix_environ(void) { return *_NSGetEnviron(); }
#else
char **cposix_environ(void) { return environ; }
#endif

// MARK: limits and clocks

int cposix_raise_nofile_limit(uint64_t *soft, uint64_t *hard) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) < 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        struct rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    *soft = (uint64_t)limit.rlim_cur;
    *hard = (uint64_t)limit.rlim_max;
    return 0;
}

uint64_t cposix_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

int64_t cposix_realtime_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + (int64_t)now.tv_nsec;
}

int cposix_trim_heap(void) {
#if defined(__linux__) && defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

// MARK: heap prefaulting
//
// glibc's main arena grows with brk, and the first write to each new page is a page fault
// taken by the thread that allocated it: with instances kept alive by the thousand, that was
// most of vmd's kernel time per `vm.create` (~0.7 faults each). The prefault thread below
// populates (MADV_POPULATE_WRITE: maps zeroed pages, changes no byte) the pages the break
// moved over since the last poke, so the allocating thread finds them mapped. Only the main
// arena (the main thread's, vmd's loop) grows with brk; other arenas are not helped.
//
// Memory: a page is populated only once the break has moved over it, i.e. once glibc took it
// for the heap; what becomes resident earlier than on first touch is the part of each
// extension not yet handed out (glibc's top pad, 128 KiB by default), and at most
// PREFAULT_MAX_STEP bytes per poke (an extension made for one large block is not populated
// beyond that: the block may never be written whole).

#if defined(__linux__) && defined(__GLIBC__)
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define PREFAULT_MAX_STEP ((uintptr_t)262144)
#define PREFAULT_CHUNK ((uintptr_t)65536)

static pthread_mutex_t prefault_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t prefault_wake = PTHREAD_COND_INITIALIZER;
// Guarded by prefault_lock: the ranges still to populate, oldest first (a request that
// continues the newest one extends it; one that finds the list full is dropped: prefaulting
// only saves time), whether the thread waits for one, and whether it runs at all.
#define PREFAULT_SLOTS 8
static uintptr_t prefault_from[PREFAULT_SLOTS];
static uintptr_t prefault_to[PREFAULT_SLOTS];
static int prefault_count = 0;
static int prefault_waiting = 0;
static int prefault_started = 0;
// The break at the last poke (0 until started). Atomic: every loop thread may poke.
static _Atomic uintptr_t prefault_seen = 0;

static void *prefault_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&prefault_lock);
    for (;;) {
        while (prefault_count == 0) {
            prefault_waiting = 1;
            pthread_cond_wait(&prefault_wake, &prefault_lock);
            prefault_waiting = 0;
        }
        // In chunks, lowest address of the oldest range first: the allocating thread uses a
        // heap range from its bottom up.
        uintptr_t from = prefault_from[0];
        uintptr_t to = prefault_to[0] - from > PREFAULT_CHUNK ? from + PREFAULT_CHUNK : prefault_to[0];
        if (to == prefault_to[0]) {
            prefault_count -= 1;
            memmove(prefault_from, prefault_from + 1, sizeof(uintptr_t) * (size_t)prefault_count);
            memmove(prefault_to, prefault_to + 1, sizeof(uintptr_t) * (size_t)prefault_count);
        } else {
            prefault_from[0] = to;
        }
        pthread_mutex_unlock(&prefault_lock);
        // ENOMEM: the heap was trimmed below `to` meanwhile; nothing to do. EINVAL: the kernel
        // has no MADV_POPULATE_WRITE (Linux < 5.14): stop for good (pokes then cost a test).
        int failed = madvise((void *)from, to - from, MADV_POPULATE_WRITE) != 0 && errno == EINVAL;
        pthread_mutex_lock(&prefault_lock);
        if (failed) {
            prefault_started = 0;
            prefault_count = 0;
            atomic_store_explicit(&prefault_seen, 0, memory_order_relaxed);
            pthread_mutex_unlock(&prefault_lock);
            return NULL;
        }
    }
}

// Hands [from, to) (page-aligned) to the thread.
static void prefault_request(uintptr_t from, uintptr_t to) {
    pthread_mutex_lock(&prefault_lock);
    if (!prefault_started || from >= to) {
        pthread_mutex_unlock(&prefault_lock);
        return;
    }
    int last = prefault_count - 1;
    if (last >= 0 && from >= prefault_from[last] && from <= prefault_to[last]) {
        if (to > prefault_to[last]) prefault_to[last] = to;
    } else if (prefault_count < PREFAULT_SLOTS) {
        prefault_from[prefault_count] = from;
        prefault_to[prefault_count] = to;
        prefault_count += 1;
    }
    int wake = prefault_waiting;
    pthread_mutex_unlock(&prefault_lock);
    if (wake) pthread_cond_signal(&prefault_wake);
}
#endif

int cposix_heap_prefault_start(void) {
#if defined(__linux__) && defined(__GLIBC__)
    pthread_mutex_lock(&prefault_lock);
    if (prefault_started) {
        pthread_mutex_unlock(&prefault_lock);
        return 1;
    }
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 65536);
    pthread_t thread;
    int failed = pthread_create(&thread, &attributes, prefault_main, NULL);
    pthread_attr_destroy(&attributes);
    if (failed) {
        pthread_mutex_unlock(&prefault_lock);
        return 0;
    }
    prefault_started = 1;
    uintptr_t now = (uintptr_t)sbrk(0);
    atomic_store_explicit(&prefault_seen, now, memory_order_relaxed);
    pthread_mutex_unlock(&prefault_lock);
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
    // The unused top of the heap now (`keepcost`: the main arena's top chunk) is populated
    // too, as every later growth will be: the top is mapped from the start on, not only
    // after the first growth.
    uintptr_t top = mallinfo2().keepcost;
    if (top > PREFAULT_MAX_STEP) top = PREFAULT_MAX_STEP;
    if (top > 0 && top < now) prefault_request((now - top) & ~(uintptr_t)4095, now);
#endif
    return 1;
#else
    return 0;
#endif
}

void cposix_heap_prefault_poke(void) {
#if defined(__linux__) && defined(__GLIBC__)
    uintptr_t seen = atomic_load_explicit(&prefault_seen, memory_order_relaxed);
    if (seen == 0) return;
    // glibc's sbrk(0) reads its cached break: no system call. Another thread's malloc may be
    // moving the break meanwhile (a word-sized store): a stale value only delays a hand-over.
    uintptr_t now = (uintptr_t)sbrk(0);
    if (now == seen) return;
    if (!atomic_compare_exchange_strong_explicit(&prefault_seen, &seen, now, memory_order_relaxed, memory_order_relaxed)) {
        return;  // another thread poked for this growth
    }
    if (now < seen) return;  // trimmed: what grows from the new break is handed over next time
    uintptr_t page = 4096;
    uintptr_t from = seen & ~(page - 1);
    uintptr_t to = now - from > PREFAULT_MAX_STEP ? from + PREFAULT_MAX_STEP : now;
    prefault_request(from, (to + page - 1) & ~(page - 1));
#endif
}

int cposix_prefault_range(void *_Nonnull start, size_t count) {
#if defined(__linux__) && defined(__GLIBC__)
    uintptr_t page = 4096;
    uintptr_t from = (uintptr_t)start & ~(page - 1);
    uintptr_t to = ((uintptr_t)start + count + page - 1) & ~(page - 1);
    pthread_mutex_lock(&prefault_lock);
    int started = prefault_started;
    pthread_mutex_unlock(&prefault_lock);
    if (!started) return 0;
    prefault_request(from, to);
    return 1;
#else
    (void)start;
    (void)count;
    return 0;
#endif
}
