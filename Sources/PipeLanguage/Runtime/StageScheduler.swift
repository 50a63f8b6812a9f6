import Reactive

/// The virtual scheduler as one stage sees it: each action it schedules, when it runs, tells the
/// runtime which stage's timer that was, so a paused run can say "a timer of [1] collect byTime:
/// 200ms ran" when a step emitted nothing.
///
/// ```swift
/// let s = StageScheduler(base: scheduler, stage: "[1] delay 100ms", runtime: runtime)
/// s.schedule(after: s.now.advanced(by: .milliseconds(100))) {}
/// runtime.stepVirtualTime()
/// runtime.lastTimerStage   // "[1] delay 100ms"
/// ```
struct StageScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = VirtualTimeScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    let base: VirtualTimeScheduler
    /// `[index] text` of the stage, as a paused run's lines name it.
    let stage: String
    let runtime: Runtime

    var now: SchedulerTimeType { base.now }
    var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        base.schedule(options: options, tagged(action))
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        base.schedule(after: date, tolerance: tolerance, options: options, tagged(action))
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, tagged(action))
    }

    private func tagged(_ action: @escaping () -> Void) -> () -> Void {
        let (stage, runtime) = (stage, runtime)
        return {
            runtime.noteTimer(of: stage)
            action()
        }
    }
}

extension Runtime {
    /// Records that a stage's scheduled action is running (see `StageScheduler`).
    func noteTimer(of stage: String) {
        timerStage.withLock { $0 = stage }
    }

    /// The stage whose scheduled action ran last since `forgetTimerStage()`, nil when none did
    /// (or the action was no stage's: an `asyncMap` sleep).
    public var lastTimerStage: String? { timerStage.withLock { $0 } }

    /// Forgets the last timer's stage, before a step.
    public func forgetTimerStage() {
        timerStage.withLock { $0 = nil }
    }
}
