import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestZip.swift`, rewritten for
/// `ReactiveAsync`. The package tests zip over `.async` arrays and gated sequences; here the same
/// facts are drawn as diagrams (a gate's `advance()` is an element at a later step). Where the
/// expected output comes from: the package's assertions (pairs in order; zip ends with its
/// shortest base; a failure is thrown after the pairs made before it) and its Zip guide.
@Suite struct TestZip: AsyncAlgorithmsValidation {
    @Test func test_zip() async {
        let a = [1, 2, 3]
        let b = ["a", "b", "c"]
        let actual = await Array(zip(a.async, b.async)).map { "\($0)\($1)" }
        #expect(actual == ["1a", "2b", "3c"])
    }

    @Test func test_zip_first_longer() async {
        let actual = await Array(zip([1, 2, 3, 4, 5].async, ["a", "b", "c"].async)).map { "\($0)\($1)" }
        #expect(actual == ["1a", "2b", "3c"])
    }

    @Test func test_zip_second_longer() async {
        let actual = await Array(zip([1, 2, 3].async, ["a", "b", "c", "d", "e"].async)).map { "\($0)\($1)" }
        #expect(actual == ["1a", "2b", "3c"])
    }

    @Test func test_iterate_when_one_is_empty_then_returns_nil() async {
        let actual = await Array(zip([Int]().async, ["a", "b"].async))
        #expect(actual.isEmpty)
    }

    @Test func test_throwing_zip1() async {
        let sequence = zip([1, 2, 3].async.map { try throwOn(2, $0) }, ["a", "b", "c"].async)
        var actual: [String] = []
        var iterator = sequence.makeAsyncIterator()
        do {
            while let (number, letter) = try await iterator.next() { actual.append("\(number)\(letter)") }
            Issue.record("expected the failure")
        } catch {
            #expect(error as? PackageFailure == PackageFailure())
        }
        #expect(actual == ["1a"])
        let pastEnd = try? await iterator.next()
        #expect(pastEnd == nil)
    }

    // test_ordering (gates advanced a, b, a, b, …): each pair goes out when its later element arrives.
    @Test func test_ordering_diagram() {
        validate {
            "1-2-3-|"
            "-a-b-c|"
            zip($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a'-'2b'-'3c'|"
        }
    }

    // test_zip_first_longer as a diagram: the shorter base's finish ends the zip at once.
    @Test func test_shortest_finishes_diagram() {
        validate {
            "abcd|"
            "12|"
            zip($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "'a1''b2'|"
        }
    }

    @Test func test_failure_diagram() {
        validate {
            "ab^"
            "123|"
            zip($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "'a1''b2'^"
        }
    }

    @Test func test_zip3_diagram() {
        validate {
            "a--b--|"
            "-1--2-|"
            "--x--y|"
            zip($0.inputs[0], $0.inputs[1], $0.inputs[2]).map { $0 + $1 + $2 }
            "--'a1x'--'b2y'|"
        }
    }
}
