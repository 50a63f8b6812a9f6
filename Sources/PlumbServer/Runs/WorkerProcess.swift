import CMicroHTTPD
import Foundation
import PlumbJSON

#if canImport(Glibc)
import Glibc
#endif

/// How a learner's code is run: in a child `plumb` (this executable, `PLUMB_SERVE_WORKER=run` or
/// `check` in its environment, the text on its standard input), so a crash, a stall or a
/// runaway run costs that run alone and the server can always end it.
public struct WorkerCommand: Sendable {
    public var executable: String
    public var arguments: [String]
    public init(executable: String = "/proc/self/exe", arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }
}

/// Hard limits on one run or check, wherever it runs: a learner's run or check in the room, and
/// an exercise's check under `plumb learn` (`ChildCheck`). One type, so both stop at the same
/// limits with the same words (`message(_:)`).
public struct RunLimits: Sendable {
    /// Real time, from the child's start to its end.
    public var seconds: Double = 5
    /// Events forwarded; past this the child is ended.
    public var maxEvents = 2_000
    /// Bytes of events, the diagram and the verdict the child may write.
    public var maxBytes = 2 << 20
    /// Bytes of the diagram's own signals (`lane` lines, one per value per stage), which the
    /// child writes beside its events and the server drops unread: bounded apart, so a run of a
    /// few large values ends at the memory limit, not here.
    public var maxLaneBytes = 64 << 20
    /// The child's data segment (`RLIMIT_DATA`: heap and private anonymous mappings, not the
    /// program's code or shared libraries), set by the server with `prlimit` before the child
    /// reads its text. Each thread's whole stack is such a mapping, so the child bounds its
    /// threads' stacks first (`boundThreadStacks()`): a workshop check then needs about 12 MB
    /// of it, whether its run starts 5 threads or 7. Past the limit an allocation fails and the
    /// Swift runtime ends the child, which the server reports as the memory limit.
    public var memoryBytes = 512 << 20
    public init() {}

    /// Which limit stopped a run.
    public enum Stop: Sendable, Equatable {
        /// `seconds` of real time.
        case time
        /// `maxEvents` events, or `maxBytes` of output.
        case output
        /// `memoryBytes` of data memory.
        case memory
    }

    /// Why a run was stopped, in the learner's words: the same wherever it ran.
    public func message(_ stop: Stop) -> String {
        switch stop {
        case .time:
            let time = seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
            return "stopped after \(time) of real time, the limit for each run and check: "
                + "does a source never end, or tick too fast (interval 1ns)? take, prefix or timeout end it"
        case .output:
            return "stopped after \(maxEvents) events (or \(maxBytes / 1024) KiB): the room caps each run's output"
        case .memory:
            return
                "stopped: the run needed more than \(memoryBytes >> 20) MiB of memory, the room's limit for each run (does it collect or build up values without end?)"
        }
    }

    /// The stack of each thread a child starts (`boundThreadStacks()`). glibc's default is
    /// `RLIMIT_STACK`, 8 MiB, and all of it counts toward `RLIMIT_DATA`: with 8 MiB stacks a
    /// check's data was 40 MB with 5 threads and 48 MB with 6, so whether Dispatch started one
    /// more thread decided whether it fit a 48 MiB limit. 1 MiB is 4 times what the deepest
    /// text the parser accepts needs on a thread (64 nested merges, 1,000 stages ran on 256 KiB),
    /// and twice a Darwin secondary thread's 512 KiB.
    public static let threadStackBytes = 1 << 20

    /// In a child about to run a learner's text: makes every thread it starts from now on
    /// (Dispatch's, the cooperative pool's, `Thread`'s) take `threadStackBytes` of stack, so its
    /// data memory depends on what the text allocates, not on how many threads happen to run it.
    /// Call it first, before anything starts a thread. The main thread's stack (the parser's and
    /// checker's, on `RLIMIT_STACK`) does not count toward `RLIMIT_DATA` and is left alone.
    public static func boundThreadStacks() {
        _ = plumb_set_default_thread_stack(threadStackBytes)
    }

    /// Sets a child's data memory limit (`RLIMIT_DATA`, with `prlimit`), soft and hard, to
    /// `memoryBytes`. Call it before the child reads its text, or as soon as it has started.
    /// - Returns: false if the limit could not be set (the child is gone).
    @discardableResult
    public func limitMemory(of pid: pid_t) -> Bool {
        plumb_limit_data(pid, UInt64(memoryBytes)) == 0
    }

    /// Whether a child ended by `signal` ran out of the memory it was allowed: past
    /// `RLIMIT_DATA` an allocation fails and the Swift runtime ends the child (SIGABRT or
    /// SIGTRAP, mostly without a word), told by what it said on its standard error or by its peak
    /// resident size (a plain run stays near 30 MiB, code and libraries included).
    public func ranOutOfMemory(saidSo: Bool, peakBytes: Int) -> Bool {
        saidSo || peakBytes >= memoryBytes / 2
    }

    /// Whether a child's standard error says an allocation failed (Swift's runtime: "failed to
    /// allocate N bytes"), for `ranOutOfMemory(saidSo:peakBytes:)`.
    public static func saysOutOfMemory(_ text: String) -> Bool {
        text.contains("failed to allocate") || text.contains("Could not allocate") || text.contains("out of memory")
    }
}

/// How a child ended.
enum WorkerOutcome: Sendable, Equatable {
    /// It wrote its result line.
    case finished(JSON)
    case timedOut
    case outputLimit
    /// It ran out of the memory `RunLimits.memoryBytes` allows.
    case memoryLimit
    /// It ended without a result: the reason in words.
    case crashed(String)
}

enum WorkerProcess {
    /// Runs one child for `kind` (`run`, `check`) on `text`, handing each event line to `onEvent`
    /// (false: stop the run, the client is gone).
    static func run(
        kind: String, text: String, name: String, command: WorkerCommand, limits: RunLimits, diagramWidth: Int? = nil,
        onEvent: (JSON) -> Bool
    ) -> WorkerOutcome {
        var environment = ProcessInfo.processInfo.environment
        environment["PLUMB_SERVE_DIAGRAM_WIDTH"] = diagramWidth.map(String.init)
        environment["PLUMB_SERVE_WORKER"] = kind
        environment["PLUMB_SERVE_NAME"] = name
        environment["SWIFT_BACKTRACE"] = "enable=no"
        guard let child = Child.spawn(command, environment: environment) else {
            return .crashed("the run could not start")
        }
        let pid = child.pid
        // Before it reads its text, so no learner's code runs without the limit.
        limits.limitMemory(of: pid)
        // The child is the leader of its own process group: ending the group ends anything it
        // started too (nothing then keeps the output open).
        let endGroup = { _ = kill(-pid, SIGKILL) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limits.seconds * 1e9)
        var timedOut = false
        child.write(Array(text.utf8))

        let fd = child.output
        // The child's last words on its standard error (the runtime's "failed to allocate").
        var errors = ChildStandardError(fd: child.errors, keep: .tail(2048))
        var pending: [UInt8] = []
        var total = 0
        var shown = 0
        var events = 0
        var result: JSON?
        var overLimit = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        reading: while true {
            // The deadline is kept here, not by a timer: the output stays open as long as anything
            // the child started holds it, so the reader itself must stop waiting.
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline {
                timedOut = true
                endGroup()
                break
            }
            var ready = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: errors.fd, events: Int16(POLLIN), revents: 0)]
            let waited = poll(&ready, errors.isOpen ? 2 : 1, Int32(min(100, (deadline - now) / 1_000_000 + 1)))
            if waited == 0 || (waited < 0 && errno == EINTR) { continue }
            if errors.isOpen, ready[1].revents != 0 { errors.drain() }
            if ready[0].revents == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            total += n
            if total > limits.maxBytes + limits.maxLaneBytes {
                overLimit = true
                break
            }
            pending.append(contentsOf: buffer[0..<n])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                // The diagram's own signals (`lane`) are in its SVG already: dropped unread.
                if Self.isLane(line) { continue }
                shown += line.count + 1
                if shown > limits.maxBytes {
                    overLimit = true
                    break reading
                }
                guard let value = JSON.decode(line), case .object = value else { continue }
                if let final = value["result"] {
                    result = final
                    continue
                }
                events += 1
                if events > limits.maxEvents {
                    overLimit = true
                    break reading
                }
                if !onEvent(value) {
                    endGroup()
                    break reading
                }
            }
        }
        if overLimit { endGroup() }
        close(fd)
        let (status, peakBytes) = child.wait()
        // What is left once the child is gone (without blocking: anything it started is ended).
        errors.drain()
        close(errors.fd)
        // Whatever the child left behind goes with it.
        endGroup()
        if timedOut { return .timedOut }
        if overLimit { return .outputLimit }
        if let result { return .finished(result) }
        let signal = status & 0x7f
        if signal != 0 && signal != 0x7f {
            if limits.ranOutOfMemory(saidSo: errors.saysOutOfMemory, peakBytes: peakBytes) { return .memoryLimit }
            return .crashed("the run was ended by signal \(signal)")
        }
        let code = (status >> 8) & 0xff
        return .crashed("the run ended (status \(code)) without a result")
    }

    /// Whether a line is a diagram signal (`{"job":0,"t":0,"event":"lane",…}`), told by its
    /// first bytes without reading a value that may be megabytes long.
    static func isLane(_ line: [UInt8]) -> Bool {
        line.prefix(80).firstRange(of: Array(#""event":"lane""#.utf8)) != nil
    }
}

/// A child started with `posix_spawn` in a process group of its own, its standard input, output
/// and error on pipes.
private struct Child {
    let pid: pid_t
    let input: Int32
    let output: Int32
    let errors: Int32

    static func spawn(_ command: WorkerCommand, environment: [String: String]) -> Child? {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        // Close-on-exec at once (glibc's pipe2 is not visible to Swift): another thread's child
        // started in between could hold a copy for at most its own run, which the deadline bounds.
        guard pipe(&inPipe) == 0 else { return nil }
        guard pipe(&outPipe) == 0 else {
            close(inPipe[0])
            close(inPipe[1])
            return nil
        }
        guard pipe(&errPipe) == 0 else {
            for fd in inPipe + outPipe { close(fd) }
            return nil
        }
        for fd in inPipe + outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([command.executable] + command.arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command.executable, &actions, &attributes, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            close(errPipe[0])
            return nil
        }
        return Child(pid: pid, input: inPipe[1], output: outPipe[0], errors: errPipe[0])
    }

    /// Writes the text and closes the input. Never blocks for long: a child that does not read
    /// gets what fits, within 5 s (the process ignores SIGPIPE, so a child that is gone is an
    /// error here, not a signal).
    func write(_ bytes: [UInt8]) {
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        var rest = bytes[...]
        var waits = 0
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if written >= 0 {
                rest = rest.dropFirst(written)
                continue
            }
            if errno == EINTR { continue }
            guard errno == EAGAIN, waits < 50 else { break }
            waits += 1
            var ready = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, 100)
        }
        close(input)
    }

    /// Waits for the child's end: its wait status, and its peak resident size in bytes.
    func wait() -> (status: Int32, peakBytes: Int) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { return (0, 0) }
        }
        return (status, Int(usage.ru_maxrss) * 1024)
    }
}
