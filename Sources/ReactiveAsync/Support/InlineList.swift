/// A list that keeps its first two elements inline: what a state machine hands back to resume
/// (most often one or two continuations, one per base of a combiner) without allocating an array
/// per element for it.
///
/// ```swift
/// var resumed = InlineList<Int>()
/// resumed.append(1)
/// for value in resumed { print(value) }
/// ```
struct InlineList<Element>: Sequence {
    private var first: Element?
    private var second: Element?
    private var rest: [Element] = []

    init() {}

    /// Whether the list holds nothing.
    var isEmpty: Bool { first == nil }

    /// Adds `element` at the end.
    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else if second == nil {
            second = element
        } else {
            rest.append(element)
        }
    }

    /// Iterates the elements in the order they were appended.
    func makeIterator() -> Iterator { Iterator(first: first, second: second, rest: rest.makeIterator()) }

    /// The iterator of an ``InlineList``.
    struct Iterator: IteratorProtocol {
        fileprivate var first: Element?
        fileprivate var second: Element?
        fileprivate var rest: IndexingIterator<[Element]>

        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            if let element = second {
                second = nil
                return element
            }
            return rest.next()
        }
    }
}

extension InlineList: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: Element...) {
        for element in elements { append(element) }
    }
}

extension InlineList: Equatable where Element: Equatable {
    static func == (lhs: InlineList, rhs: InlineList) -> Bool { lhs.elementsEqual(rhs) }
}

extension InlineList: Sendable where Element: Sendable {}
