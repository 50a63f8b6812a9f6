import Testing
@testable import PipeLanguage

/// A small, fast, seedable generator (SplitMix64) so the generated inputs are the same every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Fragments random inputs are made of: tokens, near-tokens and hostile bytes.
let fragments: [String] = [
    "just", "from", "map", "filter", "scan", "flatMap", "catch", "zip", "merge", "retry", "take", "skip", "asyncMap",
    "delay", "flaky", "fail", "subject", "interval", "timer", "future", "deferred", "value", "sink", "values", "async",
    "let", "x", "s", "=", ".send", ".finish", ".fail", "expect", "values", "count", "time", "finished", "failed",
    "{", "}", "[", "]", "(", ")", "|", "&", ",", ":", "...", "?", "??", "==", "!=", "<", ">=", "&&", "||", "!", ".",
    "+", "-", "*", "/", "%", "$0", "$1", "$9", "$", "0", "1", "-1", "42", "1.5", "1e3", "99999999999999999999",
    "100ms", "2s", "1.5s", "3m", "5x", "\"a\"", "\"\\(", "\"\\($0)\"", "\"", "\\", "true", "false", "nil", "abs(", "min(",
    "String(", ".count", "[0]", "#", "\n", "\n", " ", " ", " ", "\t", ":help", ":", "\u{FFFD}", "\u{07}", "\u{0}", "é", "🙂",
    "maxPublishers:", "latest:", "where:", "while:", "untilOutputFrom:", "byTime:", "at:", "\r\n", "\r",
    // Kinds that mix, endless sources and the marble checks (issue 19).
    "append", "prepend", "replaceEmpty", "replaceNil", "replaceError", "ignoreOutput", "combineLatest", "marble",
    "\"-a-1-|\"", "frame:", "1ns", "27h", "200µs", "..<", "'10'", "\u{FEFF}", "\u{1B}[2J",
]

/// Checks the invariants every input must keep; returns a description of the first broken one.
func checkInvariants(_ text: String) -> String? {
    let session = Session(runtime: Runtime(clock: .virtual))
    _ = session.execute(session.compile("let a = just 1\nlet s = subject", file: "setup").statements[0])
    _ = session.execute(session.compile("let s = subject", file: "setup").statements[0])
    let (statements, diagnostics) = session.compile(text, file: "in", firstLine: 3)
    let bytes = text.utf8.count
    let lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    func inside(_ location: PipeLanguage.SourceLocation, _ offset: Int?, _ length: Int) -> Bool {
        let line = location.line - 3
        guard line >= 0, line < lines.count, location.file == "in" else { return false }
        let count = lines[line].unicodeScalars.count
        guard location.column >= 1, location.column <= count + 1, length >= 0, location.column - 1 + length <= count + 1 else { return false }
        if let offset, offset < 0 || offset > bytes { return false }
        return true
    }
    for d in diagnostics where !inside(d.location, d.offset, d.length) {
        return "diagnostic outside the input: \(d) length \(d.length)"
    }
    for statement in statements {
        guard inside(statement.location, nil, 0) else { return "statement outside the input: \(statement.location)" }
        let before = session.bindingSummaries()
        switch session.execute(statement) {
        case .failure(let d):
            if session.bindingSummaries() != before { return "a failed statement changed the bindings" }
            if !inside(d.location, d.offset, d.length) { return "execute diagnostic outside the input: \(d)" }
        case .success: break
        }
    }
    _ = session.types(of: text)
    _ = Session.needsContinuation(text)
    return nil
}

@Suite struct GeneratedInputTests {
    static let corpus: [String] =
        RoundTripTests.designExamples + Catalog.entries.map(\.example) + BadInputTests.cases.filter { $0.text.utf8.count < 2000 }.map { unmark($0.text).text }

    /// The inputs are checked in 8 parts of 2,500, each a test case of its own: the whole took
    /// 29 s of one thread (the slowest test of the parallel run), which held one of the two
    /// cooperative threads on a 2-core machine for all that time. Each part draws all 20,000
    /// inputs from the one generator, so the inputs are those of the single run before, and
    /// checks its own share.
    @Test(
        "tens of thousands of random and mutated inputs (fixed seed): no crash, positions inside, failed statements change nothing",
        arguments: 0..<8)
    func generated(part: Int) {
        var rng = SplitMix64(state: 0x5EED_1234)
        var failures: [String] = []
        for i in 0..<20_000 {
            let text: String
            if i % 2 == 0 {
                let n = Int.random(in: 1...24, using: &rng)
                text = (0..<n).map { _ in fragments.randomElement(using: &rng)! + (Bool.random(using: &rng) ? " " : "") }.joined()
            } else {
                var bytes = Array(Self.corpus.randomElement(using: &rng)!.utf8)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let at = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &rng)
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0 where !bytes.isEmpty:
                        let end = Swift.min(bytes.count, at + Int.random(in: 1...6, using: &rng))
                        if at < end { bytes.removeSubrange(at..<end) }
                    case 1:
                        bytes.insert(contentsOf: Array(fragments.randomElement(using: &rng)!.utf8), at: at)
                    case 2 where at < bytes.count:
                        bytes[at] = UInt8.random(in: 0...255, using: &rng)
                    default:
                        let end = Swift.min(bytes.count, at + Int.random(in: 1...12, using: &rng))
                        if at < end { bytes.insert(contentsOf: bytes[at..<end], at: at) }
                    }
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            guard i / 2_500 == part else { continue }
            if let problem = checkInvariants(text) {
                failures.append("\(problem) for \(text.debugDescription)")
                if failures.count > 10 { break }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
