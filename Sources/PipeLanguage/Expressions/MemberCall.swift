/// One member of the closure language (`$0.count`, `$0.uppercased()`): everything about it in one
/// row, read by every pass that meets a member, as `BuiltinFunction` is for calls.
///
/// - `ExpressionCompiler` (the interpreter) looks the row up once, when it compiles the closure.
/// - `ExpressionKinds` (the static pass, `:type`) asks `kind` for the result kind.
/// - `Infallibility` asks `infallible` whether the member can fail for the kind its base has.
/// - `SwiftExpressions` (`:swift`) writes it with `swift`; `Printer` writes `()` after a method.
///
/// The table is `MemberCall.all` (`MemberCalls.swift`); a test fails for a row without an example
/// that evaluates to its expected value.
struct MemberCall: Sendable {
    /// What the language calls it (`count`).
    let name: String
    /// One line for people: what it gives.
    let summary: String
    /// An expression and the value it evaluates to (`[1, 2].count` is `2`), checked by a test.
    let example: (expression: String, value: Value)
    /// Whether Swift spells it as a method (`uppercased()`): the printer writes the parentheses.
    let isMethod: Bool
    /// The result kind and whether the member may fail, given its base's kind (`any` when
    /// unknown). Whether the base itself may fail is added by the caller.
    let kind: @Sendable (_ base: ValueKind) -> (kind: ValueKind, mayFail: Bool)
    /// The kind the result certainly has (nil when not certain) and whether the member cannot
    /// fail, given the kind its base certainly has (nil when not certain).
    let infallible: @Sendable (_ base: ValueKind?) -> (kind: ValueKind?, safe: Bool)
    /// The member of a value, or nil when the value has no such member (`unknownMember`).
    let evaluate: @Sendable (_ base: Value) -> Value?
    /// The Swift text given the base's text (wrapped as a postfix operand) and kind, with what
    /// Swift cannot say faithfully appended to `problems`; nil when Swift has no such member for
    /// that kind.
    let swift: @Sendable (_ base: String, _ kind: ValueKind, _ problems: inout [String]) -> (text: String, kind: ValueKind)?
}

extension MemberCall {
    /// The row called `name`, if any.
    static func named(_ name: String) -> MemberCall? { byName[name] }

    /// Every member's name, in the table's order.
    static let names: [String] = all.map(\.name)

    private static let byName: [String: MemberCall] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
