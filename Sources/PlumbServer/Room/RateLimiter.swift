import Foundation

/// Token buckets by key (a client address, a learner): `capacity` requests at once, refilled at
/// `perSecond`. Keys idle long enough to be full again are forgotten, so the table stays small
/// however many clients come and go.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: UInt64
    }

    let capacity: Double
    let perSecond: Double
    private let buckets = LockedState<[String: Bucket]>([:])

    init(capacity: Double, perSecond: Double) {
        self.capacity = capacity
        self.perSecond = perSecond
    }

    /// A limiter of `rate`'s burst and steady rate.
    convenience init(_ rate: RequestRate) {
        self.init(capacity: rate.burst, perSecond: rate.perSecond)
    }

    /// Takes one token for `key`; false when none is left (the request is refused with 429).
    func allow(_ key: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        buckets.withLock { table in
            var bucket = table[key] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = Double(now &- bucket.updated) / 1e9
            bucket.tokens = min(capacity, bucket.tokens + elapsed * perSecond)
            bucket.updated = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            table[key] = bucket
            if table.count > 10_000 {
                let full = UInt64(capacity / perSecond * 1e9)
                table = table.filter { now &- $0.value.updated < full }
            }
            return allowed
        }
    }
}
