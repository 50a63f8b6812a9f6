/// The session's diagnostics: what `execute` can still find wrong once `compile` has checked a
/// statement (the session's state can change between the two), and `:type`'s.
enum SessionCode: Int, DiagnosticCode {
    static let layer = "session"
    case sendToNonSubject = 401
    // 402-405 were cannot-evaluate and expect-needs-array/integer/duration: the checker now
    // evaluates every statement's constants (`CheckedStatement`), so `execute` cannot meet them.
    case typeNeedsOnePipeline = 406
    case typeNeedsPipeline = 407
    case bindingFailed = 408
    case bindingGone = 409
    /// `:compare`: a stage after the source has no async twin.
    case noTwinToCompare = 410
    /// A send to a channel that no reader took (a script's send with nobody reading the channel).
    case channelNotRead = 411
}

extension Message {
    static func notSubjectAtRunTime(_ name: String) -> Message { Message(SessionCode.sendToNonSubject, "'\(name)' is not a subject") }
    static let typeNeedsOnePipeline = Message(SessionCode.typeNeedsOnePipeline, ":type takes one pipeline")
    static let typeNeedsPipeline = Message(SessionCode.typeNeedsPipeline, ":type takes a pipeline")
    /// Making an eager binding's instance failed (`let c = currentValue …`): the failure's own id.
    static func bindingFailed(_ error: PipelineError) -> Message {
        error.id.map { Message(id: $0, text: error.message) } ?? Message(SessionCode.bindingFailed, error.message)
    }
    static func channelNotRead(_ name: String, value: String, reason: ChannelSend.NotTaken) -> Message {
        Message(SessionCode.channelNotRead, "nobody took \(value) from channel '\(name)': \(reason.phrase)")
    }
    static func bindingGone(_ name: String) -> Message {
        Message(SessionCode.bindingGone, "'\(name)' is no longer bound (the session was reset after this statement was read)")
    }
}
