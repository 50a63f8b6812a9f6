/// A publisher's Combine type as data: its `Output` in Swift spelling and whether its `Failure`
/// is `Error` (else `Never`).
///
/// ```swift
/// let type = PublisherType(output: "[Int]", canFail: false)
/// type.failure       // "Never"
/// type.description   // "AnyPublisher<[Int], Never>"
/// ```
public struct PublisherType: Sendable, Hashable, CustomStringConvertible {
    /// The `Output` in Swift spelling: `Int`, `[String]`, `(Int, String)`.
    public var output: String
    /// Whether the `Failure` is `Error` (else `Never`).
    public var canFail: Bool

    /// Creates a type.
    public init(output: String, canFail: Bool) {
        self.output = output
        self.canFail = canFail
    }

    /// `Error` or `Never`.
    public var failure: String { canFail ? "Error" : "Never" }

    /// On the async side (after `values` or `stream`): the async sequence's type name
    /// (`AsyncDebounceSequence`); nil for a publisher.
    public var asyncSequence: String? = nil

    /// The type-erased publisher's Swift name, `AnyPublisher<Int, Never>`; on the async side the
    /// sequence's, `AsyncDebounceSequence<…>: AsyncSequence<Int, any Error>`.
    public var description: String {
        guard let asyncSequence else { return "AnyPublisher<\(output), \(failure)>" }
        return "\(asyncSequence)<…>: AsyncSequence<\(output), \(canFail ? "any Error" : "Never")>"
    }
}

extension PublisherType {
    /// The static pass's type for a shape.
    init(_ shape: Shape) {
        self.init(output: shape.kind.swiftName, canFail: shape.canFail)
    }
}
