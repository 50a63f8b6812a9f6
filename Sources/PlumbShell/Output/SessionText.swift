import Foundation
import PipeLanguage

/// How the shell prints the session's answers: `:type`'s table, `:bindings`' list and `:swift`'s
/// code. The session answers with data (`PipelineTypes`, `BindingSummary`, `TranslatedSwift`);
/// the layout lives here, and nowhere in the language.
enum SessionText {
    /// Stage texts longer than this are not padded: the arrows line up for the rest.
    static let stageColumn = 40

    /// `:type`: a line per stage with the type after it, the whole type, then a note for stages
    /// where the language fails and the Swift traps, and one when there is no faithful Swift form.
    ///
    /// ```
    ///   just 1             -> Int, Failure: Never
    /// | filter { $0 > 0 }  -> Int, Failure: Never
    /// AnyPublisher<Int, Never>
    /// ```
    static func typeTable(_ types: PipelineTypes) -> String {
        let width = min(stageColumn, types.stages.map(\.text.count).max() ?? 0)
        var lines = types.stages.enumerated().map { i, stage in
            let padded = stage.text.count < width ? stage.text + String(repeating: " ", count: width - stage.text.count) : stage.text
            let sequence = stage.type.asyncSequence.map { ", \($0)" } ?? ""
            return "\(i == 0 ? "  " : "| ")\(padded)  -> \(stage.type.output), Failure: \(stage.type.failure)\(sequence)"
        }
        lines.append(types.type.description)
        let trapping = types.trappingStages
        if !trapping.isEmpty {
            let stages = trapping.map { "`\($0.text)`" }.joined(separator: ", ")
            lines.append("note: where this Swift traps (an Int overflow, a division by zero), plumb fails the pipeline instead: \(stages)")
        }
        if let problem = types.noFaithfulSwiftForm {
            lines.append("note: no faithful Swift form (\(problem)): these are plumb's own types")
        }
        return lines.joined(separator: "\n")
    }

    /// `:bindings`: each name (bold, padded to the longest), its pipeline and its type; a name in
    /// `described` (the shell's `_` and `_N`) with what it stands for instead.
    static func bindingList(_ bindings: [BindingSummary], style: Style, described: [String: String] = [:]) -> String {
        guard !bindings.isEmpty else { return style.dim("no bindings yet: let NAME = PIPELINE") }
        let width = bindings.map(\.name.count).max() ?? 0
        return bindings.map {
            style.bold($0.name.padding(toLength: width, withPad: " ", startingAt: 0)) + "  "
                + (described[$0.name] ?? "\($0.text) : \($0.type)")
        }.joined(separator: "\n")
    }

    /// The helpers, then the code (`plumb swift FILE`, one statement's part).
    static func swiftCode(_ swift: TranslatedSwift) -> String {
        (swift.helpers.isEmpty ? "" : swift.helpers.joined(separator: "\n\n") + "\n\n") + swift.code.joined(separator: "\n")
    }

    /// `:swift`: the imports, the helpers and the statement, ready to paste into a `main.swift`.
    static func swiftFile(_ swift: TranslatedSwift) -> String {
        swift.importLines.joined(separator: "\n") + "\n\n" + swiftCode(swift)
    }
}
