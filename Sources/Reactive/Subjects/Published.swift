/// A property of a class that publishes its changes: `$property` is a publisher of its values.
///
/// A subscriber of `$property` receives the current value, then each new value as it is set.
/// As in Combine, values are published when the property is about to change (*will set*): a
/// subscriber that reads the property meanwhile still sees the old value. In an
/// `ObservableObject`, setting the property first sends the object's `objectWillChange`.
///
/// ```swift
/// final class Model: ObservableObject {
///     @Published var count = 0
/// }
/// let model = Model()
/// let c = model.$count.sink { print($0) }   // 0
/// model.count = 1                            // 1
/// ```
@propertyWrapper
public struct Published<Value> {
    /// Where the value lives: shared by copies of the wrapper, its publisher and `assign(to:)`.
    @usableFromInline var box: PublishedBox<Value>

    /// Creates a published property with an initial value.
    public init(wrappedValue: Value) {
        box = PublishedBox(wrappedValue)
    }

    /// Creates a published property with an initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The publisher of this property's values (`$property`).
    ///
    /// Assigning to it (`a.$x = b.$x`) changes nothing, as in Combine: the property keeps its
    /// own value and its own subscribers. The setter exists for `assign(to: &$property)`.
    public var projectedValue: Publisher {
        mutating get { Publisher(box: box) }
        set {}
    }

    /// Reads and writes the property of a class instance (how Swift calls a wrapper of a class
    /// property): writing sends the object's `objectWillChange`, then the new value, then stores it.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set { object[keyPath: storageKeyPath].box.set(newValue) }
    }

    /// The publisher of a `@Published` property's values: the current value first, then each
    /// value the property is set to. It never completes.
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        @usableFromInline let box: PublishedBox<Value>

        @usableFromInline init(box: PublishedBox<Value>) { self.box = box }

        /// A stand-alone publisher of `output` and the values later assigned through it.
        public init(_ output: Output) {
            box = PublishedBox(output)
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject.receive(subscriber: subscriber)
        }
    }
}

extension Publisher where Failure == Never {
    /// Writes every value to a `@Published` property, through its publisher (`&$property`).
    ///
    /// The subscription lives as long as the property's object and ends with it: there is no
    /// `AnyCancellable` to keep, and the object is not retained, so no cycle forms.
    ///
    /// ```swift
    /// numbers.map { $0 * 2 }.assign(to: &model.$count)
    /// ```
    /// - Parameter published: The property's publisher, `$property`.
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(PublishedAssignSubscriber(box: published.box))
    }
}

/// Shared by all `PublishedBox`es, so `ObservableObject` can find them without knowing `Value`.
@usableFromInline
class PublishedBoxBase {
    @usableFromInline let lock = Lock()
    /// The object's `objectWillChange`, once it has been asked for (guarded by `lock`).
    @exclusivity(unchecked) var objectWillChange: ObservableObjectPublisher?
    /// Subscriptions made by `assign(to:)`, cancelled when the property goes (guarded by `lock`).
    @exclusivity(unchecked) var assignments: [any Subscription] = []

    @usableFromInline init() {}

    deinit {
        for subscription in assignments { subscription.cancel() }
    }
}

/// A `@Published` property's value and the subject that publishes it.
@usableFromInline
final class PublishedBox<Value>: PublishedBoxBase {
    /// The stored value (guarded by `lock`); it changes after the new value is published.
    @exclusivity(unchecked) var stored: Value
    let subject: CurrentValueSubject<Value, Never>

    init(_ value: Value) {
        stored = value
        subject = CurrentValueSubject(value)
        super.init()
    }

    var value: Value { lock.guarded { stored } }

    /// Sends `objectWillChange`, publishes `newValue`, then stores it (Combine's *will set* order).
    func set(_ newValue: Value) {
        lock.guarded { objectWillChange }?.send()
        subject.send(newValue)
        let old = lock.guarded { () -> Value in
            defer { stored = newValue }
            return stored
        }
        withExtendedLifetime(old) {}  // released after the lock
    }
}

/// The subscriber `assign(to:)` makes: it holds the property weakly and cancels once it is gone.
final class PublishedAssignSubscriber<Value>: Subscriber, CustomStringConvertible {
    typealias Input = Value
    typealias Failure = Never

    private weak var box: PublishedBox<Value>?
    private let lock = Lock()
    @exclusivity(unchecked) private var subscribed = false

    init(box: PublishedBox<Value>) { self.box = box }

    var description: String { "Assign" }

    func receive(subscription: any Subscription) {
        let accepted = lock.guarded { () -> Bool in
            if subscribed { return false }
            subscribed = true
            return true
        }
        guard accepted, let box else {
            subscription.cancel()  // C06, or the property is already gone
            return
        }
        box.lock.guarded { box.assignments.append(subscription) }
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        box?.set(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
