import Foundation
import Synchronization

/// A value behind a `Mutex`, shared by reference: the server's state lives in these, and no
/// handler or callback is called while one is held.
final class LockedState<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout sending Value) throws -> sending Result) rethrows -> Result {
        try mutex.withLock(body)
    }
}
