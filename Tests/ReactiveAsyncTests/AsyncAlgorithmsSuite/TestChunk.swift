import ReactiveAsync
import ReactiveAsyncTesting
import Testing

/// The first character of a one-character-or-more diagram value (the package writes `$0.first!`).
private func first(_ value: String) -> Character { value.first ?? " " }

/// swift-async-algorithms' `Tests/AsyncAlgorithmsTests/TestChunk.swift`, rewritten for
/// `ReactiveAsync`: same diagrams, same expected output (the package's); force unwraps of the
/// package's closures replaced by ``first(_:)``.
@Suite struct TestChunk: AsyncAlgorithmsValidation {
    @Test func test_count_one() {
        validate {
            "ABCDE|"
            $0.inputs[0].chunks(ofCount: 1).map(concatCharacters)
            "ABCDE|"
        }
    }

    @Test func test_signal_equalChunks() {
        validate {
            "ABC-    DEF-    GHI-     |"
            "---X    ---X    ---X    |"
            $0.inputs[0].chunked(by: $0.inputs[1]).map(concatCharacters)
            "---'ABC'---'DEF'---'GHI'|"
        }
    }

    @Test func test_signal_unequalChunks() {
        validate {
            "AB-   A-ABCDEFGH-         |"
            "--X   -X--------X         |"
            $0.inputs[0].chunked(by: $0.inputs[1]).map(concatCharacters)
            "--'AB'-A--------'ABCDEFGH'|"
        }
    }

    @Test func test_signal_emptyChunks() {
        validate {
            "--1--|"
            "XX-XX|"
            $0.inputs[0].chunked(by: $0.inputs[1]).map(concatCharacters)
            "---1-|"
        }
    }

    @Test func test_signal_error() {
        validate {
            "AB^"
            "---X|"
            $0.inputs[0].chunked(by: $0.inputs[1]).map(concatCharacters)
            "--^"
        }
    }

    @Test func test_signal_unsignaledTrailingChunk() {
        validate {
            "111-111|"
            "---X---|"
            $0.inputs[0].chunked(by: $0.inputs[1]).map(sumCharacters)
            "---3---[3|]"
        }
    }

    @Test func test_signalAndCount_signalAlwaysPrevails() {
        validate {
            "AB-   A-ABCDEFGH-         |"
            "--X   -X--------X         |"
            $0.inputs[0].chunks(ofCount: 42, or: $0.inputs[1]).map(concatCharacters)
            "--'AB'-A--------'ABCDEFGH'|"
        }
    }

    @Test func test_signalAndCount_countAlwaysPrevails() {
        validate {
            "AB   --A-B   -|"
            "--   X----   X|"
            $0.inputs[0].chunks(ofCount: 2, or: $0.inputs[1]).map(concatCharacters)
            "-'AB'----'AB'-|"
        }
    }

    @Test func test_signalAndCount_countResetsAfterCount() {
        validate {
            "ABCDE      -ABCDE      |"
            "-----      ------      |"
            $0.inputs[0].chunks(ofCount: 5, or: $0.inputs[1]).map(concatCharacters)
            "----'ABCDE'-----'ABCDE'|"
        }
    }

    @Test func test_signalAndCount_countResetsAfterSignal() {
        validate {
            "AB-   ABCDE      |"
            "--X   -----      |"
            $0.inputs[0].chunks(ofCount: 5, or: $0.inputs[1]).map(concatCharacters)
            "--'AB'----'ABCDE'|"
        }
    }

    @Test func test_signalAndCount_error() {
        validate {
            "ABC^"
            "----X|"
            $0.inputs[0].chunks(ofCount: 5, or: $0.inputs[1]).map(concatCharacters)
            "---^"
        }
    }

    @Test func test_time_equalChunks() {
        validate {
            "ABC-    DEF-    GHI-     |"
            $0.inputs[0].chunked(by: .repeating(every: .steps(4), clock: $0.clock)).map(concatCharacters)
            "---'ABC'---'DEF'---'GHI'|"
        }
    }

    @Test func test_time_unequalChunks() {
        validate {
            "AB------    A------- ABCDEFG-         |"
            $0.inputs[0].chunked(by: .repeating(every: .steps(8), clock: $0.clock)).map(concatCharacters)
            "-------'AB' -------A -------'ABCDEFG'|"
        }
    }

    @Test func test_time_emptyChunks() {
        validate {
            "-- 1- --|"
            $0.inputs[0].chunked(by: .repeating(every: .steps(2), clock: $0.clock)).map(concatCharacters)
            "-- -1 --|"
        }
    }

    @Test func test_time_error() {
        validate {
            "AB^"
            $0.inputs[0].chunked(by: .repeating(every: .steps(5), clock: $0.clock)).map(concatCharacters)
            "--^"
        }
    }

    @Test func test_time_unsignaledTrailingChunk() {
        validate {
            "111-111|"
            $0.inputs[0].chunked(by: .repeating(every: .steps(4), clock: $0.clock)).map(sumCharacters)
            "---3---[3|]"
        }
    }

    @Test func test_timeAndCount_timeAlwaysPrevails() {
        validate {
            "AB------    A------- ABCDEFG-         |"
            $0.inputs[0].chunks(ofCount: 42, or: .repeating(every: .steps(8), clock: $0.clock)).map(concatCharacters)
            "-------'AB' -------A -------'ABCDEFG'|"
        }
    }

    @Test func test_timeAndCount_countAlwaysPrevails() {
        validate {
            "AB   --A-B   -|"
            $0.inputs[0].chunks(ofCount: 2, or: .repeating(every: .steps(8), clock: $0.clock)).map(concatCharacters)
            "-'AB'----'AB'-|"
        }
    }

    @Test func test_timeAndCount_countResetsAfterCount() {
        validate {
            "ABCDE      --- ABCDE      |"
            $0.inputs[0].chunks(ofCount: 5, or: .repeating(every: .steps(8), clock: $0.clock)).map(concatCharacters)
            "----'ABCDE'--- ----'ABCDE'|"
        }
    }

    @Test func test_timeAndCount_countResetsAfterSignal() {
        validate {
            "AB------    ABCDE      |"
            $0.inputs[0].chunks(ofCount: 5, or: .repeating(every: .steps(8), clock: $0.clock)).map(concatCharacters)
            "-------'AB' ----'ABCDE'|"
        }
    }

    @Test func test_timeAndCount_error() {
        validate {
            "ABC^"
            $0.inputs[0].chunks(ofCount: 5, or: .repeating(every: .steps(8), clock: $0.clock)).map(concatCharacters)
            "---^"
        }
    }

    @Test func test_count() {
        validate {
            "ABC    DEF    |"
            $0.inputs[0].chunks(ofCount: 3).map(concatCharacters)
            "--'ABC'--'DEF'|"
        }
    }

    @Test func test_count_nonuniformTiming() {
        validate {
            "A--B-C    --DE-F    |"
            $0.inputs[0].chunks(ofCount: 3).map(concatCharacters)
            "-----'ABC'-----'DEF'|"
        }
    }

    @Test func test_count_trailingChunk() {
        validate {
            "11111|"
            $0.inputs[0].chunks(ofCount: 3).map(sumCharacters)
            "--3--[2|]"
        }
    }

    @Test func test_count_error() {
        validate {
            "AB^"
            $0.inputs[0].chunks(ofCount: 3).map(concatCharacters)
            "--^"
        }
    }

    @Test func test_group() {
        validate {
            "ABC    def    GH   ij   Kl|"
            $0.inputs[0].chunked(by: { first($0).isUppercase == first($1).isUppercase }).map(concatCharacters)
            "---'ABC'--'def'-'GH'-'ij'K[l|]"
        }
    }

    @Test func test_group_singleValue() {
        validate {
            "A----|"
            $0.inputs[0].chunked(by: { first($0).isUppercase == first($1).isUppercase }).map(concatCharacters)
            "-----[A|]"
        }
    }

    @Test func test_group_singleGroup() {
        validate {
            "ABCDE|"
            $0.inputs[0].chunked(by: { _, _ in true }).map(concatCharacters)
            "-----['ABCDE'|]"
        }
    }

    @Test func test_group_error() {
        validate {
            "AB^"
            $0.inputs[0].chunked(by: { first($0).isUppercase == first($1).isUppercase }).map(concatCharacters)
            "--^"
        }
    }

    @Test func test_projection() {
        validate {
            "A'Aa''ab'    b'BB''bb'    'cc''CC'      |"
            $0.inputs[0].chunked(on: { first($0).lowercased() }).map { concatCharacters($0.1.map { String(first($0)) }) }
            "--   -   'AAa' -  -   'bBb'   -   ['cC'|]"
        }
    }

    @Test func test_projection_singleValue() {
        validate {
            "A----|"
            $0.inputs[0].chunked(on: { first($0).lowercased() }).map { concatCharacters($0.1.map { String(first($0)) }) }
            "-----[A|]"
        }
    }

    @Test func test_projection_singleGroup() {
        validate {
            "ABCDE|"
            $0.inputs[0].chunked(on: { _ in 42 }).map { concatCharacters($0.1.map { String(first($0)) }) }
            "-----['ABCDE'|]"
        }
    }

    @Test func test_projection_error() {
        validate {
            "Aa^"
            $0.inputs[0].chunked(on: { first($0).lowercased() }).map { concatCharacters($0.1.map { String(first($0)) }) }
            "--^"
        }
    }
}
