import Foundation
import Reactive
import Testing

// Issue 41: Combine's `Record.Recording` has `encode(into:)` (Apple's documentation: "func
// encode(into encoder: any Encoder) throws", under Encoding), which the reference tests call; it
// writes what `encode(to:)` writes.
@Suite("Combine behaviour: Record.Recording.encode(into:)")
struct RecordingEncodeIntoTests {
    /// Encodes through `encode(into:)` rather than `encode(to:)`.
    private struct ViaEncodeInto: Encodable {
        let recording: Record<Int, TestFailure>.Recording
        func encode(to encoder: any Encoder) throws { try recording.encode(into: encoder) }
    }

    private struct TestFailure: Error, Codable, Equatable {}

    @Test("encode(into:) writes what encode(to:) writes, and it decodes back")
    func sameAsEncodeTo() throws {
        let recording = Record<Int, TestFailure>.Recording(output: [1, 2, 3], completion: .failure(TestFailure()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let into = try encoder.encode(ViaEncodeInto(recording: recording))
        let to = try encoder.encode(recording)
        #expect(into == to)
        let decoded = try JSONDecoder().decode(Record<Int, TestFailure>.Recording.self, from: into)
        #expect(decoded.output == [1, 2, 3])
        #expect(decoded.completion == .failure(TestFailure()))
    }
}
