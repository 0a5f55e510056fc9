#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a program to completion with a deadline and captures its stdout and stderr: `posix_spawnp` with
/// stdin on `/dev/null`, both outputs on close-on-exec pipes read with `poll`, the child in its own process group.
///
/// On a timeout or too much stdout the whole process group gets `SIGKILL`, so grandchildren die too.
/// The child is always reaped before this returns or throws.
/// - SeeAlso: `posix_spawnp(3)`, `poll(2)`, `waitpid(2)`.
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

    /// Runs `arguments` (`arguments[0]` is looked up on `PATH` like `execvp`) with the parent's environment.
    static func run(_ arguments: [String], timeoutMS: Int, outputLimit: Int, errorOutputLimit: Int)
        throws(Failure) -> Completed {
        let deadline = monotonicMS() + Int64(max(timeoutMS, 1))
        let output = try closeOnExecPipe()
        defer { close(output[0]) }
        let errors: [Int32]
        do { errors = try closeOnExecPipe() } catch {
            close(output[1])
            throw error
        }
        defer { close(errors[0]) }
        let spawned = Result { () throws(Failure) in try spawn(arguments, output: output[1], errorOutput: errors[1]) }
        close(output[1])
        close(errors[1])
        let pid = try spawned.get()

        var captured: (output: [UInt8], errorOutput: [UInt8])
        do {
            captured = try drain(output[0], errors[0], deadline: deadline, outputLimit: outputLimit,
                                 errorOutputLimit: errorOutputLimit)
        } catch {
            killGroupAndReap(pid)
            throw error
        }
        let termination = try waitForExit(pid, deadline: deadline)
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
        if let program = dlopen(nil, RTLD_LAZY) {
            defer { dlclose(program) }
            if let symbol = dlsym(program, "pipe2") {
                guard unsafeBitCast(symbol, to: Pipe2.self)(&fds, O_CLOEXEC) == 0 else {
                    throw .system("pipe: \(errnoText())")
                }
                return fds
            }
        }
        guard pipe(&fds) == 0 else { throw .system("pipe: \(errnoText())") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return fds
    }

    private static func spawn(_ arguments: [String], output: Int32, errorOutput: Int32) throws(Failure) -> pid_t {
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
        guard posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) == 0,
              posix_spawn_file_actions_adddup2(&actions, output, 1) == 0,
              posix_spawn_file_actions_adddup2(&actions, errorOutput, 2) == 0,
              posix_spawnattr_setpgroup(&attributes, 0) == 0,
              posix_spawnattr_setsigmask(&attributes, &emptyMask) == 0,
              posix_spawnattr_setsigdefault(&attributes, &defaultSignals) == 0,
              posix_spawnattr_setflags(&attributes, Int16(flags)) == 0
        else { throw .system("posix_spawn setup failed") }

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw .cannotRun(errno: result) }
        return pid
    }

    /// Reads both pipes until both reach end of file.
    private static func drain(_ output: Int32, _ errors: Int32, deadline: Int64, outputLimit: Int,
                              errorOutputLimit: Int) throws(Failure) -> (output: [UInt8], errorOutput: [UInt8]) {
        var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        var captured: [[UInt8]] = [[], []]
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while fds.contains(where: { $0.fd >= 0 }) {
            let remaining = deadline - monotonicMS()
            guard remaining > 0 else { throw .timedOut }
            if poll(&fds, nfds_t(fds.count), Int32(clamping: remaining)) < 0 {
                if errno == EINTR { continue }
                throw .system("poll: \(errnoText())")
            }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw .system("read: \(errnoText())")
                }
                if count == 0 {
                    fds[index].fd = -1  // poll skips negative descriptors; the caller closes the real one
                } else if index == 0 {
                    captured[0] += chunk[..<count]
                    if captured[0].count > outputLimit { throw .outputTooLarge }
                } else {
                    captured[1] += chunk[..<min(count, max(errorOutputLimit - captured[1].count, 0))]
                }
            }
        }
        return (captured[0], captured[1])
    }

    /// Waits for a child whose pipes are closed; it normally exits at once, but may linger past the deadline.
    private static func waitForExit(_ pid: pid_t, deadline: Int64) throws(Failure) -> Termination {
        var pause: UInt32 = 500
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                let signal = status & 0x7f
                return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
            }
            if reaped < 0 {
                if errno == EINTR { continue }
                throw .system("waitpid: \(errnoText())")  // already reaped elsewhere: nothing left to kill
            }
            if monotonicMS() >= deadline {
                killGroupAndReap(pid)
                throw .timedOut
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Kills the child's process group (it leads it, and as an unreaped zombie keeps it alive), then reaps it.
    private static func killGroupAndReap(_ pid: pid_t) {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    private static func monotonicMS() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
