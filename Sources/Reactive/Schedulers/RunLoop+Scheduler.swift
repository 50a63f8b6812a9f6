import Foundation

extension RunLoop {
    /// Options for actions scheduled on a run loop: none, as in Combine.
    public struct SchedulerOptions: Sendable {}
}
