/// The builders' run-time failures: arguments that only have a value once `$0` is bound, and the
/// operators' own failures. A user's own message (`fail "boom"`, `asyncMap fail "…"`, `s.fail "…"`)
/// has no id: it is not the language's.
enum BuildCode: Int, DiagnosticCode {
    static let layer = "build"
    case missingValue = 501
    case invalidValue = 502
    case periodNotPositive = 503
    case windowNotPositive = 504
    case predicateNotBool = 505
    case flakyFailure = 506
    case todo = 507
}

extension Message {
    static func missingBuildArgument(_ name: String, _ what: String) -> Message {
        Message(BuildCode.missingValue, "\(name): missing \(what)")
    }
    static func wrongBuildArgument(_ name: String, _ what: String, got: String? = nil) -> Message {
        Message(BuildCode.invalidValue, "\(name) expects \(what)" + (got.map { ", got \($0)" } ?? ""))
    }
    static let periodNotPositive = Message(BuildCode.periodNotPositive, "interval needs a period of at least 1ns (durations are whole nanoseconds)")
    static let windowNotPositive = Message(BuildCode.windowNotPositive, "collect byTime: needs a window of at least 1ns (durations are whole nanoseconds)")
    static func predicateNotBool(_ name: String) -> Message { Message(BuildCode.predicateNotBool, "\(name)'s closure must return a Bool") }
    static let todo = Message(BuildCode.todo, "this is where your answer goes")
    static func flakyFailure(_ call: Int, of n: Int) -> Message { Message(BuildCode.flakyFailure, "flaky failure \(call) of \(n)") }
}
