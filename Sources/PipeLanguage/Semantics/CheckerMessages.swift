/// The checker's diagnostics: name resolution, argument matching, constant arguments, and the
/// static pass's warnings.
enum CheckerCode: Int, DiagnosticCode {
    static let layer = "checker"
    case unknownSource = 301
    case unknownOperator = 302
    case operatorFirst = 303
    case sourceAfterBar = 304
    case terminalNotLast = 305
    case terminalNested = 306
    case tooManyArguments = 307
    case missingArgument = 308
    case unknownLabel = 309
    case wrongArgument = 310
    case dollarOutsideClosure = 311
    case dollarOutOfRange = 312
    case notSubject = 313
    case unknownSubject = 314
    case reservedBinding = 315
    case bindingTakesNoArguments = 316
    case unquotedName = 317
    case unknownBinding = 318
    case invertedRange = 319
    case missingStep = 320
    case stepClosureNotExpression = 321
    case stepNeedsArgument = 322
    case unknownStep = 323
    case invalidStep = 324
    case invalidConstant = 325
    case impossibleOperation = 326
    case pipelineTooLarge = 327
    case bindingHadErrors = 328
    case choiceConditionNotBool = 329
    case invalidMarble = 330
    case kindsDoNotJoin = 331
    case noFormOnSide = 332
    case crossingTwice = 333
    case channelSentAfterFinish = 334
    case channelCannotFail = 335
    case retryHasNoEffect = 901
    case replaceErrorHasNoEffect = 902
    case catchHasNoEffect = 903
    case todoLeft = 904
}

extension Message {
    static func channelSentAfterFinish(_ name: String) -> Message {
        Message(CheckerCode.channelSentAfterFinish, "channel '\(name)' is finished: a send after \(name).finish is dropped, nobody can take it")
    }
    static func channelCannotFail(_ name: String) -> Message {
        Message(CheckerCode.channelCannotFail, "'\(name)' is a channel, and an AsyncChannel cannot fail: only finish ends it")
    }
    static func noFormOnSide(_ name: String, side: Side) -> Message {
        let other: Side = side == .async ? .publisher : .async
        return Message(CheckerCode.noFormOnSide, "'\(name)' has no form on \(side.phrase): it is \(other.phrase)'s operator")
    }
    static func crossingTwice(_ name: String, after previous: String?, side: Side) -> Message {
        if let previous {
            return Message(CheckerCode.crossingTwice, "'\(name)' right after '\(previous)' crosses twice in a row: the two crossings undo each other")
        }
        return Message(CheckerCode.crossingTwice, "'\(name)' crosses to \(side.phrase), and the stages before it already are one")
    }
    static func kindsDoNotJoin(_ name: String, upstream: String, other: String) -> Message {
        Message(CheckerCode.kindsDoNotJoin, "'\(name)' would mix \(other) values into a publisher of \(upstream) values")
    }
    static func unknownSource(_ name: String) -> Message { Message(CheckerCode.unknownSource, "unknown source or binding '\(name)'") }
    static func unknownOperator(_ name: String) -> Message { Message(CheckerCode.unknownOperator, "unknown operator '\(name)'") }
    static func operatorFirst(_ name: String) -> Message {
        Message(CheckerCode.operatorFirst, "'\(name)' is an operator; a pipeline starts with a source such as 'just' or 'from'")
    }
    static func sourceAfterBar(_ name: String) -> Message { Message(CheckerCode.sourceAfterBar, "'\(name)' is a source and cannot follow '|'") }
    static func terminalNotLast(_ name: String) -> Message {
        Message(CheckerCode.terminalNotLast, "'\(name)' ends a pipeline; it must be the last stage")
    }
    static func terminalNested(_ name: String) -> Message {
        Message(CheckerCode.terminalNested, "'\(name)' can only end a statement, not a nested pipeline")
    }
    static func tooManyArguments(_ name: String) -> Message { Message(CheckerCode.tooManyArguments, "too many arguments for '\(name)'") }
    static func missingArgument(_ name: String, _ placeholder: String) -> Message {
        Message(CheckerCode.missingArgument, "'\(name)' is missing its \(placeholder) argument")
    }
    static func unknownLabel(_ name: String, _ label: String) -> Message {
        Message(CheckerCode.unknownLabel, "'\(name)' has no argument labelled '\(label):'")
    }
    static func wrongArgument(_ name: String, _ what: String, got: String) -> Message {
        Message(CheckerCode.wrongArgument, "\(name) expects \(what), got \(got)")
    }
    static func dollarOutsideClosure(_ n: Int) -> Message {
        Message(CheckerCode.dollarOutsideClosure, "$\(n) is only available inside a closure")
    }
    static func dollarOutOfRange(_ name: String, _ n: Int, arity: Int) -> Message {
        let takes = arity == 1 ? "one argument ($0)" : "\(arity) arguments ($0…$\(arity - 1))"
        return Message(CheckerCode.dollarOutOfRange, "$\(n) is not available: \(name)'s closure takes \(takes)")
    }
    static func notSubject(_ name: String) -> Message {
        Message(CheckerCode.notSubject, "'\(name)' is not a subject; only 'subject' and 'currentValue' bindings accept send, finish and fail")
    }
    static func unknownSubject(_ name: String) -> Message { Message(CheckerCode.unknownSubject, "unknown subject '\(name)'") }
    static func reservedBinding(_ name: String) -> Message {
        Message(CheckerCode.reservedBinding, "cannot bind '\(name)': it is the name of a catalog entry")
    }
    static let bindingTakesNoArguments = Message(CheckerCode.bindingTakesNoArguments, "a binding takes no arguments")
    static func unknownName(_ word: String, expectedBy name: String) -> Message {
        Message(CheckerCode.unquotedName, "unknown name '\(word)': \(name) expects a value here (strings are quoted)")
    }
    static func unknownBinding(_ name: String) -> Message { Message(CheckerCode.unknownBinding, "unknown binding '\(name)'") }
    static func invertedRange(_ lower: Int, _ upper: Int) -> Message {
        Message(CheckerCode.invertedRange, Message.rangeBoundsReversed(lower, upper).text)
    }
    static let missingStep = Message(CheckerCode.missingStep, "asyncMap needs a step")
    static let stepClosureNotExpression = Message(CheckerCode.stepClosureNotExpression, "asyncMap's closure must be an expression")
    static func stepNeedsArgument(_ text: String) -> Message { Message(CheckerCode.stepNeedsArgument, text) }
    static func unknownStep(_ word: String) -> Message { Message(CheckerCode.unknownStep, "unknown asyncMap step '\(word)'") }
    static func invalidStep(_ got: String) -> Message { Message(CheckerCode.invalidStep, "asyncMap expects a step, got \(got)") }
    /// A constant argument whose evaluation fails (`just 1 / 0`): the evaluator's message and id.
    static func invalidConstant(_ error: PipelineError) -> Message {
        error.id.map { Message(id: $0, text: error.message) } ?? Message(CheckerCode.invalidConstant, error.message)
    }

    static func bindingHadErrors(_ name: String) -> Message {
        Message(CheckerCode.bindingHadErrors, "'\(name)' is not bound: its let has errors (reported above)")
    }

    static func choiceConditionNotBool(_ kind: String) -> Message {
        Message(CheckerCode.choiceConditionNotBool, "the condition of ?: must be a Bool, got \(kind)")
    }

    static func invalidMarble(_ reason: String) -> Message {
        Message(CheckerCode.invalidMarble, "invalid marble string: \(reason)")
    }

    static func pipelineTooLarge(_ size: Int) -> Message {
        let count = size >= Limits.maxExpandedStages * 1_000 ? "far more than \(Limits.maxExpandedStages)" : "\(size)"
        return Message(
            CheckerCode.pipelineTooLarge,
            "this pipeline expands to \(count) stages, with its bindings and nested pipelines (the limit is \(Limits.maxExpandedStages))")
    }

    static let retryHasNoEffect = Message(CheckerCode.retryHasNoEffect, "retry has no effect: upstream never fails")
    static let replaceErrorHasNoEffect = Message(
        CheckerCode.replaceErrorHasNoEffect, "replaceError on a publisher that never fails has no effect")
    static let todoLeft = Message(CheckerCode.todoLeft, "todo: this is where your answer goes")
    static let catchHasNoEffect = Message(CheckerCode.catchHasNoEffect, "catch on a publisher that never fails has no effect")
}

extension Checker {
    /// A note at a binding's name: `'s' was bound here`.
    static func boundHere(_ name: String) -> String { "'\(name)' was bound here" }
    /// A note at a `let` that had errors: `'s' is not bound: its let is here`.
    static func notBoundHere(_ name: String) -> String { "the let of '\(name)' is here" }
    /// E331's note at the stage before: `the Int values come from here`.
    static func valuesComeFrom(_ kind: String) -> String { "the \(kind) values come from here" }
}
