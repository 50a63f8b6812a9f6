/// The closure interpreter's run-time errors (a pipeline fails with them): numbered from 601.
enum EvaluationCode: Int, DiagnosticCode {
    static let layer = "evaluation"

    // Arithmetic
    case arithmeticOverflow = 601
    case divisionByZero
    case operandTypeMismatch
    case cannotNegate
    case uncomparableValues

    // Bool
    case notOperandNotBool
    case logicalOperandNotBool
    case conditionNotBool

    // Arrays, strings, ranges
    case indexOutOfRange
    case indexNotInt
    case notIndexable
    case unknownMember
    case rangeBoundsNotInt
    case rangeBoundsReversed
    case rangeTooLarge
    case stringTooLarge
    case arrayTooLarge

    // Functions and arguments
    case closureArgumentUnavailable
    case unknownFunction
    case wrongArgumentCount
    case numberExpected
    case invalidConversion
}

extension Message {
    /// `-(i)`, `abs(i)`: an operation on one Int that does not fit.
    static func arithmeticOverflow(_ operation: String) -> Message {
        Message(EvaluationCode.arithmeticOverflow, "arithmetic overflow: \(operation)")
    }

    static func arithmeticOverflow(_ a: Int, _ op: String, _ b: Int) -> Message {
        Message(EvaluationCode.arithmeticOverflow, "arithmetic overflow: \(a) \(op) \(b)")
    }

    static func divisionByZero(_ dividend: Value, _ op: String, _ divisor: Value) -> Message {
        Message(EvaluationCode.divisionByZero, "division by zero: \(dividend) \(op) \(divisor)")
    }

    static func operandTypeMismatch(_ op: String, _ x: Value, _ y: Value) -> Message {
        Message(EvaluationCode.operandTypeMismatch, "cannot apply '\(op)' to \(x.typed) and \(y.typed)")
    }

    static func cannotNegate(_ v: Value) -> Message {
        Message(EvaluationCode.cannotNegate, "cannot negate \(v.typed)")
    }

    static func uncomparableValues(_ x: Value, _ y: Value) -> Message {
        Message(EvaluationCode.uncomparableValues, "cannot compare \(x.typed) with \(y.typed)")
    }

    static let notOperandNotBool = Message(EvaluationCode.notOperandNotBool, "'!' needs a Bool")

    static func logicalOperandNotBool(_ op: String) -> Message {
        Message(EvaluationCode.logicalOperandNotBool, "'\(op)' needs Bool operands")
    }

    static let conditionNotBool = Message(EvaluationCode.conditionNotBool, "the condition of '?:' must be a Bool")

    static func indexOutOfRange(_ index: Int, count: Int) -> Message {
        Message(EvaluationCode.indexOutOfRange, "index \(index) out of range (count \(count))")
    }

    static func indexNotInt(_ index: Value) -> Message {
        Message(EvaluationCode.indexNotInt, "index must be an Int, got \(index.typed)")
    }

    static func notIndexable(_ v: Value) -> Message {
        Message(EvaluationCode.notIndexable, "cannot index \(v.typed)")
    }

    static func unknownMember(_ name: String, of v: Value) -> Message {
        Message(EvaluationCode.unknownMember, "\(v.typeName) has no member '\(name)'")
    }

    static let rangeBoundsNotInt = Message(EvaluationCode.rangeBoundsNotInt, "range bounds must be Int")

    static func rangeBoundsReversed(_ a: Int, _ b: Int) -> Message {
        Message(EvaluationCode.rangeBoundsReversed, "range \(a)...\(b) has its lower bound above its upper bound")
    }

    static func rangeTooLarge(_ a: Int, _ b: Int) -> Message {
        Message(EvaluationCode.rangeTooLarge, "range \(a)...\(b) is too large for a value")
    }

    static func stringTooLarge(_ bytes: Int) -> Message {
        Message(EvaluationCode.stringTooLarge, "string of \(bytes) bytes is over the limit of \(Limits.maxStringBytes) bytes (16 MiB)")
    }

    static func arrayTooLarge(_ count: Int) -> Message {
        Message(EvaluationCode.arrayTooLarge, "array of \(count) elements is over the limit of \(Limits.maxArrayCount)")
    }

    static func closureArgumentUnavailable(_ n: Int) -> Message {
        Message(EvaluationCode.closureArgumentUnavailable, "$\(n) is not available (closures take at most two arguments)")
    }

    static func unknownFunction(_ name: String) -> Message {
        Message(EvaluationCode.unknownFunction, "unknown function '\(name)'")
    }

    static func wrongArgumentCount(_ name: String, expected: Int, got: Int) -> Message {
        Message(EvaluationCode.wrongArgumentCount, "\(name) takes \(expected) argument\(expected == 1 ? "" : "s"), got \(got)")
    }

    /// `abs` or `round` given something that is not a number.
    static func numberExpected(_ function: String, got v: Value) -> Message {
        Message(EvaluationCode.numberExpected, "\(function) needs a number, got \(v.typed)")
    }

    /// `Int(…)` or `Double(…)` of a value that has no such reading. Strings and doubles show only
    /// the value (`cannot convert "x" to Int`), other kinds their type too.
    static func invalidConversion(_ v: Value, to type: String, showingType: Bool) -> Message {
        Message(EvaluationCode.invalidConversion, "cannot convert \(showingType ? v.typed : v.description) to \(type)")
    }
}
