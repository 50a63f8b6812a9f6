// Combine's specialisations of operators on `Publishers.Sequence`: the elements are at hand, so
// these compute the whole result when the operator is applied (not when subscribed, and once
// however many subscribe) and return the simplest publisher of it: another `Publishers.Sequence`,
// a `Result.Publisher`, an `Optional.Publisher`, a `Just` or an `Empty`, with the return types
// Apple's Combine reference declares for each. `(1...n).publisher.count()` is a `Just` computed in
// constant time, and `[1, 2, 3].publisher.map(f)` calls `f` three times before it returns.
//
// As in Combine, an endless sequence (`(1...).publisher`) never returns from an eager `map`,
// `filter` or `count`; `prefix(_:)`, `dropFirst(_:)` and `drop(while:)` stay lazy (they wrap the
// sequence), and generic code over `some Publisher` still gets the streaming operators.
// Counts and indices out of range publish nothing or the part in range, never trap (C07).

extension Publishers.Sequence where Failure == Never {
    /// The least element by `areInIncreasingOrder`, computed now; nothing for an empty sequence.
    /// - Parameter areInIncreasingOrder: Whether its first argument orders before its second.
    /// - Returns: An `Optional.Publisher` of the least element.
    @inlinable
    public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The greatest element by `areInIncreasingOrder`, computed now; nothing for an empty sequence.
    /// - Parameter areInIncreasingOrder: Whether its first argument orders before its second.
    /// - Returns: An `Optional.Publisher` of the greatest element.
    @inlinable
    public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// The first element that satisfies `predicate`, found now.
    ///
    /// ```swift
    /// [1, 4, 6].publisher.first { $0 > 3 }   // Optional.Publisher(4)
    /// ```
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the element, empty when none satisfies it.
    @inlinable
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// Whether every element satisfies `predicate`, computed now.
    /// - Parameter predicate: The test.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
    }

    /// Whether every element satisfies a throwing `predicate`, computed now.
    /// - Parameter predicate: The test, which may throw.
    /// - Returns: A `Result.Publisher` of the answer or of the thrown error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// All the elements in one array.
    /// - Returns: A `Result.Publisher` of the array.
    @inlinable
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        Result<[Elements.Element], Failure>.Publisher(Array(sequence))
    }

    /// The non-`nil` results of `transform`, computed now.
    /// - Parameter transform: The transform; a `nil` result is left out.
    /// - Returns: A `Publishers.Sequence` of the results.
    @inlinable
    public func compactMap<T>(_ transform: (Elements.Element) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Whether some element satisfies `predicate`, computed now.
    /// - Parameter predicate: The test.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
    }

    /// Whether some element satisfies a throwing `predicate`, computed now.
    /// - Parameter predicate: The test, which may throw.
    /// - Returns: A `Result.Publisher` of the answer or of the thrown error.
    @inlinable
    public func tryContains(where predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// The elements after the leading ones that satisfy `predicate`.
    /// - Parameter predicate: The test for the elements to leave out.
    /// - Returns: A `Publishers.Sequence` of a `DropWhileSequence`.
    @inlinable
    public func drop(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// The elements after the first `count` (a negative count drops nothing).
    /// - Parameter count: How many elements to leave out.
    /// - Returns: A `Publishers.Sequence` of a `DropFirstSequence`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: DropFirstSequence(sequence, dropping: Swift.max(0, count)))
    }

    /// The elements that satisfy `isIncluded`, computed now.
    ///
    /// ```swift
    /// let evens: Publishers.Sequence<[Int], Never> = (1...6).publisher.filter { $0 % 2 == 0 }
    /// ```
    /// - Parameter isIncluded: The test for the elements to keep.
    /// - Returns: A `Publishers.Sequence` of the kept elements.
    @inlinable
    public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Nothing but the completion: an `Empty` (the sequence is not read).
    /// - Returns: `Empty()`.
    @inlinable
    public func ignoreOutput() -> Empty<Elements.Element, Failure> { Empty<Elements.Element, Failure>() }

    /// Each element transformed, computed now.
    ///
    /// ```swift
    /// let tens: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { $0 * 10 }
    /// ```
    /// - Parameter transform: The transform, called once per element before `map` returns.
    /// - Returns: A `Publishers.Sequence` of the results.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// At most the first `maxLength` elements (a negative length keeps none).
    /// - Parameter maxLength: How many elements to keep.
    /// - Returns: A `Publishers.Sequence` of a `PrefixSequence`.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: PrefixSequence(sequence, maxLength: Swift.max(0, maxLength)))
    }

    /// The leading elements that satisfy `predicate`, computed now.
    /// - Parameter predicate: The test for the elements to keep.
    /// - Returns: A `Publishers.Sequence` of the kept elements.
    @inlinable
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
    }

    /// The elements folded into one value, computed now.
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: Combines the value so far with the next element.
    /// - Returns: A `Result.Publisher` of the final value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
    }

    /// The elements folded into one value by a throwing closure, computed now.
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: Combines the value so far with the next element; may throw.
    /// - Returns: A `Result.Publisher` of the final value or of the thrown error.
    @inlinable
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Each `nil` element replaced by `output`, computed now. As Combine declares it, the elements
    /// keep their optional type (`T?`), and none of them is `nil`.
    /// - Parameter output: The replacement.
    /// - Returns: A `Publishers.Sequence` of the elements.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Each running result of `nextPartialResult`, computed now.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.scan(0, +)   // Publishers.Sequence of [1, 3, 6]
    /// ```
    /// - Parameters:
    ///   - initialResult: The value to start from (not published).
    ///   - nextPartialResult: Combines the value so far with the next element.
    /// - Returns: A `Publishers.Sequence` of the running results.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        var partial = initialResult
        var results: [T] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            partial = nextPartialResult(partial, element)
            results.append(partial)
        }
        return Publishers.Sequence<[T], Failure>(sequence: results)
    }

    /// The same sequence with another failure type.
    /// - Parameter failureType: The failure type to declare.
    /// - Returns: A `Publishers.Sequence` of the same elements.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// The elements without consecutive repeats, computed now.
    /// - Returns: A `Publishers.Sequence` of the elements kept.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var kept: [Elements.Element] = []
        for element in sequence where kept.last != element { kept.append(element) }
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: kept)
    }

    /// Whether some element equals `output`, computed now.
    /// - Parameter output: The element to look for.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(output))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The least element, computed now; nothing for an empty sequence.
    /// - Returns: An `Optional.Publisher` of the least element.
    @inlinable
    public func min() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.min()) }

    /// The greatest element, computed now; nothing for an empty sequence.
    /// - Returns: An `Optional.Publisher` of the greatest element.
    @inlinable
    public func max() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.max()) }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The first element; nothing for an empty collection.
    /// - Returns: An `Optional.Publisher` of the first element.
    @inlinable
    public func first() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.first) }

    /// The element at `index`; nothing when the collection has no such index.
    /// - Parameter index: The position.
    /// - Returns: An `Optional.Publisher` of the element.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.element(at: index))
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// How many elements there are.
    /// - Returns: A `Result.Publisher` of the count.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher { Result<Int, Failure>.Publisher(sequence.count) }

    /// The elements at the positions in `range` (the part of it inside the collection).
    /// - Parameter range: The positions.
    /// - Returns: A `Publishers.Sequence` of the elements.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[sequence.clamping(range)]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// The last element; nothing for an empty collection.
    /// - Returns: An `Optional.Publisher` of the last element.
    @inlinable
    public func last() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.last) }

    /// The last element that satisfies `predicate`, searched from the end.
    /// - Parameter predicate: The test.
    /// - Returns: An `Optional.Publisher` of the element, empty when none satisfies it.
    @inlinable
    public func last(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The element at `index`; nothing when the collection has no such index.
    /// - Parameter index: The position.
    /// - Returns: An `Optional.Publisher` of the element.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.element(at: index))
    }

    /// How many elements there are, in constant time.
    ///
    /// ```swift
    /// let n: Just<Int> = (1...1_000_000).publisher.count()   // Just(1000000)
    /// ```
    /// - Returns: A `Just` of the count.
    @inlinable
    public func count() -> Just<Int> { Just<Int>(sequence.count) }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// The elements at the positions in `range` (the part of it inside the collection).
    /// - Parameter range: The positions.
    /// - Returns: A `Publishers.Sequence` of the elements.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[sequence.clamping(range)]))
    }

    /// How many elements there are, in constant time.
    /// - Returns: A `Result.Publisher` of the count.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher { Result<Int, Failure>.Publisher(sequence.count) }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// The sequence with `elements` in front.
    /// - Parameter elements: The elements to put first.
    /// - Returns: A `Publishers.Sequence` of the same collection type.
    @inlinable
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> { prepend(elements) }

    /// The sequence with `elements` in front.
    /// - Parameter elements: The elements to put first.
    /// - Returns: A `Publishers.Sequence` of the same collection type.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure> where S.Element == Elements.Element {
        var joined = Elements()
        joined.reserveCapacity(sequence.count + elements.underestimatedCount)
        joined.append(contentsOf: elements)
        joined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// The sequence with `publisher`'s elements in front.
    /// - Parameter publisher: The sequence publisher whose elements come first.
    /// - Returns: A `Publishers.Sequence` of the same collection type.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        prepend(publisher.sequence)
    }

    /// The sequence with `elements` after it.
    /// - Parameter elements: The elements to put last.
    /// - Returns: A `Publishers.Sequence` of the same collection type.
    @inlinable
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> { append(elements) }

    /// The sequence with `elements` after it.
    /// - Parameter elements: The elements to put last.
    /// - Returns: A `Publishers.Sequence` of the same collection type.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure> where S.Element == Elements.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// The sequence with `publisher`'s elements after it.
    /// - Parameter publisher: The sequence publisher whose elements come last.
    /// - Returns: A `Publishers.Sequence` of the same collection type.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}

extension Collection {
    /// The element at `index`, or `nil` when the collection has no such index.
    @inlinable
    func element(at index: Index) -> Element? {
        index >= startIndex && index < endIndex ? self[index] : nil
    }

    /// `range` cut to the collection's bounds.
    @inlinable
    func clamping(_ range: Range<Index>) -> Range<Index> {
        range.clamped(to: startIndex..<endIndex)
    }
}
