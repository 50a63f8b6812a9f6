import CMicroHTTPD
import Foundation
import PlumbJSON
import Synchronization

/// The body of a streamed response: a producer appends chunks (newline-delimited JSON lines, or
/// server-sent events) and closes; libmicrohttpd takes them as the client reads.
///
/// No thread waits for a chunk. When libmicrohttpd asks for more and none is there, the stream
/// suspends its connection (`MHD_suspend_connection`, from the content reader, as the manual
/// requires) and the next `append` or `close` resumes it. Both happen under the stream's lock, so
/// a resume can never come before its suspend (libmicrohttpd leaves that undefined).
///
/// A producer that outpaces a slow reader is bounded: past `capacity` bytes waiting, `append`
/// drops the chunk and marks the stream `overflowed` (the producer then stops).
public final class ResponseStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        /// How much of the first chunk was already taken.
        var offset = 0
        var pending = 0
        var closed = false
        var overflowed = false
        var abandoned = false
        var connection: ConnectionHandle?
        var suspended = false
    }

    private let state = Mutex(State())
    private let capacity: Int

    public init(capacity: Int = 4 << 20) {
        self.capacity = capacity
    }

    /// Adds a chunk; false when the reader went away, the stream was closed, or it is full.
    @discardableResult
    public func append(_ bytes: [UInt8]) -> Bool {
        state.withLock { s -> Bool in
            if s.closed || s.abandoned { return false }
            if s.pending + bytes.count > capacity {
                s.overflowed = true
                return false
            }
            s.chunks.append(bytes)
            s.pending += bytes.count
            Self.wake(&s)
            return true
        }
    }

    /// Adds a JSON value and a newline.
    @discardableResult
    public func append(line value: JSON) -> Bool { append(Array((value.encoded + "\n").utf8)) }

    /// No more chunks: the body ends once the reader has taken the rest.
    public func close() {
        state.withLock { s in
            s.closed = true
            Self.wake(&s)
        }
    }

    /// True once the client went away, so a producer can stop early.
    public var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// True once `append` dropped a chunk for want of room.
    public var isOverflowed: Bool { state.withLock { $0.overflowed } }

    /// True once closed or abandoned: nothing more will be sent.
    public var isFinished: Bool { state.withLock { $0.closed || $0.abandoned } }

    /// Called (with the lock held) after a change a parked reader must see.
    private static func wake(_ s: inout State) {
        guard s.suspended, let connection = s.connection else { return }
        s.suspended = false
        MHD_resume_connection(connection.pointer)
    }

    /// The connection the body is sent on, set before libmicrohttpd first reads.
    func attach(_ connection: OpaquePointer) {
        state.withLock { $0.connection = ConnectionHandle(pointer: connection) }
    }

    /// The reader is gone (libmicrohttpd freed the response): the producer's next `append` says so.
    func abandon() {
        state.withLock { s in
            s.abandoned = true
            s.suspended = false
            s.connection = nil
        }
    }

    /// libmicrohttpd's content reader: copies up to `max` bytes into `buffer`. Returns the count;
    /// 0 after suspending the connection until there is more; -1 at the end of the body.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { s -> Int in
            var written = 0
            while written < max, let first = s.chunks.first {
                let take = min(max - written, first.count - s.offset)
                first.withUnsafeBytes { raw in
                    UnsafeMutableRawPointer(buffer + written).copyMemory(from: raw.baseAddress! + s.offset, byteCount: take)
                }
                written += take
                s.offset += take
                if s.offset == first.count {
                    s.chunks.removeFirst()
                    s.offset = 0
                }
            }
            s.pending -= written
            if written > 0 { return written }
            if s.closed { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            guard let connection = s.connection else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
            s.suspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }
}

/// A libmicrohttpd connection, kept by the stream that is its body.
struct ConnectionHandle: @unchecked Sendable {  // a C handle; libmicrohttpd allows resume from any thread
    let pointer: OpaquePointer
}
