/// A token of a marble diagram, whatever characters a theme draws it with: swift-async-algorithms'
/// `AsyncSequenceValidationDiagram.Token` (its `Theme.swift`), under the same cases.
public enum MarbleToken: Sendable, Hashable {
    /// A step with no event (`-` in the ASCII theme).
    case step
    /// A failure (`^`).
    case error
    /// The end (`|`).
    case finish
    /// The consumer is cancelled at this step (`;`).
    case cancel
    /// The consumer's next `next()` waits for the following step (`,`).
    case delayNext
    /// The start of a value of several characters (`'`).
    case beginValue
    /// The end of a value of several characters (`'`).
    case endValue
    /// The start of a group of events in one step (`[`).
    case beginGroup
    /// The end of a group (`]`).
    case endGroup
    /// Nothing: only for alignment (a space).
    case skip
    /// A value, or (between ``beginValue`` and ``endValue``) part of one.
    case value(String)
}

/// A custom set of characters for a marble test's diagrams (`validate(theme:cancelAt:_:)` with a theme value):
/// swift-async-algorithms' `AsyncSequenceValidationTheme`, with the same one requirement, so the
/// package's custom themes (its `test_diagram_emoji`) work unchanged.
///
/// Each character of every diagram is read through ``token(_:inValue:)``; the tokens mean what
/// they mean in ``MarbleTheme/asyncAlgorithms`` (the package's ASCII theme).
///
/// ```swift
/// struct Emoji: MarbleDiagramTheme {
///     func token(_ character: Character, inValue: Bool) -> MarbleToken {
///         switch character {
///         case "➖": .step
///         case "❌": .finish
///         case " ": .skip
///         default: .value(String(character))
///         }
///     }
/// }
/// let result = validate(theme: Emoji()) {
///     "➖🔴➖🟢❌"
///     $0.inputs[0]
///     "➖🔴➖🟢❌"
/// }
/// ```
public protocol MarbleDiagramTheme {
    /// The token `character` stands for; `inValue` is true between a ``MarbleToken/beginValue``
    /// and its ``MarbleToken/endValue``.
    func token(_ character: Character, inValue: Bool) -> MarbleToken
}

/// swift-async-algorithms' name for ``MarbleDiagramTheme``.
public typealias AsyncSequenceValidationTheme = MarbleDiagramTheme

/// Where swift-async-algorithms' validation names its `Token`, so a theme written against the
/// package (`-> AsyncSequenceValidationDiagram.Token`) compiles unchanged. The package's diagram
/// builder of that name is ``MarbleTestBuilder`` here.
public enum AsyncSequenceValidationDiagram {
    /// The package's name for ``MarbleToken``.
    public typealias Token = MarbleToken
}

extension MarbleDiagramTheme {
    /// `diagram` read through this theme and written in ``MarbleTheme/asyncAlgorithms``'s ASCII
    /// tokens: a value of one character that is not an ASCII letter or digit is quoted (`'🔴'`),
    /// so it cannot be read as a token there.
    ///
    /// - Parameter diagram: A diagram in this theme.
    /// - Returns: The same diagram in the package's ASCII theme.
    public func asciiDiagram(_ diagram: String) -> String {
        var ascii = ""
        var inValue = false
        for character in diagram {
            switch token(character, inValue: inValue) {
            case .step: ascii += "-"
            case .error: ascii += "^"
            case .finish: ascii += "|"
            case .cancel: ascii += ";"
            case .delayNext: ascii += ","
            case .beginValue:
                inValue = true
                ascii += "'"
            case .endValue:
                inValue = false
                ascii += "'"
            case .beginGroup: ascii += "["
            case .endGroup: ascii += "]"
            case .skip: ascii += " "
            case .value(let text):
                ascii += inValue || MarbleNotation.glyph(text) == text ? text : "'\(text)'"
            }
        }
        return ascii
    }
}

/// Runs a marble test whose diagrams are drawn in a custom ``MarbleDiagramTheme``: as
/// `validate(theme: .asyncAlgorithms)` once every diagram is read through `theme` (the package's
/// `validate(theme:)` with a custom theme). The result's diagrams are in ``MarbleNotation``.
///
/// - Parameters:
///   - theme: The characters the diagrams are drawn with.
///   - cancelAt: The step at which to cancel the consuming task, if any.
///   - build: The input diagrams, the sequence under test, the expected diagram.
/// - Returns: The result; show it when it did not pass.
///
/// ```swift
/// let result = validate(theme: Emoji()) {
///     "➖🔴➖🟢❌"
///     $0.inputs[0]
///     "➖🔴➖🟢❌"
/// }
/// ```
public func validate<Theme: MarbleDiagramTheme, Output: AsyncSequence>(
    theme: Theme,
    cancelAt: Int? = nil,
    @MarbleTestBuilder _ build: (MarbleTest) -> MarbleTestCase<Output>
) -> MarbleResult {
    // The report shows the inputs as they ran: in the package's ASCII tokens.
    validate(theme: .asyncAlgorithms, cancelAt: cancelAt) { test in
        let testCase = build(test)
        return MarbleTestCase(
            inputs: testCase.inputs.map(theme.asciiDiagram), output: testCase.output, expected: theme.asciiDiagram(testCase.expected))
    }
}
