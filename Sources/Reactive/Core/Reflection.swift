// Combine's subscribers and type erasers show themselves in playgrounds and debuggers by their
// description and a mirror: `playgroundDescription` is the description, as in Combine; the
// mirrors list what Combine's do (an `Assign` its object and key path, the others nothing).

extension Subscribers.Sink: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children: the closures are not shown.
    public var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }
    /// The description, `"Sink"`.
    public var playgroundDescription: Any { description }
}

extension Subscribers.Assign: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The object (while assigned to) and the key path.
    public var customMirror: Mirror {
        let children: [Mirror.Child] = [("object", object as Any), ("keyPath", keyPath)]
        return Mirror(self, children: children)
    }
    /// The description, `"Assign Root."`.
    public var playgroundDescription: Any { description }
}

extension AnyPublisher: CustomPlaygroundDisplayConvertible {
    /// The description, `"AnyPublisher"`.
    public var playgroundDescription: Any { description }
}

extension AnySubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// No children: the wrapped subscriber is shown by the description.
    public var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }
    /// The description, the wrapped subscriber's.
    public var playgroundDescription: Any { description }
}
