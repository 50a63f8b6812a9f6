/// One `let` binding of a session, as data: what `:bindings` lists and an editor shows.
///
/// ```swift
/// _ = session.execute(session.compile("let ticks = interval 100ms | take 5", file: "<repl>").statements[0])
/// let ticks = session.bindingSummaries()[0]
/// ticks.name                      // "ticks"
/// ticks.text                      // "interval 100ms | take 5"
/// ticks.type.description          // "AnyPublisher<Int, Never>"
/// ticks.nameRange.location        // <repl>:1:5
/// ```
public struct BindingSummary: Sendable, Hashable {
    /// The bound name.
    public var name: String
    /// The pipeline as written after `=`.
    public var text: String
    /// The pipeline's type as the static pass infers it.
    public var type: PublisherType
    /// A `subject` or `currentValue`: it accepts `send`, `finish` and `fail`.
    public var isSubject: Bool
    /// A `channel`: it accepts `send` (which waits for a reader) and `finish`.
    public var isChannel = false
    /// Where the name is in its `let` (offsets in the text of the `compile` that made it).
    public var nameRange: SourceRange
}

extension Session {
    /// Each binding, in the order the names were first bound (a rebinding keeps its place and
    /// shows its latest pipeline).
    public func bindingSummaries() -> [BindingSummary] {
        bindingOrder.compactMap { name in
            bindings[name].map {
                var summary = BindingSummary(
                    name: name, text: $0.info.text, type: PublisherType($0.info.shape), isSubject: $0.info.isSubject,
                    nameRange: $0.info.name)
                summary.isChannel = $0.info.isChannel
                return summary
            }
        }
    }
}
