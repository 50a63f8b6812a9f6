/// The lexer's diagnostics: one case per message, numbered from 101.
enum LexerCode: Int, DiagnosticCode {
    static let layer = "lexer"

    // Strings
    case unterminatedString = 101
    case unterminatedInterpolation
    case invalidEscape
    case invalidUnicodeEscape
    case controlCharacterInString

    // Brackets
    case unterminatedClosure
    case unterminatedArray
    case unterminatedParenthesis

    // Numbers and durations
    case integerLiteralOverflow
    case floatingPointLiteralTooLarge
    case unknownDurationUnit
    case durationTooLong

    // Closure arguments and commands
    case missingClosureArgumentNumber
    case closureArgumentOutOfRange
    case missingCommandName

    // Characters
    case unexpectedCharacter
    case controlCharacter
    case invalidUtf8
}

extension Message {
    static let unterminatedString = Message(LexerCode.unterminatedString, "unterminated string literal")

    static let unterminatedInterpolation = Message(
        LexerCode.unterminatedInterpolation, "unterminated interpolation: '\\(' is never closed")

    static let invalidEscape = Message(LexerCode.invalidEscape, "invalid escape sequence in string")

    static let invalidUnicodeEscape = Message(LexerCode.invalidUnicodeEscape, "invalid unicode escape (write \\u{1F600})")

    static func controlCharacterInString(_ value: UInt32) -> Message {
        Message(LexerCode.controlCharacterInString, "control character U+\(hex(value)) is not allowed in a string (write an escape)")
    }

    /// `{`, `[` or `(` never closed: the message names what it opened.
    static func unterminatedBracket(_ opener: UInt8) -> Message {
        switch opener {
        case UInt8(ascii: "{"): Message(LexerCode.unterminatedClosure, "unterminated closure: '{' is never closed")
        case UInt8(ascii: "["): Message(LexerCode.unterminatedArray, "unterminated array: '[' is never closed")
        default: Message(LexerCode.unterminatedParenthesis, "unterminated parenthesis: '(' is never closed")
        }
    }

    static func integerLiteralOverflow(_ literal: String) -> Message {
        Message(LexerCode.integerLiteralOverflow, "integer literal '\(literal)' overflows Int (largest is \(Int.max))")
    }

    static func floatingPointLiteralTooLarge(_ literal: String) -> Message {
        Message(LexerCode.floatingPointLiteralTooLarge, "floating-point literal '\(literal)' is too large")
    }

    static func unknownDurationUnit(_ unit: String) -> Message {
        Message(LexerCode.unknownDurationUnit, "unknown duration unit '\(unit)' (use \(DurationLiteral.unitList))")
    }

    static func durationTooLong(_ literal: String) -> Message {
        Message(LexerCode.durationTooLong, "duration '\(literal)' is too long")
    }

    static let missingClosureArgumentNumber = Message(
        LexerCode.missingClosureArgumentNumber, "expected a number after '$' (as in $0)")

    static func closureArgumentOutOfRange(_ spelling: String) -> Message {
        Message(LexerCode.closureArgumentOutOfRange, "closure argument '\(spelling)' is out of range (use $0 or $1)")
    }

    static let missingCommandName = Message(LexerCode.missingCommandName, "expected a command name after ':' (try :help)")

    static func unexpectedCharacter(_ scalar: Unicode.Scalar) -> Message {
        Message(LexerCode.unexpectedCharacter, "unexpected character '\(scalar)'")
    }

    static func controlCharacter(_ value: UInt32) -> Message {
        Message(LexerCode.controlCharacter, "control character U+\(hex(value)) is not allowed here")
    }

    static let invalidUtf8 = Message(LexerCode.invalidUtf8, "invalid UTF-8 in the source")
}
