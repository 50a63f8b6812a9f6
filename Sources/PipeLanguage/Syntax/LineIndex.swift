/// Where each line of a UTF-8 text starts, and which line holds an offset: one index shared by
/// the compiler's locations (`SourceText`) and the language server's positions.
public struct LineIndex: Sendable {
    /// Offsets where each line starts; the first is 0.
    public let starts: [Int]

    /// Indexes `bytes`, a line ending after each `\n`.
    public init(_ bytes: [UInt8]) {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        self.starts = starts
    }

    /// The 0-based line holding `offset` (the last line for an offset past the end).
    public func line(of offset: Int) -> Int {
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
