extension CheckerCode {
    /// What `plumb help E3xx` or `W9xx` says about this code: see `Explanation`.
    var explanation: Explanation {
        switch self {
        case .unknownSource:
            Explanation(
                "A pipeline starts with a source (just, from, interval …) or a binding's name, and this name is neither. `:ops` lists the sources.",
                example: "jsut 1", fix: "just 1")
        case .unknownOperator:
            Explanation(
                "After '|' comes an operator from the catalog, and this name is not one. `:ops` lists the operators.",
                example: "just 1 | mapp { $0 }", fix: "just 1 | map { $0 }",
                combine:
                    "some methods are not stages in plumb, which does their job itself: eraseToAnyPublisher() and store(in:) can simply go (the fix-it takes them out), and for assign(to:on:) and cancel() the help line says what plumb does instead."
            )
        case .operatorFirst:
            Explanation(
                "An operator transforms what comes from upstream, so it cannot start a pipeline: start with a source.",
                example: "map { $0 }", fix: "just 1 | map { $0 }",
                combine: "operators are methods on a Publisher (`Just(1).map { $0 }`); there is no map without a publisher to call it on.")
        case .sourceAfterBar:
            Explanation(
                "A source makes values of its own and takes none from upstream, so it cannot follow '|'. To combine two sources, use merge, append, zip, combineLatest or flatMap.",
                example: "just 1 | just 2", fix: "just 1 | append (just 2)",
                combine: "Just, Publishers.Sequence and Timer are publishers, not operators; they have no upstream.")
        case .terminalNotLast:
            Explanation(
                "sink, values and async subscribe and end the pipeline; nothing can come after them.",
                example: "just 1 | sink | map { $0 }", fix: "just 1 | map { $0 } | sink",
                combine: "sink returns an AnyCancellable, not a publisher: there is nothing to call map on.")
        case .terminalNested:
            Explanation(
                "A nested pipeline (in flatMap, merge, catch …) is a publisher that the outer operator subscribes to; it cannot subscribe itself with a terminal.",
                example: "just 1 | flatMap { just $0 | sink }", fix: "just 1 | flatMap { just $0 }",
                combine: "flatMap's closure returns a Publisher; it never calls sink.")
        case .tooManyArguments:
            Explanation(
                "The stage was given more arguments than any of its signatures takes. `:help NAME` shows its signatures.",
                example: "just 1 2 3", fix: "from [1, 2, 3]")
        case .missingArgument:
            Explanation(
                "The stage needs an argument it was not given. `:help NAME` shows its signatures.",
                example: "just 1 | take", fix: "just 1 | take 1")
        case .unknownLabel:
            Explanation(
                "The stage has no argument with this label. `:help NAME` shows the labels it takes.",
                example: "just 1 | merge with: (just 2)", fix: "just 1 | merge (just 2)")
        case .wrongArgument:
            Explanation(
                "The argument has the wrong kind for the stage (a string where a count goes, a value where a closure goes).",
                example: "just 1 | take \"two\"", fix: "just 1 | take 2")
        case .dollarOutsideClosure:
            Explanation(
                "$0 and $1 are a closure's arguments, and only exist inside '{ }'.",
                example: "just $0", fix: "just 1 | map { $0 }")
        case .dollarOutOfRange:
            Explanation(
                "This operator's closure takes fewer arguments than the one named: map's takes one ($0); scan's and reduce's take two ($0, the accumulator, and $1, the value).",
                example: "just 1 | map { $1 }", fix: "just 1 | scan 0 { $0 + $1 }",
                combine: "map's closure is `(Output) -> T`, scan's `(Result, Output) -> Result`.")
        case .notSubject:
            Explanation(
                "send, finish and fail go to a subject; this binding names another publisher, which makes its own values.",
                example: "let t = just 1\nt.send 2", fix: "let t = subject\nt.send 2",
                combine: "only a Subject has send(_:); a Just or a map cannot be told what to emit.")
        case .unknownSubject:
            Explanation(
                "send, finish and fail go to a subject bound with let; no binding has this name.",
                example: "q.send 1", fix: "let q = subject\nq.send 1")
        case .reservedBinding:
            Explanation(
                "A binding cannot take the name of a source, operator or terminal: the name would be ambiguous after '|'.",
                example: "let map = just 1", fix: "let one = just 1")
        case .bindingTakesNoArguments:
            Explanation(
                "A binding names a whole pipeline; it takes no arguments. To vary it, use a closure in a flatMap.",
                example: "let t = just 1\nt 5", fix: "let t = just 1\nt")
        case .unquotedName:
            Explanation(
                "A word where the stage expects a value: strings are quoted.",
                example: "just 1 | replaceError oops", fix: "fail \"x\" | replaceError \"oops\"")
        case .unknownBinding:
            Explanation(
                "The name must be a binding made earlier with let.",
                example: "just 1\nexpect subscriptions nobody 1", fix: "let t = just 1\nt\nexpect subscriptions t 1")
        case .invertedRange:
            Explanation(
                "A range's lower bound must not be above its upper bound: '5...1' is empty in no useful way. To count down, reverse the values with map.",
                example: "from 5...1", fix: "from 1...5 | map { 6 - $0 }",
                combine: "Swift traps on `5...1` (\"Range requires lowerBound <= upperBound\").")
        case .missingStep:
            Explanation(
                "asyncMap runs an async step per value, named after it: delay D, delay D { expr }, flaky N, fail \"message\" or { expr }.",
                example: "just 1 | asyncMap", fix: "just 1 | asyncMap delay 100ms")
        case .stepClosureNotExpression:
            Explanation(
                "asyncMap's closure computes one value per value (an expression), not a publisher; to map each value to a publisher, use flatMap.",
                example: "just 1 | asyncMap { just $0 }", fix: "just 1 | asyncMap { $0 * 2 }",
                combine: "an async map awaits one value per input (`try await transform(value)`); flatMap merges publishers.")
        case .stepNeedsArgument:
            Explanation(
                "This asyncMap step needs its argument: delay a duration, flaky a count, fail a message.",
                example: "just 1 | asyncMap flaky", fix: "just 1 | asyncMap flaky 2 | retry 2")
        case .unknownStep:
            Explanation(
                "asyncMap's steps are delay D, delay D { expr }, flaky N, fail \"message\" and { expr }.",
                example: "just 1 | asyncMap wait 100ms", fix: "just 1 | asyncMap delay 100ms")
        case .invalidStep:
            Explanation(
                "asyncMap's first argument names a step (delay, flaky, fail) or is a closure.",
                example: "just 1 | asyncMap 5", fix: "just 1 | asyncMap { 5 }")
        case .invalidConstant:
            Explanation(
                "An argument that does not depend on $0 is evaluated when the text is checked, and its evaluation failed. The evaluation's own id is reported when it has one (`just 1 / 0` is E602); this id is for a failure without one.",
                arises:
                    "every failure the evaluator has today carries its own id (E6xx), so no text reports E325 itself; it remains for a constant that fails in a way no E6xx names."
            )
        case .impossibleOperation:
            Explanation(
                "The checker knows the kinds of the values (`:type` shows them), and this operation cannot apply to them, so it would fail for every value.",
                example: "just 1 | map { $0 + \"a\" }", fix: "just 1 | map { String($0) + \"a\" }",
                combine: "Swift checks the same at compile time: `1 + \"a\"` does not type-check.")
        case .pipelineTooLarge:
            Explanation(
                "A pipeline, with its bindings and nested pipelines expanded, has at most 1,000 stages: each use of a binding builds its stages again, so bindings that use each other twice double at every level.",
                example: """
                    let a = just 1 | merge (just 2)
                    let b = a | merge (a)
                    let c = b | merge (b)
                    let d = c | merge (c)
                    let e = d | merge (d)
                    let f = e | merge (e)
                    let g = f | merge (f)
                    let h = g | merge (g)
                    let i = h | merge (h)
                    """,
                fix: "let a = just 1 | merge (just 2)\nlet b = a | merge (a)\nlet c = b | merge (b)\nc",
                combine: "publishers are values: a publisher used twice is subscribed twice, and builds its chain of subscriptions twice.")
        case .bindingHadErrors:
            Explanation(
                "The binding's let had errors (reported above it), so the name was never bound; fix that let first.",
                example: "let t = jsut 1\nt", fix: "let t = just 1\nt")
        case .choiceConditionNotBool:
            Explanation(
                "The condition of `c ? a : b` choosing between publishers must be a Bool.",
                example: "just 1 | flatMap { $0 ? (just 1) : (just 2) }", fix: "just 1 | flatMap { $0 > 0 ? (just 1) : (just 2) }")
        case .invalidMarble:
            Explanation(
                "A marble string is frames: '-' nothing, a letter or digit a value, (ab) several values in one frame, '|' finished, '#' failed. Nothing can follow a completion.",
                example: "marble \"-a-b-|-\"", fix: "marble \"-a-b-|\"",
                combine: "a publisher sends at most one completion, and nothing after it.")
        case .kindsDoNotJoin:
            Explanation(
                "merge, append, prepend, replaceError, catch and their kin put two publishers' values into one stream, so both must have the same kind of value (Int, String …).",
                example: "just 1 | merge (just \"a\")", fix: "just 1 | merge (just 2)",
                combine:
                    "one publisher has one Output type: Publishers.Merge requires `A.Output == B.Output`, and `Just(1).merge(with: Just(\"a\"))` does not compile."
            )
        case .noFormOnSide:
            Explanation(
                "A stage name resolves by the side it stands on: after `values` (or `stream`) the stages are AsyncSequence operators (swift-async-algorithms' and the standard library's), before it, or after `publisher`, Combine's. This stage has no form on its side; cross first. `:help NAME` shows which sides an operator has.",
                example: "just 1 | values | map { $0 } | scan 0 { $0 + $1 }", fix: "just 1 | values | map { $0 } | publisher | scan 0 { $0 + $1 }",
                combine: "an AsyncSequence has no `retry` (a `for await` loop cannot resubscribe), and a Publisher has no `adjacentPairs`.")
        case .crossingTwice:
            Explanation(
                "`values` and `stream` cross from a publisher to an async sequence and `publisher` crosses back; two crossings in a row undo each other, and crossing to the side the pipeline is already on does nothing. Remove one.",
                example: "just 1 | values | publisher | map { $0 }", fix: "just 1 | map { $0 }")
        case .channelSentAfterFinish:
            Explanation(
                "`c.finish` ended the channel: every reader's iteration ended, and swift-async-algorithms' AsyncChannel returns from a later send at once without delivering its element, so the value would vanish. Send before the finish, or bind a new channel.",
                example: "let c = channel\nc | sink &\nc.finish\nc.send 1", fix: "let c = channel\nc | sink &\nc.send 1\nc.finish",
                combine: "AsyncChannel's send(_:) after finish() returns at once and drops the element; a subject ignores a send after completion.")
        case .channelCannotFail:
            Explanation(
                "A channel is swift-async-algorithms' AsyncChannel, whose Failure is Never: it ends only by `finish`. A subject can fail (`let s = subject`, `s.fail \"x\"`).",
                example: "let c = channel\nc.fail \"down\"", fix: "let c = channel\nc.finish",
                combine: "AsyncChannel has finish() only; AsyncThrowingChannel adds fail(_:).")
        case .retryHasNoEffect:
            Explanation(
                "retry resubscribes after a failure; the stages before it never fail, so it never does anything.",
                example: "just 1 | retry 3", fix: "just 1 | asyncMap flaky 2 | retry 3",
                combine: "retry only acts on a failure; over a publisher whose Failure is Never it is a no-op.")
        case .replaceErrorHasNoEffect:
            Explanation(
                "replaceError replaces a failure; the stages before it never fail, so it never does anything.",
                example: "just 1 | replaceError 0", fix: "just 1 | asyncMap fail \"boom\" | replaceError 0",
                combine: "replaceError(with:) exists to turn Failure into Never; upstream's Failure is Never already.")
        case .catchHasNoEffect:
            Explanation(
                "catch replaces a failure with another pipeline; the stages before it never fail, so it never does anything.",
                example: "just 1 | catch { just 0 }", fix: "fail \"boom\" | catch { just 0 }",
                combine: "catch acts only on a failure; over a publisher whose Failure is Never it is a no-op.")
        case .todoLeft:
            Explanation(
                "A `todo` is still in the text: an exercise's placeholder for your answer. Running it fails there (E507).",
                example: "todo", fix: "just 1")
        }
    }
}
