extension LexerCode {
    /// What `plumb help E1xx` says about this code: see `Explanation`.
    var explanation: Explanation {
        switch self {
        case .unterminatedString:
            Explanation(
                "A string starts with '\"' and must end with '\"' on the same line. A string that runs to the end of its line is not closed.",
                example: #"just "abc"#, fix: #"just "abc""#)
        case .unterminatedInterpolation:
            Explanation(
                #"An interpolation '\(' inside a string must be closed with ')' before the string ends."#,
                example: #"just "a\(1""#, fix: #"just "a\(1)""#)
        case .invalidEscape:
            Explanation(
                #"A backslash in a string starts an escape, and only these exist: \n \t \r \0 \\ \" \u{…} and \(…). To write a backslash itself, double it."#,
                example: #"just "a\q""#, fix: #"just "a\\q""#)
        case .invalidUnicodeEscape:
            Explanation(
                #"A unicode escape is '\u' and a hexadecimal code point in braces, as in \u{1F600}; anything else after '\u' is an error."#,
                example: #"just "\u{zz}""#, fix: #"just "\u{1F600}""#)
        case .controlCharacterInString:
            Explanation(
                #"A string cannot hold a raw control character (a tab, a bell, a carriage return typed or pasted into it): write it as an escape (\t, \r, \u{7})."#,
                arises: "a control character pasted between the quotes of a string; a snippet cannot show an invisible character, so this one has none.")
        case .unterminatedClosure:
            Explanation(
                "A closure opened with '{' is never closed with '}' before the text ends.",
                example: "just 1 | map { $0", fix: "just 1 | map { $0 }")
        case .unterminatedArray:
            Explanation(
                "An array opened with '[' is never closed with ']' before the text ends.",
                example: "just [1, 2", fix: "just [1, 2]")
        case .unterminatedParenthesis:
            Explanation(
                "A '(' is never closed with ')' before the text ends.",
                example: "just (1 + 2", fix: "just (1 + 2)")
        case .integerLiteralOverflow:
            Explanation(
                "An integer literal must fit in an Int (64 bits, at most 9223372036854775807). Write a Double (with a '.') for larger numbers.",
                example: "just 99999999999999999999", fix: "just 99999999999999999999.0",
                combine: "the values are Swift's Int, which traps on overflow; plumb refuses the literal instead.")
        case .floatingPointLiteralTooLarge:
            Explanation(
                "A floating-point literal must be finite as a Double (below about 1.8e308).",
                example: "just 1e999", fix: "just 1e300")
        case .unknownDurationUnit:
            Explanation(
                "A duration is a number and a unit: ns, us (or µs), ms, s, m or h. Anything else after a number's digits is not a unit.",
                example: "interval 100xs | take 1", fix: "interval 100ms | take 1")
        case .durationTooLong:
            Explanation(
                "A duration must fit in Swift's Duration (about 292 years in nanoseconds).",
                example: "timer 99999999999999h", fix: "timer 1h")
        case .missingClosureArgumentNumber:
            Explanation(
                "Inside a closure, '$' is followed by the number of the argument: $0 is the value, $1 the second argument of a closure that takes two (scan, reduce).",
                example: "just 1 | map { $ }", fix: "just 1 | map { $0 }")
        case .closureArgumentOutOfRange:
            Explanation(
                "Closures take one or two arguments, $0 and $1; a number of three digits or more after '$' is never one (a smaller one the operator does not give is E312).",
                example: "just 1 | map { $100 }", fix: "just 1 | map { $0 }",
                combine: "a Combine closure has one parameter per value it receives: map's `(Output) -> T`, scan's `(Result, Output) -> Result`.")
        case .unexpectedCharacter:
            Explanation(
                "A character that is not part of the language (or an invisible one, such as a zero-width space pasted with the text).",
                example: "just 1 ~ 2", fix: "just 1 + 2")
        case .controlCharacter:
            Explanation(
                "A control character outside a string (other than a tab or a line end) is not part of the language: it is usually left over from pasting.",
                arises:
                    "a control character (U+0000 to U+001F, U+007F) in the text outside a string; a snippet cannot show an invisible character, so this one has none."
            )
        case .invalidUtf8:
            Explanation(
                "The file's bytes are not valid UTF-8: plumb reads .pipe files as UTF-8 text.",
                arises: "a file saved in another encoding (Latin-1, UTF-16) or a binary file given to plumb run; convert it to UTF-8.")
        case .halfOpenRange:
            Explanation(
                "Ranges in the language include their end ('1...3' is 1, 2, 3); Swift's half-open '..<' is not part of it.",
                example: "from 1..<4", fix: "from 1...3")
        }
    }
}
