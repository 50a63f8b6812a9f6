import Foundation

/// The body of a streamed response: a producer appends lines (newline-delimited JSON) and
/// closes; libmicrohttpd's connection thread takes them as it sends, waiting while none is there.
///
/// A producer that outpaces a slow reader is bounded: past `capacity` bytes waiting, `append`
/// drops the chunk and marks the stream `overflowed` (the producer then stops its run).
public final class ResponseStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var pending = 0
        var closed = false
        var overflowed = false
        var abandoned = false
    }

    private let state = LockedState(State())
    private let condition = NSCondition()
    private let capacity: Int

    public init(capacity: Int = 4 << 20) {
        self.capacity = capacity
    }

    /// Adds a chunk; false when the reader went away or the stream is full.
    @discardableResult
    public func append(_ bytes: [UInt8]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let ok = state.withLock { s -> Bool in
            if s.closed || s.abandoned { return false }
            if s.pending + bytes.count > capacity {
                s.overflowed = true
                return false
            }
            s.chunks.append(bytes)
            s.pending += bytes.count
            return true
        }
        condition.broadcast()
        return ok
    }

    /// Adds a JSON value and a newline.
    @discardableResult
    public func append(line value: JSON) -> Bool { append(Array((value.encoded + "\n").utf8)) }

    /// No more chunks: the reader ends the body once it has taken the rest.
    public func close() {
        condition.lock()
        state.withLock { $0.closed = true }
        condition.broadcast()
        condition.unlock()
    }

    /// The reader is gone (the connection closed): the producer's next `append` says so.
    func abandon() {
        condition.lock()
        state.withLock { $0.abandoned = true }
        condition.broadcast()
        condition.unlock()
    }

    /// True once the client went away, so a producer can stop early.
    public var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Up to `max` bytes, waiting for them; nil at the end of the body.
    func next(max: Int) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let taken = state.withLock { s -> [UInt8]?? in
                if !s.chunks.isEmpty {
                    var first = s.chunks.removeFirst()
                    if first.count > max {
                        s.chunks.insert(Array(first[max...]), at: 0)
                        first = Array(first[..<max])
                    }
                    s.pending -= first.count
                    return .some(first)
                }
                return s.closed ? .some(nil) : nil
            }
            if let taken { return taken }
            condition.wait()
        }
    }
}
