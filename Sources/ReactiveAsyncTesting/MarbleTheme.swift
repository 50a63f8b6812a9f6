/// The tokens a marble test's diagrams are written in.
///
/// ``plumb`` is the `.pipe` language's notation (``MarbleNotation``). ``asyncAlgorithms`` is the
/// ASCII theme of swift-async-algorithms' `AsyncSequenceValidation` (its `Theme.swift`), so the
/// package's own tests run with their diagrams unchanged: `^` a failure, `[ ]` one instant, `;`
/// the consumer cancelled at that step, spaces only align. Everything else is shared: `-` a step,
/// `|` finish, `'text'` a longer value, a letter or digit a value. The package's later `,` token
/// (in its buffer tests) is not translated, so such a diagram is reported as invalid rather than
/// read wrongly.
///
/// ```swift
/// let result = validate(theme: .asyncAlgorithms) {
///     "a-c-e-g-|"
///     "-b-d-f-h"
///     merge($0.inputs[0], $0.inputs[1])
///     "abcdefgh|"
/// }
/// ```
public enum MarbleTheme: Sendable, Hashable {
    /// `-` `|` `#` `( )` `'text'`: the `.pipe` language's tokens.
    case plumb
    /// `-` `|` `^` `[ ]` `;` `'text'`: swift-async-algorithms' validation tokens.
    case asyncAlgorithms

    /// A diagram of this theme in ``MarbleNotation``, and the step of a `;` (a cancellation), if
    /// the diagram has one.
    ///
    /// In ``asyncAlgorithms``, an input diagram that ends without `|` or `^` finishes at the step
    /// after its last one: the package's tests expect that (its `merge` test's second input
    /// `"-b-d-f-h"` has no `|`, and the merged output ends). In ``plumb`` such an input never
    /// finishes.
    ///
    /// - Parameters:
    ///   - diagram: A diagram in this theme.
    ///   - input: Whether the diagram draws an input (rather than the expected output).
    /// - Returns: The diagram in ``MarbleNotation``; the step of its `;`, if any.
    public func translate(_ diagram: String, input: Bool = false) -> (diagram: String, cancelAt: Int?) {
        guard self == .asyncAlgorithms else { return (diagram, nil) }
        var translated = ""
        var cancelAt: Int?
        var step = 0
        var inQuote = false
        var inGroup = false
        var ended = false
        for character in diagram {
            // The package's diagrams may go on after `|` or `^` (its throttle tests' inputs do);
            // nothing after the end is produced, so it is dropped here.
            if ended && !inGroup { break }
            if inQuote {
                translated.append(character)
                if character == "'" {
                    inQuote = false
                    if !inGroup { step += 1 }
                }
                continue
            }
            switch character {
            case "'":
                inQuote = true
                translated.append(character)
            case "^":
                ended = true
                translated.append("#")
                if !inGroup { step += 1 }
            case "[":
                inGroup = true
                translated.append("(")
            case "]":
                inGroup = false
                translated.append(")")
                step += 1
            case ";":
                // The consumer is cancelled at this step; nothing is recorded for it.
                if cancelAt == nil { cancelAt = step }
                if !inGroup { step += 1 }
                translated.append(inGroup ? " " : "-")
            case " ":
                translated.append(" ")
            default:
                if character == "|" { ended = true }
                translated.append(character)
                if !inGroup { step += 1 }
            }
        }
        if input && !ended { translated.append("|") }
        return (translated, cancelAt)
    }
}
