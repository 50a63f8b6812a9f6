import Foundation

/// What a room serves and the limits it keeps.
public struct RoomConfiguration: Sendable {
    public var exercises: [RoomExercise]
    /// Where progress and the room's secrets are kept (`DIR/.plumb-room` by default).
    public var stateDirectory: URL
    public var worker: WorkerCommand
    public var runLimits = RunLimits()
    /// How many runs, waiting runs and learners the room takes at once.
    public var capacity = RoomCapacity()
    /// A learner not seen for this long must join again (their progress stays, for the teacher).
    public var idleSeconds: Double = 8 * 3600
    /// How many requests, joins and wrong tokens the room takes before it refuses with 429.
    public var rates = RequestRates()
    /// Live streams (server-sent events): per learner, teacher, client address and room.
    var streamLimits = EventHub.Limits()
    /// How often the teacher's stream gets the whole table even when nothing changed (the time
    /// spent on each exercise moves on), and every stream a keep-alive comment.
    public var tableRefreshSeconds: Double = 10
    public var keepAliveSeconds: Double = 15
    /// When the teacher's table marks a learner stuck.
    public var stuckRule = StuckRule()
    /// Told each problem with the room's state, one line naming the file: a damaged file set
    /// aside or repaired at start, a file that could not be saved.
    public var report: @Sendable (String) -> Void = { _ in }

    public init(exercises: [RoomExercise], stateDirectory: URL, worker: WorkerCommand = WorkerCommand()) {
        self.exercises = exercises
        self.stateDirectory = stateDirectory
        self.worker = worker
    }
}

/// How many runs, waiting runs and learners a room takes at once.
public struct RoomCapacity: Sendable {
    /// Children running at once; the rest wait in line.
    public var slots = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Runs waiting at most; past this a run is refused with 503.
    public var maxWaiting = 128
    /// Learners a room keeps at most (each is kept, with their progress, for the teacher's table:
    /// about 10 KiB each once they have checked every exercise); past this a join is refused with
    /// 503, so joining over and over cannot grow the server without bound.
    public var maxLearners = 1_000

    public init() {}
}

/// A token bucket's shape: a burst taken at once, then a steady rate.
public struct RequestRate: Sendable {
    public var burst: Double
    public var perSecond: Double

    public init(burst: Double, perSecond: Double) {
        self.burst = burst
        self.perSecond = perSecond
    }
}

/// The room's rate limits, each a burst and then a rate.
public struct RequestRates: Sendable {
    /// Requests per client address.
    public var client = RequestRate(burst: 600, perSecond: 300)
    /// Requests per learner.
    public var learner = RequestRate(burst: 40, perSecond: 10)
    /// Joins per client address (a class behind one address joins at once, then a slow rate),
    /// so that one client cannot fill the room with made-up learners.
    public var join = RequestRate(burst: 60, perSecond: 0.5)
    /// Wrong or missing tokens per client address before it is refused with 429.
    public var authFailure = RequestRate(burst: 30, perSecond: 0.5)

    public init() {}
}
