import Reactive
import ReactiveTestSupport
import Testing

private final class Model: ObservableObject {
    @Published var count = 0
    @Published var name = "a"
    var plain = 0
}

private class Base: ObservableObject {
    @Published var base = 0
}

private final class Derived: Base {
    @Published var derived = 0
}

private final class Silent: ObservableObject {
    var value = 0
}

private final class Custom: ObservableObject {
    let objectWillChange = PassthroughSubject<Void, Never>()
    @Published var value = 0
}

@Suite("Subjects: @Published, ObservableObject, assign(to:)")
struct PublishedTests {
    @Test("$property publishes the current value, then every new value")
    func projected() {
        let model = Model()
        let sub = TestSubscriber<Int, Never>()
        model.$count.subscribe(sub)
        model.count = 1
        model.count = 2
        #expect(sub.values == [0, 1, 2])
        #expect(model.count == 2)
        #expect(sub.completion == nil)
    }

    @Test("values are published before the property changes (will set), as in Combine")
    func willSet() {
        let model = Model()
        var seen: [String] = []
        let c = model.$count.dropFirst().sink { value in seen.append("\(value) while \(model.count)") }
        model.count = 5
        #expect(seen == ["5 while 0"])
        c.cancel()
    }

    @Test("C11 the projected publisher respects demand; a new subscriber gets the latest value")
    func demand() {
        let model = Model()
        let sub = TestSubscriber<Int, Never>(initialDemand: .none)
        model.$count.subscribe(sub)
        model.count = 3
        sub.request(.max(1))
        #expect(sub.values == [3])
        let late = TestSubscriber<Int, Never>()
        model.$count.subscribe(late)
        #expect(late.values == [3])
    }

    @Test("objectWillChange fires before each change of a @Published property, not for others")
    func objectWillChange() {
        let model = Model()
        var log: [String] = []
        let c = model.objectWillChange.sink { log.append("will change (count \(model.count))") }
        let d = model.$name.dropFirst().sink { log.append("name \($0)") }
        model.count = 1
        model.name = "b"
        model.plain = 9
        #expect(log == ["will change (count 0)", "will change (count 1)", "name b"])
        c.cancel()
        d.cancel()
    }

    @Test("objectWillChange is one publisher per object, shared by its class's and superclasses' properties")
    func sharedPublisher() {
        let object = Derived()
        #expect(object.objectWillChange === object.objectWillChange)
        var count = 0
        let c = object.objectWillChange.sink { count += 1 }
        object.base = 1
        object.derived = 1
        #expect(count == 2)
        #expect(Derived().objectWillChange !== object.objectWillChange)
        c.cancel()
    }

    @Test("a class without @Published properties gets a silent publisher; a custom objectWillChange is kept")
    func withoutPublished() {
        let silent = Silent()
        var fired = false
        let c = silent.objectWillChange.sink { fired = true }
        silent.value = 1
        #expect(!fired)
        let custom = Custom()
        var customFired = 0
        let d = custom.objectWillChange.sink { customFired += 1 }
        custom.objectWillChange.send()
        #expect(customFired == 1)
        c.cancel()
        d.cancel()
    }

    @Test("assign(to: &$property) writes every value, sends objectWillChange, and ends with the object")
    func assignToPublished() {
        let source = ManualPublisher<Int, Never>()
        weak var weakModel: Model?
        do {
            let model = Model()
            weakModel = model
            var changes = 0
            let c = model.objectWillChange.sink { changes += 1 }
            source.map { $0 * 10 }.assign(to: &model.$count)
            source.send(1)
            source.send(2)
            #expect(model.count == 20)
            #expect(changes == 2)
            #expect(source.last?.isCancelled == false)
            c.cancel()
        }
        #expect(weakModel == nil, "assign(to:) does not retain the object")
        #expect(source.last?.isCancelled == true, "the subscription ends with the object")
    }

    @Test("Published.Publisher can stand alone")
    func standAlone() {
        var publisher = Published<Int>.Publisher(4)
        let sub = TestSubscriber<Int, Never>()
        publisher.subscribe(sub)
        Just(5).assign(to: &publisher)
        #expect(sub.values == [4, 5])
    }
}
