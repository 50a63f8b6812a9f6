/// The tokens a marble test's diagrams are written in.
///
/// ``plumb`` is the `.pipe` language's notation (``MarbleNotation``). ``asyncAlgorithms`` is the
/// ASCII theme of swift-async-algorithms' `AsyncSequenceValidation` (its `Theme.swift`), so the
/// package's own tests run with their diagrams unchanged: `^` a failure, `[ ]` one instant, `;`
/// the consumer cancelled at that step, `,` the consumer's next `next()` delayed to the following
/// step (``translate(_:input:)``), spaces only align. Everything else is shared: `-` a step, `|`
/// finish, `'text'` a longer value, a letter or digit a value.
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
    /// `-` `|` `^` `[ ]` `;` `,` `'text'`: swift-async-algorithms' validation tokens.
    case asyncAlgorithms

    /// A diagram of this theme read into ``MarbleNotation``: see ``translate(_:input:)``.
    public struct Translation: Sendable, Hashable {
        /// The diagram in ``MarbleNotation``.
        public var diagram: String
        /// The step of the diagram's first `;` (the consumer is cancelled there), if any.
        public var cancelAt: Int?
        /// When the consumer calls `next()`, in the order of its calls: the `k`th entry is the step
        /// at which call `k` is made (`-1`: at the start). `nil` in ``MarbleTheme/plumb``, whose
        /// consumer asks for the next element as soon as it has one.
        ///
        /// This is the package's "active ticks" (its `Test.swift`): the first call at the start,
        /// then one at the step of each expected event (so, once an element arrives, the next call
        /// is made at once), except that a `,` (delay next) moves the pending call to the step after
        /// the `,`. Calls past the end of the list are made at once.
        public var pulls: [Int]?
    }

    /// A diagram of this theme in ``MarbleNotation``, with the step of its `;` and, in
    /// ``asyncAlgorithms``, the consumer's schedule of `next()` calls (``Translation/pulls``).
    ///
    /// In ``asyncAlgorithms``, an input diagram that ends without `|` or `^` finishes at the step
    /// after its last one: the package's tests expect that (its `merge` test's second input
    /// `"-b-d-f-h"` has no `|`, and the merged output ends). In ``plumb`` such an input never
    /// finishes.
    ///
    /// `,` is the package's delay-next token (its `Event.swift` and `Test.swift`): it is a step of
    /// its own outside `[ ]` (none inside), with no event, and in the expected diagram it delays the
    /// consumer's next `next()` call to the step after it: `"X,,[1,]"` asks for `X` at the start,
    /// gets it at step 0, asks again at step 3, gets `1` there and asks once more at step 4. In an
    /// input it is only a step. This is how the package draws a slow consumer (its buffer tests).
    ///
    /// - Parameters:
    ///   - diagram: A diagram in this theme.
    ///   - input: Whether the diagram draws an input (rather than the expected output).
    /// - Returns: The diagram in ``MarbleNotation``, the step of its `;` and the consumer's pulls.
    public func translate(_ diagram: String, input: Bool = false) -> Translation {
        guard self == .asyncAlgorithms else { return Translation(diagram: diagram, cancelAt: nil, pulls: nil) }
        var translated = ""
        var cancelAt: Int?
        var pulls = [-1]
        var step = 0
        var inQuote = false
        // The open group's text and whether it holds an event: a group of only `,` is a step
        // with no event (`-`), as `( )` is not marble notation.
        var group: (text: String, hasEvent: Bool)?
        var ended = false
        func emit(_ text: String, event: Bool) {
            if group != nil {
                group?.text += text
                if event { group?.hasEvent = true }
            } else {
                translated += text
            }
            if event { pulls.append(step) }
        }
        for character in diagram {
            // The package's diagrams may go on after `|` or `^` (its throttle tests' inputs do);
            // nothing after the end is produced, so it is dropped here.
            if ended && group == nil { break }
            let inGroup = group != nil
            if inQuote {
                if character == "'" {
                    inQuote = false
                    emit("'", event: true)
                    if !inGroup { step += 1 }
                } else {
                    emit(String(character), event: false)
                }
                continue
            }
            switch character {
            case "'":
                inQuote = true
                emit("'", event: false)
            case "^":
                ended = true
                emit("#", event: true)
                if !inGroup { step += 1 }
            case "[":
                group = ("", false)
            case "]":
                if let closed = group { translated += closed.hasEvent ? "(" + closed.text + ")" : "-" }
                group = nil
                step += 1
            case ";":
                // The consumer is cancelled at this step; nothing is recorded for it.
                if cancelAt == nil { cancelAt = step }
                pulls.append(step)
                emit(inGroup ? " " : "-", event: false)
                if !inGroup { step += 1 }
            case ",":
                // Delay next: the call that would be made now waits for the next step.
                pulls[pulls.count - 1] = step + 1
                emit(inGroup ? " " : "-", event: false)
                if !inGroup { step += 1 }
            case " ":
                emit(" ", event: false)
            case "-":
                emit("-", event: false)
                if !inGroup { step += 1 }
            default:
                if character == "|" { ended = true }
                emit(String(character), event: true)
                if !inGroup { step += 1 }
            }
        }
        if let open = group { translated += "(" + open.text }
        if input && !ended { translated.append("|") }
        return Translation(diagram: translated, cancelAt: cancelAt, pulls: input ? nil : pulls)
    }
}
