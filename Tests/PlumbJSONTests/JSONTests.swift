import Testing

@testable import PlumbJSON

/// The one JSON value the room and the language server share: strict reading, HTML-safe writing,
/// integers kept apart from other numbers but equal by value.
@Suite struct JSONTests {
    @Test("a value survives writing and reading back")
    func roundTrip() throws {
        let value: JSON = ["a": [1, .double(2.5), "x", true, nil], "b": ["c": .double(1e20)], "d": -7]
        let text = value.encoded
        #expect(text == #"{"a":[1,2.5,"x",true,null],"b":{"c":1e+20},"d":-7}"#)
        #expect(JSON.decode(Array(text.utf8)) == value)
    }

    @Test("<, >, &, U+2028 and control characters are escaped; no value can close a <script>")
    func escaping() {
        #expect(JSON.string("</script>&\u{2028}\u{1}\"\\\n").encoded == #""\u003c/script\u003e\u0026\u2028\u0001\"\\\n""#)
    }

    @Test("integers read as integers, others as doubles; 1 and 1.0 are equal and hash alike")
    func numbers() throws {
        #expect(JSON.decode(Array("12".utf8)) == .int(12))
        if case .int(12)? = JSON.decode(Array("12".utf8)) {} else { Issue.record("12 is not an int") }
        if case .double(1.5)? = JSON.decode(Array("1.5".utf8)) {} else { Issue.record("1.5 is not a double") }
        if case .double? = JSON.decode(Array("99999999999999999999".utf8)) {} else { Issue.record("a huge integer is a double") }
        #expect(JSON.int(1) == .double(1))
        #expect(Set<JSON>([.int(1), .double(1)]).count == 1)
        #expect(JSON.double(1.5).int == nil)
        #expect(JSON.double(3).int == 3)
        #expect(JSON.int(3).number == 3)
        #expect(JSON.double(.nan).encoded == "null")
    }

    @Test(
        "text that is not one UTF-8 JSON value is refused",
        arguments: [
            "", "{", "[1,]", "{\"a\" 1}", "nul", "tru", "fals", "[nul]", "1 2", "\"\u{1}\"", "\"\\ud800\"",
            String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
        ])
    func refused(_ text: String) {
        #expect(JSON.decode(Array(text.utf8)) == Optional<JSON>.none)
    }

    @Test("bytes that are not UTF-8 are refused")
    func notUTF8() {
        #expect(JSON.decode([0x22, 0xff, 0x22]) == nil)
    }

    @Test("escapes and surrogate pairs read as the characters they name")
    func escapes() {
        #expect(JSON.decode(Array(#""a\u00e9\ud83d\ude00\n\/""#.utf8)) == "aé😀\n/")
    }

    @Test("salvaging keeps what can be read of a cut text")
    func salvaging() {
        let (value, complete) = JSON.decodeSalvaging(Array(#"{"a": 1, "b": [2, 3"#.utf8))
        #expect(value == ["a": 1, "b": [2]])
        #expect(!complete)
        #expect(JSON.decodeSalvaging(Array("[1]".utf8)).complete)
    }

    @Test("merging adds the other object's fields")
    func merging() {
        #expect(JSON.object(["a": 1, "b": 2]).merging(["b": 3, "c": 4]) == ["a": 1, "b": 3, "c": 4])
        #expect(JSON.int(1).merging(["a": 1]) == .int(1))
    }
}
