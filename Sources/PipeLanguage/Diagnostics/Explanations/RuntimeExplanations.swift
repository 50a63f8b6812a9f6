extension SessionCode {
    /// What `plumb help E4xx` says about this code: see `Explanation`.
    var explanation: Explanation {
        switch self {
        case .sendToNonSubject:
            Explanation(
                "send, finish or fail went to a binding that is no longer a subject when the statement was performed.",
                arises:
                    "a statement checked against one session and performed after the binding changed (an editor or the room performing a statement compiled earlier). In a script the checker reports E313 instead."
            )
        case .typeNeedsOnePipeline:
            Explanation(
                ":type shows the Combine type of one pipeline; it was given several statements.",
                arises: "`:type just 1; just 2` or a :type with more than one line; give it one pipeline.")
        case .typeNeedsPipeline:
            Explanation(
                ":type shows the Combine type of a pipeline; it was given a binding, a send or an expect.",
                arises: "`:type let t = just 1`; write `:type t` or `:type just 1`.")
        case .bindingFailed:
            Explanation(
                "An eager binding (a subject, a current value, a future) is made when its let is performed, and making it failed. The failure's own id is reported when it has one.",
                arises: "a let whose instance cannot be made when it is performed; every such failure known today has its own id, so this one is a fallback.")
        case .bindingGone:
            Explanation(
                "The statement uses a binding that existed when it was checked and is gone when it is performed.",
                arises: "a :reset (or the room resetting a learner's session) between checking a statement and performing it.")
        case .channelNotRead:
            Explanation(
                "A channel's send waits until a reader takes the value (AsyncChannel's send suspends until a consumer's next() takes it). In a script nothing can start a reader while the send waits, so a send to a channel that no pipeline reads, or whose readers took nothing more before nothing more could happen on the virtual clock, would wait for ever: it is this error instead (at the prompt on the virtual clock too, where time moves only while something runs). At the prompt on the real clock the send says that it waits, and Ctrl-C gives the prompt back.",
                arises:
                    "`let c = channel` then `c.send 1` with no reader before it; start one first with `c | sink &` (a job), and it takes the value."
            )
        case .noTwinToCompare:
            Explanation(
                ":compare (and plumb compare) runs a pipeline twice: as written with Combine's publishers, and with `values` after its source so that every later stage is its async twin (swift-async-algorithms' or the standard library's). A stage with no async form cannot take part in the second run. `:help NAME` lists an operator's sides.",
                arises:
                    "`:compare just 1 | retry 2`: an async sequence cannot resubscribe, so `retry` has no twin. Compare the part of the pipeline before it, or write the crossing yourself (`just 1 | values | map { $0 } | publisher | retry 2`): :compare then runs that crossing as `stream` and as `values`."
            )
        }
    }
}

extension BuildCode {
    /// What `plumb help E5xx` says about this code: see `Explanation`.
    var explanation: Explanation {
        switch self {
        case .missingValue:
            Explanation(
                "A stage was built without an argument its builder needs. The checker reports a missing argument first (E308), so this is a fallback for a builder asked for more than its signature gives.",
                arises: "only from a catalog entry whose builder and signature disagree: a bug in plumb, worth reporting.")
        case .invalidValue:
            Explanation(
                "An argument that depends on $0 is evaluated when the nested pipeline is built for a value, and the value has the wrong kind for the stage.",
                example: "from [1, 2] | flatMap { from $0 }", fix: "from [1, 2] | flatMap { from [$0] }")
        case .periodNotPositive:
            Explanation(
                "interval needs a period above zero: a timer that fires every 0 ms would fire forever at one instant.",
                example: "from [0] | flatMap { interval $0 | take 1 }", fix: "from [100] | flatMap { interval $0 | take 1 }",
                combine: "Timer.publish(every:) with a zero interval fires as fast as the run loop turns, never letting time move on.")
        case .windowNotPositive:
            Explanation(
                "collect byTime: needs a window above zero.",
                example: "from [0] | flatMap { just 1 | collect byTime: $0 }", fix: "from [0] | flatMap { just 1 | collect byTime: ($0 + 100) }",
                combine: "collect(.byTime(scheduler, stride)) with a zero stride never closes a window.")
        case .predicateNotBool:
            Explanation(
                "filter's (and first's, contains's, allSatisfy's, prefix while:'s …) closure decides yes or no, so it must return a Bool.",
                example: "from [1, 2] | filter { $0 }", fix: "from [1, 2] | filter { $0 > 1 }",
                combine: "filter's closure is `(Output) -> Bool`.")
        case .flakyFailure:
            Explanation(
                "`asyncMap flaky N` fails its first N calls on purpose, to show retry at work; this is that failure.",
                example: "just 5 | asyncMap flaky 2", fix: "just 5 | asyncMap flaky 2 | retry 2",
                combine: "retry(n) resubscribes upstream after each failure, at most n times; each resubscription calls the async step again.")
        case .todo:
            Explanation(
                "The run reached a `todo`, an exercise's placeholder for your answer (the checker warned about it, W904).",
                example: "todo", fix: "just 1")
        }
    }
}

extension EvaluationCode {
    /// What `plumb help E6xx` says about this code: see `Explanation`.
    var explanation: Explanation {
        switch self {
        case .arithmeticOverflow:
            Explanation(
                "The result of an Int operation does not fit in 64 bits. The pipeline fails instead of wrapping around.",
                example: "just 9223372036854775807 | map { $0 + 1 }", fix: "just 9223372036854775807 | map { Double($0) + 1 }",
                combine: "Swift traps on Int overflow; in a Combine pipeline you would use tryMap and throw (or addingReportingOverflow).")
        case .divisionByZero:
            Explanation(
                "An Int divided (or taken modulo) by zero has no result; the pipeline fails with this error.",
                example: "just 1 | map { $0 / 0 }", fix: "just 1 | map { $0 / 1 }",
                combine: "Swift traps on division by zero; the language turns it into a failure, as a tryMap that throws would.")
        case .operandTypeMismatch:
            Explanation(
                "An operator was given two values it cannot combine (a String and an Int). The checker refuses this when it knows the kinds; an array of mixed values only shows it at run time.",
                example: "from [1, \"a\"] | map { $0 + 1 }", fix: "from [1, 2] | map { $0 + 1 }",
                combine: "a Combine publisher has one Output type, so Swift would reject the mixed array before it runs.")
        case .cannotNegate:
            Explanation(
                "Unary '-' applies to numbers only.",
                example: "from [1, \"a\"] | map { -$0 }", fix: "from [1, 2] | map { -$0 }")
        case .uncomparableValues:
            Explanation(
                "Values of different kinds (an Int and a String) have no order: max, min, sorting and '<' need comparable values.",
                example: "from [1, \"a\"] | max", fix: "from [1, 2] | max",
                combine: "max() needs Output: Comparable, one Output type for all values.")
        case .notOperandNotBool:
            Explanation(
                "'!' negates a Bool; this value is not one.",
                example: "from [1, true] | map { !$0 }", fix: "from [false, true] | map { !$0 }")
        case .logicalOperandNotBool:
            Explanation(
                "'&&' and '||' combine Bools; an operand is not one.",
                example: "from [1, true] | filter { $0 && true }", fix: "from [false, true] | filter { $0 && true }")
        case .conditionNotBool:
            Explanation(
                "The condition of `c ? a : b` must be a Bool.",
                example: "from [1, true] | map { $0 ? 1 : 2 }", fix: "from [false, true] | map { $0 ? 1 : 2 }")
        case .indexOutOfRange:
            Explanation(
                "An array or string index must be at least 0 and below its count.",
                example: "just [1, 2] | map { $0[5] }", fix: "just [1, 2] | map { $0[1] }",
                combine: "Swift traps on an index out of range; the language fails the pipeline instead.")
        case .indexNotInt:
            Explanation(
                "An index is an Int; this one is another kind.",
                example: "from [[1], [2]] | map { $0[\"a\"] }", fix: "from [[1], [2]] | map { $0[0] }")
        case .notIndexable:
            Explanation(
                "Only arrays and strings can be indexed with [ ].",
                example: "just 1 | map { $0[0] }", fix: "just [1] | map { $0[0] }")
        case .unknownMember:
            Explanation(
                "The value has no member of this name (arrays and strings have count, first, last, isEmpty …).",
                example: "just [1] | map { $0.banana }", fix: "just [1] | map { $0.count }")
        case .rangeBoundsNotInt:
            Explanation(
                "A range's bounds must be Ints.",
                example: "from [1, \"a\"] | map { 1...$0 }", fix: "from [1, 2] | map { 1...$0 }")
        case .rangeBoundsReversed:
            Explanation(
                "A range's lower bound must not be above its upper bound; here the bounds came from a value at run time.",
                example: "from [5] | flatMap { from $0...1 }", fix: "from [5] | flatMap { from 1...$0 }",
                combine: "Swift traps on `5...1`.")
        case .rangeTooLarge:
            Explanation(
                "A range used as a value (an array) has at most 1,000,000 elements. `from 1...N` as a source is not limited: it emits one at a time.",
                example: "just 1 | map { 1...1000000000 }", fix: "from 1...1000000000 | take 3")
        case .stringTooLarge:
            Explanation(
                "A string value is at most 16 MiB: a limit that keeps a run from taking the machine's memory.",
                arises: "a closure building a string over 16 MiB, such as a scan appending to a string for millions of values.")
        case .arrayTooLarge:
            Explanation(
                "An array value holds at most 1,000,000 elements: a limit that keeps a run from taking the machine's memory.",
                arises: "a closure building an array over 1,000,000 elements, such as `collect` or a scan over a long source, or joining two large arrays.")
        case .closureArgumentUnavailable:
            Explanation(
                "A closure read an argument it was not given. The lexer and the checker refuse $2 and above (E114, E312), so this is a fallback.",
                arises: "only if a closure's arguments and its operator disagree at run time: a bug in plumb, worth reporting.")
        case .unknownFunction:
            Explanation(
                "The name called in a closure is not a built-in function (abs, min, max, round, String, Int, Double …).",
                example: "just 1 | map { frobnicate($0) }", fix: "just 1 | map { abs($0) }")
        case .wrongArgumentCount:
            Explanation(
                "The built-in function takes a different number of arguments.",
                example: "just 1 | map { abs($0, 2) }", fix: "just 1 | map { abs($0) }")
        case .numberExpected:
            Explanation(
                "abs and round need a number (Int or Double).",
                example: "just \"a\" | map { abs($0) }", fix: "just -1 | map { abs($0) }")
        case .invalidConversion:
            Explanation(
                "Int(…) and Double(…) convert a value that reads as a number; this one does not.",
                example: "just \"x\" | map { Int($0) }", fix: "just \"12\" | map { Int($0) }",
                combine: "Swift's Int(\"x\") returns nil; the language fails instead, so a wrong input is seen. compactMap { Int($0) } would drop it.")
        }
    }
}
