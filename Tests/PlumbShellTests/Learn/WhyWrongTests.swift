import Foundation
import PipeLanguage
import Testing

@testable import PlumbShell

/// Where plumb can tell why an answer is wrong, it says so under the failed `expect` (issue 40):
/// integer division dropping the fraction, a value of the wrong kind, a subscription count that
/// shows a missing `share`.
@Suite struct WhyWrongTests {
    private func learn(_ exercise: String) throws -> PlumbResult {
        let folder = try PlumbBinary.folder(["01-try.pipe": exercise])
        return try PlumbBinary.run(["--clock", "virtual", "learn", "--once", folder])
    }

    @Test("plumb learn: Ints where fractions were expected name `/` between two Ints")
    func integerDivision() throws {
        let result = try learn("from [5, 7] | map { $0 / 2 }\nexpect values [2.5, 3.5]\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("expected values [2.5, 3.5], got values [2, 3]"), "\(result)")
        #expect(result.stdout.contains("why: 2 is 2.5 without its fraction: `/` between two Ints divides whole numbers"), "\(result)")
    }

    @Test("plumb learn: a value of another kind says which kinds")
    func wrongKind() throws {
        let result = try learn("from [1, 2] | map { $0 * 10 }\nexpect values [\"10\", \"20\"]\n")
        #expect(result.stdout.contains("why: the pipeline emits Int 10 where String \"10\" is expected"), "\(result)")
    }

    @Test("plumb learn: a source subscribed once per subscriber where one was expected points at share")
    func missingShare() throws {
        let result = try learn("let t = interval 100ms | take 2\nt | merge (t) | count\nexpect subscriptions t 1\n")
        #expect(result.stdout.contains("got t's source subscribed 2 times"), "\(result)")
        #expect(result.stdout.contains("why: each subscriber of t subscribed to its source anew; `| share` at the end of its `let`"), "\(result)")
    }

    @Test("no why when none can be told: other values of the same kind")
    func noGuess() {
        #expect(ExpectationCheck.why(expected: [.int(1), .int(2)], got: [.int(1), .int(3)]) == nil)
        #expect(ExpectationCheck.why(expected: [.string("2")], got: [.int(2)])?.hasPrefix("the pipeline emits Int 2 where String \"2\"") == true)
    }
}
