// The list of a subject's conduits (see SubjectState.swift for the whole picture): kept in
// subscription order, which is the order a send delivers in (as Combine does), and cheap to change
// at any size. A cancel of one of 100k subscribers used to search and shift an array (10 µs); here
// it is O(1), and a send walks the list without copying it.

/// A subject's conduits in subscription order, guarded by the subject's lock.
///
/// Removing a conduit leaves a hole at its position, which the conduit knows (`tableIndex`), so a
/// removal costs the same at any size; once holes outnumber the conduits, one pass squeezes them
/// out, keeping the order (amortised O(1) per removal). Holes at the end go at once. Storage that
/// has become much too big is given back by a send's or a completion's compaction, and all of it
/// when the table empties, never by a cancel's (see `remove`): it stays at most the peak size.
///
/// A send walks the table one conduit per lock hold, without a copy (a copy would make every
/// cancel during a send copy the whole table). It stops at the first conduit that subscribed after
/// the send began (serials rise along the table), and it notices a compaction, the only thing that
/// moves conduits, by `generation`, then finds its place again by binary search on the serials.
@usableFromInline
struct ConduitTable {
    @usableFromInline
    struct Entry {
        /// Numbers conduits in the order they subscribed.
        @usableFromInline let serial: UInt64
        /// The conduit, retained by the table; nil for a hole.
        @usableFromInline var conduit: Unmanaged<SubjectConduitBase>?

        @inlinable
        init(serial: UInt64, conduit: Unmanaged<SubjectConduitBase>?) {
            self.serial = serial
            self.conduit = conduit
        }
    }

    @usableFromInline var entries: ContiguousArray<Entry> = []
    /// The conduits in the table (entries minus holes).
    @usableFromInline var count = 0
    /// Changes whenever conduits move (a compaction).
    @usableFromInline var generation: UInt = 0
    /// The serial the next conduit to subscribe gets.
    @usableFromInline var nextSerial: UInt64 = 0

    @inlinable
    init() {}

    /// Adds `conduit` at the end, retaining it.
    @inlinable
    mutating func append(_ conduit: SubjectConduitBase) {
        conduit.tableIndex = Int32(truncatingIfNeeded: entries.count)
        entries.append(Entry(serial: nextSerial, conduit: .passRetained(conduit)))
        nextSerial &+= 1
        count += 1
    }

    /// Removes `conduit` and returns the table's reference to it, for the caller to release after
    /// the lock; nil if it is not in the table (already removed).
    @usableFromInline
    mutating func remove(_ conduit: SubjectConduitBase) -> SubjectConduitBase? {
        let index = Int(conduit.tableIndex)
        guard index >= 0, index < entries.count, let held = entries[index].conduit,
            held.toOpaque() == Unmanaged.passUnretained(conduit).toOpaque()
        else { return nil }
        entries[index].conduit = nil
        conduit.tableIndex = -1
        count -= 1
        // Holes at the end go at once: nobody's position changes.
        while let last = entries.last, last.conduit == nil { entries.removeLast() }
        if count == 0 {
            entries = []
            generation &+= 1
        } else if entries.count - count > Swift.max(count, 16) {
            // Without giving storage back: freeing a large block makes glibc's malloc consolidate
            // every small chunk freed since (after cancels in random order, tens of thousands of
            // scattered ones, each a cache miss), a third of a cancel at 100k subscribers.
            compact(shrinking: false)
        }
        return held.takeRetainedValue()
    }

    /// Removes every conduit for which `isRemoved` returns true and returns the table's references
    /// to them, in order, for the caller to release after the lock.
    @usableFromInline
    mutating func removeAll(where isRemoved: (SubjectConduitBase) -> Bool) -> ContiguousArray<SubjectConduitBase> {
        var removed: ContiguousArray<SubjectConduitBase> = []
        for index in entries.indices {
            guard let held = entries[index].conduit else { continue }
            if held._withUnsafeGuaranteedRef({ isRemoved($0) }) {
                entries[index].conduit = nil
                held._withUnsafeGuaranteedRef { $0.tableIndex = -1 }
                count -= 1
                removed.append(held.takeRetainedValue())
            }
        }
        compact()
        return removed
    }

    /// Squeezes out the holes, keeping the order, and (if `shrinking`) shrinks storage that has
    /// become much too big.
    @usableFromInline
    mutating func compact(shrinking: Bool = true) {
        var kept = 0
        for index in entries.indices {
            guard let held = entries[index].conduit else { continue }
            if kept != index {
                entries[kept] = entries[index]
                held._withUnsafeGuaranteedRef { $0.tableIndex = Int32(truncatingIfNeeded: kept) }
            }
            kept += 1
        }
        entries.removeLast(entries.count - kept)
        if shrinking, entries.capacity > 4 * Swift.max(kept, 64) {
            var smaller = ContiguousArray<Entry>()
            smaller.reserveCapacity(2 * kept)
            smaller.append(contentsOf: entries)
            entries = smaller
        }
        generation &+= 1
    }

    /// The first position whose entry's serial is at least `serial` (binary search).
    @usableFromInline
    func position(ofSerial serial: UInt64) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].serial < serial { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first conduit at or after `position` that subscribed before serial `end`, with its
    /// position and serial; nil when there is none.
    @inlinable
    func next(from position: Int, before end: UInt64) -> (position: Int, serial: UInt64, conduit: Unmanaged<SubjectConduitBase>)? {
        var index = position
        while index < entries.count {
            let entry = entries[index]
            if entry.serial >= end { return nil }
            if let conduit = entry.conduit { return (index, entry.serial, conduit) }
            index += 1
        }
        return nil
    }
}
