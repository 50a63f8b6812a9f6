/// A stretch of a compiled text, as tools need it: where it starts for people (`location`) and
/// for programs (`offset`), and how long it is.
///
/// ```swift
/// let types = try session.types(of: "just 1 | map { $0 + 1 }").get()
/// types.stages[1].range.location.column   // 10
/// types.stages[1].range.offset            // 9
/// types.stages[1].range.length            // 14 (UTF-8 bytes of `map { $0 + 1 }`)
/// ```
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// Where the range starts: file, 1-based line, 1-based column in Unicode scalars.
    public var location: SourceLocation
    /// UTF-8 offset of the start in the text given to the `compile` that made it.
    public var offset: Int
    /// How many UTF-8 bytes it spans.
    public var length: Int

    /// Creates a range.
    public init(location: SourceLocation, offset: Int, length: Int) {
        self.location = location
        self.offset = offset
        self.length = length
    }

    /// `file:line:col`, where the range starts.
    public var description: String { location.description }
}

extension SourceText {
    /// The range of `span` in this text.
    func range(_ span: Span) -> SourceRange {
        let offset = max(0, min(span.offset, bytes.count))
        return SourceRange(location: location(of: offset), offset: offset, length: max(0, min(span.length, bytes.count - offset)))
    }
}
