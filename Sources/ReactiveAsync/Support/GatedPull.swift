/// The plumbing `debounce` and `chunks(ofCount:or:)` share: a base pulled by the operator's own
/// task only while a `next()` waits (the gate), and a consumer whose `next()` a state machine
/// answers with one of these actions. Each operator keeps its rules in its state machine; this is
/// only how the storage carries out what the machine decided, after the lock is released.

/// What a gated operator's state machine answers to a `next()`.
enum GatedNextAction<Gate, Output> {
    /// The first `next()`: start the operator's task.
    case startTask
    /// Nothing to hand out yet and the base loop is already pulling: wait.
    case suspend
    /// Let the waiting base loop pull.
    case resumeGate(Gate)
    /// Hand this out now (nil: the end).
    case deliver(Output?)
    /// Throw this now.
    case fail(any Error)
}

/// What a gated operator's state machine answers to its base loop before a pull.
enum GateAction {
    /// Pull now.
    case proceed
    /// Wait at the gate until a `next()` opens it.
    case suspend
    /// The iteration is over: stop.
    case stop
}

/// The continuation a base loop waits on at the gate: true pull, false stop.
typealias PullGate = UnsafeContinuation<Bool, Never>

extension GatedNextAction where Gate == PullGate, Output: Sendable {
    /// Carries out the action for `downstream`, starting the task through `startTask`.
    ///
    /// - Parameters:
    ///   - downstream: The consumer's suspended `next()`.
    ///   - startTask: Starts the operator's task (called outside the lock).
    func perform(_ downstream: UnsafeContinuation<Output?, any Error>, startTask: () -> Void) {
        switch self {
        case .startTask: startTask()
        case .suspend: break
        case .resumeGate(let gate): gate.resume(returning: true)
        case .deliver(let output): downstream.resume(returning: output)
        case .fail(let error): downstream.resume(throwing: error)
        }
    }
}

/// Waits at the gate: `decide` (the state machine's answer, taken under the storage's lock) keeps
/// the gate when it says `.suspend`.
///
/// - Parameter decide: Asks the state machine whether the base loop may pull.
/// - Returns: Whether to pull (false: stop iterating).
func passGate(_ decide: (PullGate) -> GateAction) async -> Bool {
    await withUnsafeContinuation { (gate: PullGate) in
        switch decide(gate) {
        case .proceed: gate.resume(returning: true)
        case .suspend: break
        case .stop: gate.resume(returning: false)
        }
    }
}

/// Starts the operator's one task (through `TaskSpawning`), running its two loops as children of
/// one discarding group, so cancelling the task ends both.
///
/// - Parameters:
///   - first: The base loop.
///   - second: The other loop (the clock, the signal).
/// - Returns: The task.
func spawnLoops(_ first: @escaping @Sendable () async -> Void, _ second: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    TaskSpawning.spawnTask {
        await withDiscardingTaskGroup { group in
            group.addTask { await first() }
            group.addTask { await second() }
        }
    }
}
