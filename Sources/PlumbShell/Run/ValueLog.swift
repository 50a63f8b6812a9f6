import PipeLanguage
import Synchronization

/// The kept values of one run with their times: appended without a lock by the one thread that
/// delivers the run's events (the language serialises them, see `EventSerializer`), taken out by
/// readers under the recorder's lock.
///
/// An entry is written once and then published by raising `published` with a releasing store (a
/// plain store on x86, where a lock's acquire and release are two locked instructions, about a
/// fifth of a printed value line). A reader that acquires `published` finds every entry below it
/// complete, and the writer never touches those again. Entries sit in chunks that never move, so
/// the writer needs nothing from the readers; readers move entries out (each exactly once, in
/// order) and free a chunk once they have moved all of it.
final class ValueLog: @unchecked Sendable {  // one writer appends past `published`; readers touch only entries below it, serialised by the recorder's lock
    typealias Entry = (time: Int64, value: Value)

    /// Entries per chunk: 32 KiB or so, a few dozen allocations for a full log.
    static let chunkSize = 1024

    /// At most this many entries are kept; later appends are refused.
    let capacity: Int
    private let directory: UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>
    private let chunkCount: Int
    /// Entries written and complete; raised only by the writer.
    private let published = Atomic<Int>(0)
    /// Entries moved out by readers; only under the recorder's lock.
    private var taken = 0

    init(capacity: Int) {
        self.capacity = capacity
        chunkCount = Swift.max(1, (capacity + Self.chunkSize - 1) / Self.chunkSize)
        directory = .allocate(capacity: chunkCount)
        directory.initialize(repeating: nil, count: chunkCount)
    }

    deinit {
        let end = published.load(ordering: .acquiring)
        var index = taken
        while index < end {
            let chunk = directory[index / Self.chunkSize].unsafelyUnwrapped
            let upTo = Swift.min(end, (index / Self.chunkSize + 1) * Self.chunkSize)
            (chunk + index % Self.chunkSize).deinitialize(count: upTo - index)
            index = upTo
        }
        for chunk in 0..<chunkCount { directory[chunk]?.deallocate() }
        directory.deallocate()
    }

    /// Appends `value` at `time`; false when the log is full. Only the writer calls this.
    @inline(__always)
    func append(_ value: Value, at time: Int64) -> Bool {
        let index = published.load(ordering: .relaxed)
        guard index < capacity else { return false }
        let offset = index % Self.chunkSize
        if offset == 0 { directory[index / Self.chunkSize] = .allocate(capacity: Self.chunkSize) }
        (directory[index / Self.chunkSize].unsafelyUnwrapped + offset).initialize(to: (time, value))
        published.store(index + 1, ordering: .releasing)
        return true
    }

    /// How many entries were published; any thread.
    var count: Int { published.load(ordering: .acquiring) }

    /// Moves every published entry not yet taken to the end of `values` and `timeline`, freeing
    /// the chunks read to their end. Only under the recorder's lock.
    func take(into values: inout [Value], timeline: inout [(time: Int64, token: MarbleNotation.Token)]) {
        let end = published.load(ordering: .acquiring)
        // No `reserveCapacity`: it grows to the exact size, and a reader that takes a few values
        // at a time (the live diagram) would copy the arrays on every take; appends grow them
        // geometrically.
        while taken < end {
            let chunkIndex = taken / Self.chunkSize
            let chunk = directory[chunkIndex].unsafelyUnwrapped
            let chunkEnd = (chunkIndex + 1) * Self.chunkSize
            let upTo = Swift.min(end, chunkEnd)
            for index in taken..<upTo {
                let entry = (chunk + index % Self.chunkSize).move()
                values.append(entry.value)
                timeline.append((entry.time, .value(entry.value)))
            }
            taken = upTo
            if upTo == chunkEnd {
                // The writer has moved past this chunk for good (its next entry is in the next one).
                chunk.deallocate()
                directory[chunkIndex] = nil
            }
        }
    }
}
