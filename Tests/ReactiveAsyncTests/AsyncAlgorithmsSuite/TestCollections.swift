import Foundation
import ReactiveAsync
import Testing

/// An error with a code, as the package's collection tests throw (`NSError` code -1).
private struct CodedError: Error { var code = -1 }

/// The package's throwing source: 1 to 6, failing at 4.
private func failingAtFour<T: Sendable>(_ transform: @escaping @Sendable (Int) -> T) -> AsyncThrowingMapSequence<AsyncSyncSequence<[Int]>, T> {
    Array(1...6).async.map { value in
        if value == 4 { throw CodedError() }
        return transform(value)
    }
}

/// Runs `make` and returns the code of the `CodedError` it threw (nil if it did not throw one).
private func thrownCode<T>(_ make: () async throws -> T) async -> Int? {
    do {
        _ = try await make()
        return nil
    } catch {
        return (error as? CodedError)?.code
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestSetAlgebra.swift`, rewritten for
/// `ReactiveAsync`: a set built from an async sequence equals the set built from the array.
@Suite struct TestSetAlgebra {
    @Test func test_Set() async {
        #expect(await Set([1, 2, 3].async) == Set([1, 2, 3]))
    }

    @Test func test_Set_duplicate() async {
        #expect(await Set([1, 2, 3, 3].async) == Set([1, 2, 3, 3]))
    }

    @Test func test_IndexSet() async {
        #expect(await IndexSet([1, 2, 3].async) == IndexSet([1, 2, 3]))
    }

    @Test func test_throwing() async {
        #expect(await thrownCode { try await Set(failingAtFour { $0 }) } == -1)
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestDictionary.swift`, rewritten for
/// `ReactiveAsync`: each initializer against the same one over the array.
@Suite struct TestDictionary {
    @Test func test_uniqueKeysAndValues() async {
        let source = [(1, "a"), (2, "b"), (3, "c")]
        #expect(await Dictionary(uniqueKeysWithValues: source.async) == Dictionary(uniqueKeysWithValues: source))
    }

    @Test func test_throwing_uniqueKeysAndValues() async {
        #expect(await thrownCode { try await Dictionary(uniqueKeysWithValues: failingAtFour { ($0, $0) }) } == -1)
    }

    @Test func test_uniquingWith() async {
        let source = [("a", 1), ("b", 2), ("a", 3), ("b", 4)]
        #expect(await Dictionary(source.async) { first, _ in first } == Dictionary(source) { first, _ in first })
    }

    @Test func test_throwing_uniqingWith() async {
        #expect(await thrownCode { try await Dictionary(failingAtFour { ($0, $0) }) { first, _ in first } } == -1)
    }

    @Test func test_grouping() async {
        let source = ["Kofi", "Abena", "Efua", "Kweku", "Akosua"]
        let actual = await Dictionary(grouping: source.async) { $0.first ?? " " }
        #expect(actual == Dictionary(grouping: source) { $0.first ?? " " })
    }

    @Test func test_throwing_grouping() async {
        let names = ["Kofi", "Abena", "Efua", "Kweku", "Akosua"]
        let input = names.async.map { name -> String in
            if name == "Kweku" { throw CodedError() }
            return name
        }
        #expect(await thrownCode { try await Dictionary(grouping: input) { $0.first ?? " " } } == -1)
    }
}

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestRangeReplaceableCollection.swift`,
/// rewritten for `ReactiveAsync`: each collection built from its own elements, async.
@Suite struct TestRangeReplaceableCollection {
    @Test func test_String() async {
        #expect(await String("abc".async) == "abc")
    }

    @Test func test_Data() async {
        #expect(await Data(Data([1, 2, 3]).async) == Data([1, 2, 3]))
    }

    @Test func test_ContiguousArray() async {
        #expect(await ContiguousArray(ContiguousArray([1, 2, 3]).async) == ContiguousArray([1, 2, 3]))
    }

    @Test func test_Array() async {
        #expect(await Array([1, 2, 3].async) == [1, 2, 3])
    }

    @Test func test_throwing() async {
        #expect(await thrownCode { try await Array(failingAtFour { $0 }) } == -1)
    }
}
