import Dispatch
import Foundation
import Reactive
import ReactiveTestSupport
import Testing

private final class Target {
    var value = 0
}

// Issue #20 "Also". Combine facts from Apple's Combine reference: `Record`, `Record.Recording` and
// `Subscribers.Completion` are `Codable` when their types are; the schedulers'
// `SchedulerTimeType` and `Stride` are `Codable`; `Subscribers.Sink`, `Subscribers.Assign`,
// `AnyPublisher` and `AnySubscriber` are `CustomPlaygroundDisplayConvertible` (and the
// subscribers `CustomReflectable`); `NotificationCenter.Publisher` is `Equatable`.
@Suite("Combine behaviour: conformances Combine has")
struct ConformanceTests {
    @Test("Subscribers.Completion round-trips through JSON with Combine's keys")
    func completionCodable() throws {
        let finished = try JSONEncoder().encode(Subscribers.Completion<TestCodableError>.finished)
        #expect(String(decoding: finished, as: UTF8.self) == #"{"success":true}"#)
        let failed = Subscribers.Completion<TestCodableError>.failure(TestCodableError(code: 3))
        let data = try JSONEncoder().encode(failed)
        let back = try JSONDecoder().decode(Subscribers.Completion<TestCodableError>.self, from: data)
        #expect(back == failed)
    }

    @Test("Record round-trips through JSON and replays the same events")
    func recordCodable() throws {
        let record = Record<Int, TestCodableError>(output: [1, 2], completion: .failure(TestCodableError(code: 9)))
        let data = try JSONEncoder().encode(record)
        let back = try JSONDecoder().decode(Record<Int, TestCodableError>.self, from: data)
        #expect(back.recording.output == [1, 2])
        #expect(back.recording.completion == .failure(TestCodableError(code: 9)))
    }

    @Test("DispatchQueue's SchedulerTimeType and Stride are Codable")
    func dispatchCodable() throws {
        let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 12_345))
        let back = try JSONDecoder().decode(
            DispatchQueue.SchedulerTimeType.self, from: try JSONEncoder().encode(time))
        #expect(back == time)
        let stride = DispatchQueue.SchedulerTimeType.Stride.milliseconds(250)
        let strideBack = try JSONDecoder().decode(
            DispatchQueue.SchedulerTimeType.Stride.self, from: try JSONEncoder().encode(stride))
        #expect(strideBack == stride)
    }

    @Test("Sink, Assign, AnyPublisher and AnySubscriber have a playground description and a mirror")
    func playgroundDescriptions() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.playgroundDescription as? String == "Sink")
        #expect(sink.customMirror.children.isEmpty)
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        #expect(assign.playgroundDescription as? String == assign.description)
        #expect(assign.customMirror.children.map(\.label) == ["object", "keyPath"])
        #expect(Just(1).eraseToAnyPublisher().playgroundDescription as? String == "AnyPublisher")
        let any = AnySubscriber(sink)
        #expect(any.playgroundDescription as? String == "Sink")
        #expect(any.customMirror.children.isEmpty)
    }

    @Test("NotificationCenter.Publisher is Equatable: same center, name and object")
    func notificationPublisherEquatable() {
        let center = NotificationCenter()
        let object = NSObject()
        let name = Notification.Name("ReactiveTests.Equatable")
        #expect(center.publisher(for: name, object: object) == center.publisher(for: name, object: object))
        #expect(center.publisher(for: name) != center.publisher(for: name, object: object))
        #expect(center.publisher(for: name) != NotificationCenter().publisher(for: name))
        #expect(center.publisher(for: name) != center.publisher(for: Notification.Name("Other")))
    }
}

struct TestCodableError: Error, Codable, Equatable {
    let code: Int
}
