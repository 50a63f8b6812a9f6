import Foundation
import Reactive
import ReactiveTestSupport
import Testing

private struct Point: Codable, Equatable {
    var x: Int
    var y: Int
}

@Suite("Operators: encode and decode")
struct EncodeDecodeTests {
    @Test("encode with JSONEncoder, then decode with JSONDecoder, round-trips")
    func roundTrip() {
        let points = [Point(x: 1, y: 2), Point(x: 3, y: 4)]
        let sub = TestSubscriber<Point, any Error>()
        points.publisher
            .encode(encoder: JSONEncoder())
            .decode(type: Point.self, decoder: JSONDecoder())
            .subscribe(sub)
        #expect(sub.values == points)
        #expect(sub.events.last.map { "\($0)" } == "finished")
    }

    @Test("encode produces the encoder's output")
    func encodes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let sub = TestSubscriber<Data, any Error>()
        Just(Point(x: 5, y: 6)).encode(encoder: encoder).subscribe(sub)
        let data = try #require(sub.values.first)
        #expect(String(decoding: data, as: UTF8.self) == #"{"x":5,"y":6}"#)
    }

    @Test("C33 a decoding error fails the output once and cancels upstream")
    func decodeFailure() {
        let upstream = ManualPublisher<Data, Never>()
        let sub = TestSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(sub)
        upstream.send(Data(#"{"x":1,"y":1}"#.utf8))
        upstream.send(Data("not json".utf8))
        upstream.send(Data(#"{"x":2,"y":2}"#.utf8))
        #expect(sub.values == [Point(x: 1, y: 1)])
        #expect(sub.events.count == 3, "subscription, one value, one failure")
        if case .failure(let error)? = sub.completion {
            #expect(error is DecodingError)
        } else {
            Issue.record("expected a failure")
        }
        #expect(upstream.last?.isCancelled == true)
        #expect(sub.violations.isEmpty)
    }

    @Test("property lists are top-level coders too")
    func propertyList() {
        let sub = TestSubscriber<Point, any Error>()
        Just(Point(x: 7, y: 8))
            .encode(encoder: PropertyListEncoder())
            .decode(type: Point.self, decoder: PropertyListDecoder())
            .subscribe(sub)
        #expect(sub.values == [Point(x: 7, y: 8)])
    }
}
