import Reactive

/// One signal a recording subscriber saw, in a form tests can compare.
public enum RecordedEvent<Value, Failure: Error>: CustomStringConvertible {
    case subscription
    case value(Value)
    case finished
    case failure(Failure)

    public var description: String {
        switch self {
        case .subscription: return "subscription"
        case .value(let v): return "value(\(v))"
        case .finished: return "finished"
        case .failure(let e): return "failure(\(e))"
        }
    }
}

extension RecordedEvent: Equatable where Value: Equatable, Failure: Equatable {}
extension RecordedEvent: Sendable where Value: Sendable, Failure: Sendable {}

/// A simple equatable error for tests.
public struct TestError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String = "boom") { self.message = message }
    public var description: String { message }
}
