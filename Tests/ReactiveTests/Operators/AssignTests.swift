import Reactive
import ReactiveTestSupport
import Testing
import Foundation

private final class Box {
    var value = 0
}

/// An object whose deinit calls back into the pipeline that writes to it.
private final class SignalsOnDeinit {
    var value = 0
    let onDeinit: () -> Void
    init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

@Suite("Subscribers.Assign and assign(to:on:)")
struct AssignTests {
    @Test("writes every value to the property")
    func values() {
        let box = Box()
        let cancellable = [1, 2, 3].publisher.assign(to: \.value, on: box)
        #expect(box.value == 3)
        cancellable.cancel()
    }

    @Test("requests unlimited; a second subscription is cancelled (C06)")
    func demand() {
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        let assign = Subscribers.Assign(object: Box(), keyPath: \Box.value)
        first.subscribe(assign)
        second.subscribe(assign)
        #expect(first.last?.requested == [.unlimited])
        #expect(second.last?.isCancelled == true)
        #expect(first.last?.isCancelled == false)
    }

    @Test("C17 completion releases the object")
    func completionReleases() {
        weak var weakBox: Box?
        let assign: Subscribers.Assign<Box, Int>
        do {
            let box = Box()
            weakBox = box
            assign = Subscribers.Assign(object: box, keyPath: \.value)
            [1].publisher.subscribe(assign)
        }
        #expect(weakBox == nil)
        #expect(assign.object == nil)
    }

    @Test("C16 cancel is forwarded upstream, releases the object, and later values are ignored")
    func cancel() {
        let source = ManualPublisher<Int, Never>()
        let box = Box()
        let assign = Subscribers.Assign(object: box, keyPath: \.value)
        source.subscribe(assign)
        source.send(1)
        assign.cancel()
        assign.cancel()
        #expect(source.last?.cancelCount == 1)
        #expect(assign.object == nil)
        source.send(2)
        #expect(box.value == 1)
    }

    @Test("C23 an object whose deinit sends .finished while the assign is cancelled is released after the lock (no deadlock)")
    func cancelReleasesOutsideLock() {
        let returned = returnsInTime {
            let source = ManualPublisher<Int, Never>()
            var assign: Subscribers.Assign<SignalsOnDeinit, Int>?
            do {
                let object = SignalsOnDeinit { source.send(completion: .finished) }
                assign = Subscribers.Assign(object: object, keyPath: \.value)
            }
            source.subscribe(assign!)
            source.send(1)
            assign!.cancel()
            precondition(assign!.object == nil)
        }
        #expect(returned)
    }

    @Test("C23 an object whose deinit sends a value when the completion releases it does not deadlock")
    func completionReleasesOutsideLock() {
        let returned = returnsInTime {
            let source = ManualPublisher<Int, Never>()
            var assign: Subscribers.Assign<SignalsOnDeinit, Int>?
            do {
                let object = SignalsOnDeinit { source.send(2) }
                assign = Subscribers.Assign(object: object, keyPath: \.value)
            }
            source.subscribe(assign!)
            source.send(1)
            source.send(completion: .finished)
            precondition(assign!.object == nil)
        }
        #expect(returned)
    }
}
