/// Carries a noncopyable value (a channel's source, the channel) into a task: an escaping closure
/// cannot capture and consume one itself.
final class Owned<Value: ~Copyable>: @unchecked Sendable {  // @unchecked: handed to one task, which takes the value once.
    private var value: Value?

    init(_ value: consuming Value) { self.value = .some(value) }

    /// The value; call once.
    func take() -> Value {
        guard let value = value.take() else { fatalError("Owned.take() called twice") }
        return value
    }
}
