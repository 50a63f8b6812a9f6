/// An object that announces changes before they happen, through `objectWillChange`.
///
/// A class adopting it gets `objectWillChange` for free: an `ObservableObjectPublisher` that every
/// `@Published` property of the object (its class's and its superclasses') sends before it
/// changes. A class without `@Published` properties gets a new, silent publisher each time, as in
/// Combine; it can declare its own `objectWillChange` instead.
///
/// ```swift
/// final class Model: ObservableObject {
///     @Published var name = ""
/// }
/// let model = Model()
/// let c = model.objectWillChange.sink { print("will change") }
/// model.name = "plumb"   // will change
/// ```
public protocol ObservableObject: AnyObject {
    /// The publisher that fires before the object changes.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// Fires before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The publisher shared by this object's `@Published` properties, found (by reflection) and
    /// attached to them the first time it is asked for.
    public var objectWillChange: ObservableObjectPublisher {
        var boxes: [PublishedBoxBase] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any PublishedProperty { boxes.append(property.publishedBox) }
            }
            mirror = current.superclassMirror
        }
        guard !boxes.isEmpty else { return ObservableObjectPublisher() }
        // One lock for the whole attach, so two threads asking at once agree on one publisher.
        return ObservableObjectPublisher.attaching.guarded {
            let shared =
                boxes.lazy.compactMap { box in box.lock.guarded { box.objectWillChange } }.first
                ?? ObservableObjectPublisher()
            for box in boxes {
                box.lock.guarded { box.objectWillChange = shared }
            }
            return shared
        }
    }
}

/// The publisher an `ObservableObject` gets by default: a signal with no value, sent before the
/// object changes.
public final class ObservableObjectPublisher: Publisher, Sendable {
    public typealias Output = Void
    public typealias Failure = Never

    private let subject = PassthroughSubject<Void, Never>()

    /// Serialises attaching a publisher to an object's `@Published` properties.
    static let attaching = Lock()

    /// Creates a publisher with no subscribers.
    public init() {}

    /// Tells every subscriber that the object is about to change.
    public func send() {
        subject.send(())
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }
}

/// A `@Published` wrapper, seen through reflection without knowing its value type.
protocol PublishedProperty {
    var publishedBox: PublishedBoxBase { get }
}

extension Published: PublishedProperty {
    var publishedBox: PublishedBoxBase { box }
}
