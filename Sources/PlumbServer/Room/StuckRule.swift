import Foundation

/// When the teacher's table marks a learner stuck, on their current exercise only (the one they
/// opened or checked last, not yet passed): more than `minutes` since they opened it, or at least
/// `failedChecks` failed checks on it. The page states the rule (`words`) above the table.
public struct StuckRule: Sendable, Equatable {
    /// Minutes on one exercise past which a learner is stuck.
    public var minutes: Double
    /// Failed checks on one exercise from which a learner is stuck.
    public var failedChecks: Int

    public init(minutes: Double = 10, failedChecks: Int = 3) {
        self.minutes = minutes
        self.failedChecks = failedChecks
    }

    /// The rule in words, as the teacher's page and Docs/Workshop.md state it.
    public var words: String {
        "stuck: more than \(Self.number(minutes)) min on the current exercise, or \(failedChecks) failed checks on it"
    }

    /// Why a learner is stuck on an exercise whose progress is `progress`, at `now`; nil when they
    /// are not (or have passed it).
    func reason(_ progress: ExerciseProgress, now: Double) -> String? {
        guard !progress.passed else { return nil }
        // Not passed: every check on it failed.
        if progress.checks >= failedChecks { return "\(progress.checks) failed checks" }
        guard let opened = progress.opened else { return nil }
        let seconds = now - opened
        if seconds > minutes * 60 { return "\(Int(seconds / 60)) min" }
        return nil
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }
}
