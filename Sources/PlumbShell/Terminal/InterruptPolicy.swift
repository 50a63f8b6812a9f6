import Synchronization

/// What each Ctrl-C (SIGINT) does while one foreground run is watched: the first cancels the run;
/// a later one ends the process at once, in case the pipeline does not stop, but only once the
/// first has had `grace` to take effect.
///
/// One key press can arrive as two signals: `timeout` (and `kill -INT` to a process group)
/// signals the process and then its group, and a terminal's Ctrl-C reaches every process of the
/// foreground group. Without the grace, two SIGINTs that close together ended plumb before the
/// cancelled run could print its `cancelled` line and summary (seen under CI's load in
/// `Scripts/soak`; `InterruptTests.doubleSignal` sends two in a row).
struct InterruptPolicy: Sendable {
    enum Action: Equatable, Sendable {
        /// No new Ctrl-C since the watch began.
        case none
        /// Cancel the run (idempotent: it may be asked again).
        case cancel
        /// End the process now: the run was asked to stop at least `grace` ago.
        case end
    }

    /// How long after the first Ctrl-C a further one is taken as the same press: longer than a
    /// cancelled pipeline takes to stop (plumb-bench's `sigint-latency` target is 100 ms), shorter
    /// than a person takes to decide that it did not stop and press again.
    static let graceNanoseconds: UInt64 = 300_000_000

    /// True when a second Ctrl-C may end the process (scripts); the REPL never ends on one.
    let mayEnd: Bool
    private var seen = 0
    private var firstAt: UInt64?

    init(mayEnd: Bool) { self.mayEnd = mayEnd }

    /// From when a further Ctrl-C ends the process (ns, the clock `decide` was given), once the
    /// first has come and ending is allowed; nil before.
    var endsFrom: UInt64? {
        guard mayEnd, let firstAt else { return nil }
        return firstAt + Self.graceNanoseconds
    }

    /// Decides, given how many Ctrl-Cs arrived since the watch began and the time now (ns,
    /// monotonic).
    mutating func decide(interrupts: Int, now: UInt64) -> Action {
        guard interrupts > seen else { return interrupts > 0 ? .cancel : .none }
        seen = interrupts
        guard let firstAt else {
            self.firstAt = now
            return .cancel
        }
        return mayEnd && now >= firstAt && now - firstAt >= Self.graceNanoseconds ? .end : .cancel
    }
}

/// One watch's `InterruptPolicy`, shared by the watcher's signal queue and `stop()`.
final class SharedInterruptPolicy: Sendable {
    private let policy: Mutex<InterruptPolicy>

    init(mayEnd: Bool) { policy = Mutex(InterruptPolicy(mayEnd: mayEnd)) }

    func decide(interrupts: Int, now: UInt64) -> InterruptPolicy.Action {
        policy.withLock { $0.decide(interrupts: interrupts, now: now) }
    }

    var endsFrom: UInt64? { policy.withLock { $0.endsFrom } }
}
