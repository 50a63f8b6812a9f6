import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestCombineLatest.swift`, rewritten for
/// `ReactiveAsync`. The package's ordering tests advance gated sequences one element at a time and
/// check the tuples so far; here each gate's `advance()` is an element at the next step of a
/// diagram, and the expected output is the package's list of tuples at those steps.
@Suite struct TestCombineLatest: AsyncAlgorithmsValidation {
    @Test func test_combineLatest() async {
        let actual = await Array(combineLatest([1, 2, 3].async, ["a", "b", "c"].async))
        #expect(actual.count >= 3)
    }

    @Test func test_throwing_combineLatest1() async {
        let sequence = combineLatest([1, 2, 3].async.map { try throwOn(1, $0) }, ["a", "b", "c"].async)
        await expectDrained(sequence.map { "\($0)\($1)" }, [], fails: true)
    }

    @Test func test_throwing_combineLatest2() async {
        let sequence = combineLatest([1, 2, 3].async, ["a", "b", "c"].async.map { try throwOn("a", $0) })
        await expectDrained(sequence.map { "\($0)\($1)" }, [], fails: true)
    }

    // test_ordering1: a, b, a, b, a, b → (1,a) (2,a) (2,b) (3,b) (3,c).
    @Test func test_ordering1() {
        validate {
            "1-2-3-|"
            "-a-b-c|"
            combineLatest($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a''2a''2b''3b''3c'|"
        }
    }

    // test_ordering2: a, b, b, a, b, a → (1,a) (1,b) (2,b) (2,c) (3,c).
    @Test func test_ordering2() {
        validate {
            "1--2-3|"
            "-ab-c-|"
            combineLatest($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a''1b''2b''2c''3c'|"
        }
    }

    // test_ordering3: a, b, a, a, b, b → (1,a) (2,a) (3,a) (3,b) (3,c).
    @Test func test_ordering3() {
        validate {
            "1-23--|"
            "-a--bc|"
            combineLatest($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a''2a''3a''3b''3c'|"
        }
    }

    // test_ordering4: a, b, b, b, a, a → (1,a) (1,b) (1,c) (2,c) (3,c).
    @Test func test_ordering4() {
        validate {
            "1---23|"
            "-abc--|"
            combineLatest($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a''1b''1c''2c''3c'|"
        }
    }

    // test_throwing_ordering1: the first base throws at its second element, after (1,a) (1,b).
    @Test func test_throwing_ordering1() {
        validate {
            "1--^"
            "-ab-c|"
            combineLatest($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a''1b'^"
        }
    }

    // test_throwing_ordering2: the second base throws at its second element, after (1,a) (2,a).
    @Test func test_throwing_ordering2() {
        validate {
            "1-2-3|"
            "-a-^"
            combineLatest($0.inputs[0], $0.inputs[1]).map { $0 + $1 }
            "-'1a''2a'^"
        }
    }

    @Test(.hangLimit) func test_cancellation() async {
        let sequence = combineLatest(Indefinite(value: "test1").async, Indefinite(value: "test2").async)
        let last = await lastElementBeforeCancellationEnds(sequence.map { $0 + $1 })
        #expect(last == "test1test2")
    }

    // TestCombineLatest3.test_combineLatest: at least one tuple per element of the longest base.
    @Test func test_combineLatest3() async {
        #expect(await Array(combineLatest([1, 2, 3].async, ["a", "b", "c"].async, [4, 5, 6].async)).count >= 3)
    }

    // TestCombineLatest3.test_ordering1: a, b, c, a, b, c, a, b, c.
    @Test func test_combineLatest3_ordering1() {
        validate {
            "1--2--3--|"
            "-a--b--c-|"
            "--x--y--z|"
            combineLatest($0.inputs[0], $0.inputs[1], $0.inputs[2]).map { $0 + $1 + $2 }
            "--'1ax''2ax''2bx''2by''3by''3cy''3cz'|"
        }
    }
}
