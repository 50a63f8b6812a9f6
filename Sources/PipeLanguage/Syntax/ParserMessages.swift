/// The parser's diagnostics: one case per message, numbered from 201.
enum ParserCode: Int, DiagnosticCode {
    static let layer = "parser"

    // Statements
    case tooManyErrors = 201
    case unexpectedTokenAfterStatement = 202
    case missingBindingPipeline = 203
    case backgroundBinding = 204
    case missingBindingName = 205
    case missingBindingEquals = 206
    case sendNeedsValue = 207
    case failNeedsMessage = 208
    case unknownSubjectCommand = 209
    case expectValuesNeedsArray = 210
    case expectFailedNeedsMessage = 211
    case expectCountNeedsNumber = 212
    case expectTimeNeedsDuration = 213

    // Pipelines and arguments
    case trailingPipe = 214
    case missingStage = 215
    case pipelineTooLong = 216
    // 217 was command-not-at-line-start: `:` lines are the shell's now, taken out before parsing.
    case expectedStage = 218
    case missingLabelValue = 219
    case unexpectedTokenAfterLabel = 220
    case negativeDuration = 221
    case expectedArgument = 222

    // Expressions
    case unclosedBracket = 223
    case expectedToken = 224
    case nestingTooDeep = 225
    case expressionTooComplex = 226
    case emptyClosure = 227
    case chainedComparison = 228
    case durationInExpression = 229
    case unknownName = 230
    case expectedValue = 231

    // Interpolations
    case invalidInterpolation = 232
    case unexpectedTokenInInterpolation = 233
    case emptyInterpolation = 234
    case branchNotPublisher = 235
    case expectMarblesNeedsString = 236
    case expectSubscriptionsNeedsBinding = 237
    case expectStartedNeedsDuration = 238
    case unknownExpectation = 239
    case assignmentInExpression = 240
}

extension Message {
    static func unknownExpectation(_ word: String?) -> Message {
        Message(ParserCode.unknownExpectation, word.map { "unknown expectation '\($0)'" } ?? "expect needs what to check")
    }
    static let assignmentInExpression = Message(
        ParserCode.assignmentInExpression, "'=' assigns, and closures cannot assign: to compare, use '=='")
    static let tooManyErrors = Message(ParserCode.tooManyErrors, "too many errors; stopping here")

    /// - Parameter found: how the parser describes the token (`'x'`, `a string`, `the end of the line`).
    static func unexpectedTokenAfterStatement(_ found: String) -> Message {
        Message(ParserCode.unexpectedTokenAfterStatement, "unexpected \(found) after the end of the statement")
    }

    static let missingBindingPipeline = Message(ParserCode.missingBindingPipeline, "expected a pipeline after '='")

    static let backgroundBinding = Message(ParserCode.backgroundBinding, "'&' cannot follow a binding: 'let' does not subscribe")

    static let missingBindingName = Message(ParserCode.missingBindingName, "expected a name after 'let'")

    static func missingBindingEquals(_ name: String) -> Message {
        Message(ParserCode.missingBindingEquals, "expected '=' after 'let \(name)'")
    }

    static func sendNeedsValue(_ subject: String, found: String) -> Message {
        Message(ParserCode.sendNeedsValue, "\(subject).send expects a value, found \(found)")
    }

    static func failNeedsMessage(_ subject: String, found: String) -> Message {
        Message(ParserCode.failNeedsMessage, "\(subject).fail expects a message string, found \(found)")
    }

    static func unknownSubjectCommand(_ verb: String) -> Message {
        Message(ParserCode.unknownSubjectCommand, "unknown subject command '\(verb)' (use send, finish or fail)")
    }

    static let expectValuesNeedsArray = Message(
        ParserCode.expectValuesNeedsArray, "expect values needs an array, as in expect values [1, 2]")

    static let expectFailedNeedsMessage = Message(
        ParserCode.expectFailedNeedsMessage, "expect failed needs a message string, as in expect failed \"boom\"")

    static let expectCountNeedsNumber = Message(ParserCode.expectCountNeedsNumber, "expect count needs a number, as in expect count 3")

    static let expectSubscriptionsNeedsBinding = Message(
        ParserCode.expectSubscriptionsNeedsBinding,
        "expect subscriptions needs a binding's name and a count, as in expect subscriptions ticks 1")

    static let expectStartedNeedsDuration = Message(
        ParserCode.expectStartedNeedsDuration, "expect started needs a duration, as in expect started 300ms")

    static let expectTimeNeedsDuration = Message(
        ParserCode.expectTimeNeedsDuration, "expect time needs a duration, as in expect time 100ms")

    static let trailingPipe = Message(ParserCode.trailingPipe, "expected a stage after '|'")

    static func missingStage(found punctuation: String) -> Message {
        Message(ParserCode.missingStage, "expected a stage after '|', found '\(punctuation)'")
    }

    static let pipelineTooLong = Message(
        ParserCode.pipelineTooLong, "pipeline is too long (the limit is \(Parser.maxStages) stages)")

    static func expectedStage(found: String) -> Message {
        Message(ParserCode.expectedStage, "expected a source or operator name, found \(found)")
    }

    static func missingLabelValue(_ label: String) -> Message {
        Message(ParserCode.missingLabelValue, "expected a value after '\(label):'")
    }

    static func unexpectedTokenAfterLabel(_ label: String, found punctuation: String) -> Message {
        Message(ParserCode.unexpectedTokenAfterLabel, "expected a value after '\(label):', found '\(punctuation)'")
    }

    static let negativeDuration = Message(ParserCode.negativeDuration, "a duration cannot be negative")

    static func expectedArgument(found: String) -> Message {
        Message(ParserCode.expectedArgument, "expected an argument, found \(found)")
    }

    /// - Parameters:
    ///   - closer: the missing `)`, `]` or `}`.
    ///   - opener: the bracket it should close, and where that is (`1:14`).
    static func unclosedBracket(_ closer: String, opener: String, line: Int, column: Int, found: String) -> Message {
        Message(
            ParserCode.unclosedBracket,
            "expected '\(closer)' to close '\(opener)' opened at \(line):\(column), found \(found)")
    }

    static func expectedToken(_ punctuation: String, found: String) -> Message {
        Message(ParserCode.expectedToken, "expected '\(punctuation)', found \(found)")
    }

    static let nestingTooDeep = Message(
        ParserCode.nestingTooDeep, "nesting is too deep (the limit is \(Parser.maxNesting) levels)")

    static let expressionTooComplex = Message(
        ParserCode.expressionTooComplex, "expression is too complex (more than \(Parser.maxExpressionDepth) levels); split it up")

    static let emptyClosure = Message(ParserCode.emptyClosure, "empty closure: write an expression or a pipeline inside '{ }'")

    static let chainedComparison = Message(ParserCode.chainedComparison, "comparisons cannot be chained; use '&&'")

    static let durationInExpression = Message(
        ParserCode.durationInExpression, "a duration is not a value here; write milliseconds as a number")

    static func unknownName(_ name: String) -> Message {
        Message(ParserCode.unknownName, "unknown name '\(name)' in an expression")
    }

    static func expectedValue(found: String) -> Message {
        Message(ParserCode.expectedValue, "expected a value, found \(found)")
    }

    static let invalidInterpolation = Message(ParserCode.invalidInterpolation, "invalid interpolation")

    static func unexpectedTokenInInterpolation(_ found: String) -> Message {
        Message(ParserCode.unexpectedTokenInInterpolation, "unexpected \(found) in interpolation")
    }

    static let emptyInterpolation = Message(ParserCode.emptyInterpolation, "empty interpolation '\\()'")
}

extension Message {
    static let branchNotPublisher = Message(
        ParserCode.branchNotPublisher,
        "this branch is not a publisher: when one branch of ?: chooses a publisher, both must (write a pipeline in parentheses, or a binding's name)")
}

extension Message {
    static let expectMarblesNeedsString = Message(
        ParserCode.expectMarblesNeedsString, "expect marbles needs a marble string, as in expect marbles \"-a-b-|\"")
}
