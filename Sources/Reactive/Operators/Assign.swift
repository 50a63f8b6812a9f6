extension Subscribers {
    /// A subscriber that writes every value to a property of an object, requesting unlimited values.
    ///
    /// It keeps the object strongly until it completes or is cancelled, then releases it.
    ///
    /// ```swift
    /// final class Label { var text = "" }
    /// let label = Label()
    /// let c = ["a", "b"].publisher.assign(to: \.text, on: label)   // label.text == "b"
    /// ```
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible {
        public typealias Failure = Never

        private let lock = Lock()
        @exclusivity(unchecked) private var _object: Root?
        @exclusivity(unchecked) private var upstream: (any Subscription)?
        @exclusivity(unchecked) private var status = Status.awaitingSubscription
        private enum Status { case awaitingSubscription, subscribed, terminated }

        /// The property written.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object written to; `nil` once the subscriber has completed or been cancelled.
        public var object: Root? { lock.guarded { _object } }

        /// Creates a subscriber that writes each value to `object[keyPath: keyPath]`.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            _object = object
            self.keyPath = keyPath
        }

        public var description: String { object.map { "Assign \(type(of: $0))." } ?? "Assign" }

        public func receive(subscription: any Subscription) {
            let accepted = lock.guarded { () -> Bool in
                guard status == .awaitingSubscription else { return false }
                status = .subscribed
                upstream = subscription
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()  // C06
            }
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            let target = lock.guarded { status == .subscribed ? _object : nil }
            target?[keyPath: keyPath] = value
            return .none
        }

        // The object and the upstream are taken out under the lock and released after it: the
        // object's deinit may call back into this subscriber (C23).
        public func receive(completion: Subscribers.Completion<Never>) {
            let released = lock.guarded { () -> (Root?, (any Subscription)?) in
                status = .terminated
                return (_object.take(), upstream.take())
            }
            withExtendedLifetime(released) {}
        }

        public func cancel() {
            let (object, taken) = lock.guarded { () -> (Root?, (any Subscription)?) in
                guard status != .terminated else { return (nil, nil) }
                status = .terminated
                return (_object.take(), self.upstream.take())
            }
            taken?.cancel()
            withExtendedLifetime(object) {}
        }
    }
}

extension Publisher where Failure == Never {
    /// Writes every value to a property of `object`.
    ///
    /// ```swift
    /// let c = Just("hi").assign(to: \.text, on: label)
    /// ```
    /// - Parameters:
    ///   - keyPath: The property written.
    ///   - object: The object written to; kept until completion or cancel.
    /// - Returns: A cancellable that cancels the subscription when cancelled or deinitialised.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
