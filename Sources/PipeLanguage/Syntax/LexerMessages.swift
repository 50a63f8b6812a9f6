/// The lexer's diagnostics: one case per message, numbered from 101.
enum LexerCode: Int, DiagnosticCode {
    static let layer = "lexer"

    // Strings
    case unterminatedString = 101
    case unterminatedInterpolation = 102
    case invalidEscape = 103
    case invalidUnicodeEscape = 104
    case controlCharacterInString = 105

    // Brackets
    case unterminatedClosure = 106
    case unterminatedArray = 107
    case unterminatedParenthesis = 108

    // Numbers and durations
    case integerLiteralOverflow = 109
    case floatingPointLiteralTooLarge = 110
    case unknownDurationUnit = 111
    case durationTooLong = 112

    // Closure arguments
    case missingClosureArgumentNumber = 113
    case closureArgumentOutOfRange = 114
    // 115 was missing-command-name: `:` lines are the shell's now, taken out before lexing.

    // Characters
    case unexpectedCharacter = 116
    case controlCharacter = 117
    case invalidUtf8 = 118
    case halfOpenRange = 119
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
        Message(LexerCode.durationTooLong, "duration '\(literal)' is too long: the longest is \(DurationLiteral.longest)")
    }

    static let missingClosureArgumentNumber = Message(
        LexerCode.missingClosureArgumentNumber, "expected a number after '$' (as in $0)")

    static func closureArgumentOutOfRange(_ spelling: String) -> Message {
        Message(LexerCode.closureArgumentOutOfRange, "closure argument '\(spelling)' is out of range (use $0 or $1)")
    }

    static let halfOpenRange = Message(LexerCode.halfOpenRange, "half-open ranges ('..<') are not part of the language; ranges include their end ('...')")

    static func unexpectedCharacter(_ scalar: Unicode.Scalar) -> Message {
        // An invisible character (a byte order mark, a zero-width space) is named, not quoted.
        let invisible = scalar.properties.generalCategory == .format || (scalar.properties.isWhitespace && scalar.value > 0x7F)
        if invisible {
            let name = scalar.properties.name.map { " (\($0))" } ?? ""
            return Message(LexerCode.unexpectedCharacter, "unexpected invisible character U+\(hex(scalar.value))\(name)")
        }
        return Message(LexerCode.unexpectedCharacter, "unexpected character '\(scalar)'")
    }

    static func controlCharacter(_ value: UInt32) -> Message {
        Message(LexerCode.controlCharacter, "control character U+\(hex(value)) is not allowed here")
    }

    static let invalidUtf8 = Message(LexerCode.invalidUtf8, "invalid UTF-8 in the source")
}
