#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a program to completion with a deadline and captures its stdout and stderr: `posix_spawnp` with
/// stdin on `/dev/null`, both outputs on close-on-exec pipes read with `poll`, the child in its own process group.
///
/// The child inherits descriptors 0, 1 and 2 only: every descriptor from 3 up is closed in it before `exec`,
/// close-on-exec or not (a TLS socket libcurl left open, say). Its environment is ours minus every variable whose
/// name starts with one of the caller's hidden prefixes (a program's own secret variables, such as ipcurl's
/// `IPCURL_`).
///
/// The result is the child's: once the child itself has exited, whatever is already in the pipes is read without
/// waiting for end of file, so a grandchild still holding stdout open (`sleep 30 &`) cannot turn a finished run
/// into a timeout; output written after the child exited may be lost. The program must not leave processes
/// behind: when the child has exited, the rest of its process group gets `SIGKILL` (only a process that left the
/// group, with `setsid` or `setpgid`, survives). On a timeout or too much stdout the whole process group gets
/// `SIGKILL` too. The child is always reaped exactly once before this returns or throws.
/// - SeeAlso: `posix_spawnp(3)`, `poll(2)`, `waitid(2)`.
enum ChildProcess {
    /// How the program ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// A program that ran to its end.
    struct Completed {
        /// Everything it wrote to stdout (at most the output limit).
        var output: [UInt8]
        /// The start of what it wrote to stderr; the rest was read and dropped.
        var errorOutput: [UInt8]
        var termination: Termination
    }

    /// Why there is no ``Completed``.
    enum Failure: Error, Equatable {
        /// `posix_spawnp` failed with this errno: not found, not executable, ….
        case cannotRun(errno: Int32)
        /// The deadline passed; the process group was killed.
        case timedOut
        /// Stdout went past the limit; the process group was killed.
        case outputTooLarge
        /// A pipe, poll, read or wait call failed.
        case system(String)
    }

    /// Runs `arguments` (`arguments[0]` is looked up on `PATH` like `execvp`) with the parent's environment
    /// minus the variables whose names start with one of `hiddenPrefixes`.
    static func run(_ arguments: [String], hiding hiddenPrefixes: [String] = [], timeoutMS: Int, outputLimit: Int,
                    errorOutputLimit: Int) throws(Failure) -> Completed {
        let deadline = monotonicMS() + Int64(max(timeoutMS, 1))
        let output = try closeOnExecPipe()
        defer { close(output[0]) }
        let errors: [Int32]
        do { errors = try closeOnExecPipe() } catch {
            close(output[1])
            throw error
        }
        defer { close(errors[0]) }
        let spawned = Result { () throws(Failure) in try spawn(arguments, hiding: hiddenPrefixes, output: output[1], errorOutput: errors[1]) }
        close(output[1])
        close(errors[1])
        let pid = try spawned.get()
        // The read ends are ours alone (close-on-exec), so no other process sees them non-blocking.
        for fd in [output[0], errors[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

        var captured: (output: [UInt8], errorOutput: [UInt8])
        var waitable = true
        do {
            captured = try drain(output[0], errors[0], child: pid, deadline: deadline, outputLimit: outputLimit,
                                 errorOutputLimit: errorOutputLimit, waitable: &waitable)
            try waitForExit(pid, deadline: deadline, waitable: &waitable)
        } catch {
            if waitable { killGroupAndReap(pid) }  // else already reaped elsewhere: nothing left to kill
            throw error
        }
        guard let status = killGroupAndReap(pid) else { throw .system("waitpid: \(errnoText())") }
        let signal = status & 0x7f
        let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        return Completed(output: captured.output, errorOutput: captured.errorOutput, termination: termination)
    }

    /// A pipe whose ends are both `O_CLOEXEC` from the start, so a program another thread spawns meanwhile
    /// cannot inherit our write end and hold back end of file.
    ///
    /// `pipe2` is a GNU extension the Glibc module does not import, so it is looked up with `dlsym`; where
    /// that fails (static musl) `pipe` plus `FD_CLOEXEC` is the fallback, racy only against concurrent spawns.
    private static func closeOnExecPipe() throws(Failure) -> [Int32] {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
        var fds: [Int32] = [-1, -1]
        if let symbol = libcSymbol("pipe2") {
            guard unsafeBitCast(symbol, to: Pipe2.self)(&fds, O_CLOEXEC) == 0 else {
                throw .system("pipe: \(errnoText())")
            }
            return fds
        }
        guard pipe(&fds) == 0 else { throw .system("pipe: \(errnoText())") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return fds
    }

    /// A function of the C library that its Swift module does not import, or nil where there is none (or no
    /// `dlopen`, as in a static musl binary).
    private static func libcSymbol(_ name: String) -> UnsafeMutableRawPointer? {
        guard let program = dlopen(nil, RTLD_LAZY) else { return nil }
        defer { dlclose(program) }  // the running program's own handle: its symbols stay valid
        return dlsym(program, name)
    }

    private static func spawn(_ arguments: [String], hiding hiddenPrefixes: [String], output: Int32,
                              errorOutput: Int32) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw .system("posix_spawn_file_actions_init") }
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawnattr_init(&attributes) == 0 else { throw .system("posix_spawnattr_init") }
        defer { posix_spawnattr_destroy(&attributes) }

        var emptyMask = sigset_t(), defaultSignals = sigset_t()
        sigemptyset(&emptyMask)
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)  // the child dies quietly on a closed pipe, whatever we ignore
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        // File actions run in this order in the child: the pipes are on 1 and 2 before everything from 3 closes.
        guard posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) == 0,
              posix_spawn_file_actions_adddup2(&actions, output, 1) == 0,
              posix_spawn_file_actions_adddup2(&actions, errorOutput, 2) == 0,
              addCloseFromThree(&actions),
              posix_spawnattr_setpgroup(&attributes, 0) == 0,
              posix_spawnattr_setsigmask(&attributes, &emptyMask) == 0,
              posix_spawnattr_setsigdefault(&attributes, &defaultSignals) == 0,
              posix_spawnattr_setflags(&attributes, Int16(flags)) == 0
        else { throw .system("posix_spawn setup failed") }

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard let envp = childEnvironment(hiding: hiddenPrefixes) else { throw .system("out of memory") }
        defer { envp.forEach { free($0) } }
        var pid = pid_t()
        var result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        // ETXTBSY: the program was just written and another process forked while it was open for writing (the
        // fork's copy of the descriptor lives until that child's exec); it clears within milliseconds.
        var busyRetries = 5
        while result == ETXTBSY, busyRetries > 0 {
            busyRetries -= 1
            usleep(20_000)
            result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        }
        guard result == 0 else { throw .cannotRun(errno: result) }
        return pid
    }

    /// Adds the file action that closes every descriptor from 3 up, close-on-exec or not.
    ///
    /// glibc 2.34 and later have `posix_spawn_file_actions_addclosefrom_np` (`close_range` in the child), which
    /// the Glibc module does not import, so it is looked up with `dlsym`. Without it each descriptor open in this
    /// process now gets a `posix_spawn_file_actions_addclose`; one another thread opens before the spawn without
    /// `O_CLOEXEC` is missed, and without `/proc` only those below 1024 are closed.
    private static func addCloseFromThree(_ actions: inout posix_spawn_file_actions_t) -> Bool {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = libcSymbol("posix_spawn_file_actions_addclosefrom_np") {
            return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3) == 0
        }
        for fd in openDescriptors() where fd >= 3 {
            // A descriptor closed meanwhile is no error: glibc and musl ignore EBADF from these closes.
            guard posix_spawn_file_actions_addclose(&actions, fd) == 0 else { return false }
        }
        return true
    }

    /// The descriptors open in this process, from `/proc/self/fd`; without `/proc`, 0 up to 1024 (or the limit).
    private static func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else {
            return Array(0..<Int32(clamping: min(max(sysconf(Int32(_SC_OPEN_MAX)), 0), 1024)))
        }
        defer { closedir(directory) }
        let listing = dirfd(directory)
        var fds: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd != listing { fds.append(fd) }
        }
        return fds
    }

    /// Copies of the `environ` entries whose names start with none of `hiddenPrefixes`, then nil; the caller
    /// frees them. Nil when out of memory.
    private static func childEnvironment(hiding hiddenPrefixes: [String]) -> [UnsafeMutablePointer<CChar>?]? {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var cursor: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ  // nil after clearenv()
        while let variables = cursor, let entry = variables.pointee {
            if !hiddenPrefixes.contains(where: { strncmp(entry, $0, $0.utf8.count) == 0 }) {
                guard let copy = strdup(entry) else {
                    entries.forEach { free($0) }
                    return nil
                }
                entries.append(copy)
            }
            cursor = variables + 1
        }
        return entries + [nil]
    }

    /// The longest `poll` wait: how late a child that exits while a grandchild holds its output is noticed.
    private static let pollSliceMS: Int64 = 50

    /// Reads both pipes until both reach end of file, or until the child has exited: then its process group is
    /// killed, what is already in the pipes is read without waiting and the rest is left. The child is not reaped.
    /// `waitable` turns false when `waitid` fails (the child was reaped elsewhere).
    private static func drain(_ output: Int32, _ errors: Int32, child pid: pid_t, deadline: Int64, outputLimit: Int,
                              errorOutputLimit: Int, waitable: inout Bool)
        throws(Failure) -> (output: [UInt8], errorOutput: [UInt8]) {
        var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        var captured: [[UInt8]] = [[], []]
        var chunk = [UInt8](repeating: 0, count: 16_384)

        /// Reads once from `fds[index]` (non-blocking): whether that read bytes or was interrupted, so that
        /// another read may find more; false at end of file (the pollfd is switched off) or with nothing there.
        func readOnce(_ index: Int) throws(Failure) -> Bool {
            let count = chunk.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { return true }
                if errno == EAGAIN || errno == EWOULDBLOCK { return false }
                throw .system("read: \(errnoText())")
            }
            if count == 0 {
                fds[index].fd = -1  // poll skips negative descriptors; the caller closes the real one
                return false
            }
            if index == 0 {
                captured[0] += chunk[..<count]
                if captured[0].count > outputLimit { throw .outputTooLarge }
            } else {
                captured[1] += chunk[..<min(count, max(errorOutputLimit - captured[1].count, 0))]
            }
            return true
        }

        while fds.contains(where: { $0.fd >= 0 }) {
            let remaining = deadline - monotonicMS()
            guard remaining > 0 else { throw .timedOut }
            if poll(&fds, nfds_t(fds.count), Int32(clamping: min(remaining, pollSliceMS))) < 0 {
                if errno != EINTR { throw .system("poll: \(errnoText())") }
            } else {
                for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                    _ = try readOnce(index)
                }
            }
            let exited: Bool
            do { exited = try hasExited(pid) } catch {
                waitable = false
                throw error
            }
            if exited {
                // Whatever else is in the group (a grandchild holding a pipe) goes now, so nothing more is
                // written; the zombie child still holds the group's ID, so it cannot be anyone else's yet.
                kill(-pid, SIGKILL)
                // Stdout stops at its limit; stderr past its limit would be dropped anyway.
                for index in fds.indices {
                    while fds[index].fd >= 0, index == 0 || captured[1].count < errorOutputLimit, try readOnce(index) {}
                }
                break
            }
        }
        return (captured[0], captured[1])
    }

    /// Waits until the child has exited, without reaping it; it normally has by the time its pipes close, but
    /// may linger past the deadline (a timeout: the caller kills the group and reaps the child). `waitable`
    /// turns false when `waitid` fails.
    private static func waitForExit(_ pid: pid_t, deadline: Int64, waitable: inout Bool) throws(Failure) {
        var pause: UInt32 = 500
        while true {
            let exited: Bool
            do { exited = try hasExited(pid) } catch {
                waitable = false
                throw error
            }
            if exited { return }
            if monotonicMS() >= deadline { throw .timedOut }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Whether the child has exited, without reaping it: as a zombie it keeps its pid, and with it the process
    /// group's ID, from being reused, so `kill(-pid, …)` cannot reach a stranger.
    private static func hasExited(_ pid: pid_t) throws(Failure) -> Bool {
        while true {
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
                return info.si_signo == SIGCHLD  // 0 when it is still running
            }
            if errno != EINTR { throw .system("waitid: \(errnoText())") }
        }
    }

    /// Kills the child's process group (it leads it, and as an unreaped zombie keeps it alive), then reaps it:
    /// its wait status, or nil when `waitpid` failed.
    @discardableResult
    private static func killGroupAndReap(_ pid: pid_t) -> Int32? {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, 0) == pid { return status }
            if errno != EINTR { return nil }
        }
    }

    private static func monotonicMS() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
