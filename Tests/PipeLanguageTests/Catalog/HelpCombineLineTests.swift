import Foundation
import Testing

@testable import PipeLanguage

/// Every `:help` entry's "Combine:" line names what `:swift` writes for the entry's example: its
/// operators (`.delay`, `Just`) and argument labels (`for:`, `scheduler:`). An entry that is a
/// Plumb addition (Combine has nothing like it) says so in the same words, `HelpCombineLine.addition`.
@Suite struct HelpCombineLineTests {
    @Test("each entry's Combine line: its operators and labels are those :swift writes for the example")
    func combineLinesMatchTheSwift() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        var report: [String] = []
        for entry in Catalog.entries {
            var swift = try HelpCombineLine.swift(of: entry, in: session)
            // `:swift` writes the publisher a pipeline ends in; the program form consumes it with
            // `.sink(receiveCompletion:receiveValue:)` (its `run` helper).
            if entry.name == "sink" { swift = try session.swiftProgram(of: entry.example, file: "sink.pipe").get() }
            let alternatives = HelpCombineLine.alternatives(entry.combine)
            if !alternatives.contains(where: { HelpCombineLine.missing($0, in: swift).isEmpty }) {
                let missing = alternatives.map { HelpCombineLine.missing($0, in: swift).joined(separator: " ") }.joined(separator: " | ")
                report.append("\(entry.name): \"\(entry.combine)\" vs \(swift.split(separator: "\n").last ?? "") — missing \(missing)")
            }
        }
        #expect(report.isEmpty, "\(report.count) entries:\n\(report.joined(separator: "\n"))")
    }

    /// Coming from Combine (Reactive.docc) lists what Combine lacks: `asyncMap`, `async()`,
    /// `Publishers.interval`; the language adds `marble` and `todo`, which `:swift` writes as helpers.
    @Test("an entry whose Swift uses an addition says so in the same words, and only such an entry")
    func additionsSaySo() throws {
        let session = Session(runtime: Runtime(clock: .virtual))
        var report: [String] = []
        for entry in Catalog.entries {
            let swift = try HelpCombineLine.swift(of: entry, in: session)
            // An operator's example has other stages (`interval` upstream, `asyncMap flaky` before a
            // `retry`): only its own marker counts for it.
            let markers =
                entry.kind == .source
                ? HelpCombineLine.additionMarkers : HelpCombineLine.operatorAdditionMarkers.filter { $0.contains(entry.name) }
            var usesAddition = markers.contains { swift.contains($0) }
            // Crossing back: `.publisher` on an async sequence (after `.values`) is Reactive's
            // addition; on a collection (`[1, 2].publisher`) it is Combine's own.
            if entry.name == "publisher" {
                usesAddition = swift.components(separatedBy: ".values").dropFirst().joined().contains(".publisher")
            }
            if usesAddition != entry.combine.contains(HelpCombineLine.addition) {
                report.append("\(entry.name): \"\(entry.combine)\" (Swift \(usesAddition ? "uses" : "does not use") an addition)")
            }
        }
        #expect(report.isEmpty, "\(report.count) entries:\n\(report.joined(separator: "\n"))")
    }
}

/// Reads a Combine line: alternatives split on " / ", each a chain of names (`.map`, `Just`,
/// `Timer.publish`) with argument labels inside their parentheses.
enum HelpCombineLine {
    static let addition = "(an addition of this repository: not in Combine)"
    /// What `:swift` writes for an addition.
    static let additionMarkers = operatorAdditionMarkers + ["Publishers.interval", "func marble"]
    static let operatorAdditionMarkers = [".asyncMap", ".async()", "/* todo */"]

    /// What `:swift` writes for the entry's example: for an example of several lines (a binding,
    /// its sends and uses), for its first line, the binding that uses the entry.
    static func swift(of entry: CatalogEntry, in session: Session) throws -> String {
        let first = entry.example.split(separator: "\n").first.map(String.init) ?? entry.example
        return try session.swiftTranslation(of: first).get().joined
    }

    static func alternatives(_ line: String) -> [String] {
        var text = line
        for end in [" (", "; "] {
            if let note = text.range(of: end) { text = String(text[..<note.lowerBound]) }
        }
        return text.components(separatedBy: " / ")
    }

    /// The names and labels of `alternative` not in `swift`.
    static func missing(_ alternative: String, in swift: String) -> [String] {
        var missing: [String] = []
        let pattern = try! NSRegularExpression(pattern: #"([A-Za-z_][A-Za-z0-9_.]*)\s*(\(([^()]*)\)|\{)?"#)
        let ns = alternative as NSString
        for match in pattern.matches(in: alternative, range: NSRange(location: 0, length: ns.length)) {
            let name = ns.substring(with: match.range(at: 1))
            guard match.range(at: 2).location != NSNotFound else { continue }
            let last = name.split(separator: ".").last.map(String.init) ?? name
            if !["(", " {", "{", "<"].contains(where: { swift.contains(last + $0) }) { missing.append(name) }
            if match.range(at: 3).location != NSNotFound {
                let inside = ns.substring(with: match.range(at: 3))
                let labels = try! NSRegularExpression(pattern: #"([A-Za-z]+):"#)
                for label in labels.matches(in: inside, range: NSRange(location: 0, length: (inside as NSString).length)) {
                    let text = (inside as NSString).substring(with: label.range(at: 1))
                    if !swift.contains(text + ":") { missing.append(text + ":") }
                }
            }
        }
        return missing
    }
}
