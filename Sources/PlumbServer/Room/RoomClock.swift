import Foundation

/// The teacher's table's time now, in seconds since 1970: the wall clock, plus an offset that a
/// browser test may add to see the table minutes later without waiting
/// (`POST /api/teacher/test/clock`, the stuck marker by time). The offset can move only in a room
/// started for tests: `PLUMB_SERVE_TEST_CLOCK=1` in `plumb serve`'s environment and the server on
/// loopback (`ServeCommand` checks both); anywhere else the route answers 404 as an unknown one.
final class RoomClock: Sendable {
    private let state = LockedState((movable: false, offset: 0.0))

    /// The wall clock plus the offset.
    var now: Double { Room.now + state.withLock { $0.offset } }

    /// Whether a test may move it.
    var isMovable: Bool { state.withLock { $0.movable } }

    /// Lets `advance` move it: a room started for tests only.
    func allowMoving() {
        state.withLock { $0.movable = true }
    }

    /// Moves it `seconds` later; false (and unmoved) when the room was not started for tests.
    func advance(seconds: Double) -> Bool {
        state.withLock { state in
            guard state.movable else { return false }
            state.offset += seconds
            return true
        }
    }
}
