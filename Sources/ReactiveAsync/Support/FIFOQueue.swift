/// A first-in first-out queue with amortised O(1) `append` and `popFirst`, for the operators'
/// state machines (the toolchain has no `Deque`).
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    init() {}

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }
    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) { storage.append(element) }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns the first element that matches, keeping the others in order.
    mutating func remove(firstWhere matches: (Element) -> Bool) -> Element? {
        guard let index = storage[head...].firstIndex(where: matches) else { return nil }
        return storage.remove(at: index)
    }

    /// Removes every element, oldest first.
    mutating func removeAll() -> [Element] {
        let all = Array(storage[head...])
        storage.removeAll()
        head = 0
        return all
    }
}
