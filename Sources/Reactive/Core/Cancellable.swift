import Synchronization

/// Something whose activity can be cancelled, such as a subscription.
public protocol Cancellable {
    /// Stops the activity and frees its resources. Calling it again does nothing.
    func cancel()
}

/// A type-erased cancellable that cancels when it is deinitialised.
///
/// Keep it (for instance with `store(in:)`) for as long as the subscription should live.
///
/// ```swift
/// var bag = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &bag)
/// ```
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    // @unchecked: `action` is touched only by the one caller that wins `cancelled` (or by deinit,
    // when no other reference exists), so it runs at most once and is never read concurrently.
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) var action: Action

    /// What to run. A cancellable object (a `Sink`, say) is kept as a class existential, with no
    /// closure allocated around it; every case is a reference or two, so moving an `Action` never
    /// goes through value witnesses.
    @usableFromInline
    enum Action {
        case none
        case closure(() -> Void)
        case object(any Cancellable & AnyObject)

        @usableFromInline
        func run() {
            switch self {
            case .none: break
            case .closure(let body): body()
            case .object(let target): target.cancel()
            }
        }
    }

    /// Wraps a closure that runs once, on the first `cancel()` or at deinit.
    public init(_ cancel: @escaping () -> Void) {
        action = .closure(cancel)
    }

    /// Wraps another cancellable.
    public init<C: Cancellable>(_ canceller: C) {
        action = .closure { canceller.cancel() }
    }

    /// Wraps another cancellable that is an object (the common case: a subscriber such as `Sink`).
    @inlinable
    public init<C: Cancellable & AnyObject>(_ canceller: C) {
        action = .object(canceller)
    }

    deinit {
        if !cancelled.load(ordering: .acquiring) { action.run() }
    }

    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var run = Action.none
        swap(&run, &action)
        run.run()
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Adds this cancellable to a set, keeping it alive as long as the set.
    public func store(in set: inout Set<AnyCancellable>) { set.insert(self) }

    /// Appends this cancellable to a collection, keeping it alive as long as the collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }
}

extension Cancellable {
    /// Wraps this cancellable in an `AnyCancellable` and adds it to a set.
    public func store(in set: inout Set<AnyCancellable>) { AnyCancellable(self).store(in: &set) }

    /// Wraps this cancellable in an `AnyCancellable` and appends it to a collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }
}
