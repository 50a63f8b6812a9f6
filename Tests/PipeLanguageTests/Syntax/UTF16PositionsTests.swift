import Testing

@testable import PipeLanguage

/// One converter between UTF-8 offsets and UTF-16 units, for the language server, the room and
/// its child: astral-plane characters are two units, `\r\n` ends a line, and every position past
/// the end is clamped.
@Suite struct UTF16PositionsTests {
    // "a😀b\r\n€é\n\nxyz": a(0) 😀(1-4) b(5) \r(6) \n(7) €(8-10) é(11-12) \n(13) \n(14) x(15) y(16) z(17)
    let text = UTF16Positions("a😀b\r\n€é\n\nxyz")

    @Test(
        "UTF-8 offsets and (line, UTF-16 character) convert both ways",
        arguments: [(0, 0, 0), (1, 0, 1), (5, 0, 3), (8, 1, 0), (11, 1, 1), (13, 1, 2), (14, 2, 0), (15, 3, 0), (18, 3, 3)])
    func roundTrip(offset: Int, line: Int, character: Int) {
        #expect(text.position(ofUTF8: offset) == (line, character))
        #expect(text.utf8Offset(line: line, character: character) == offset)
    }

    @Test("an astral-plane character is two UTF-16 units, é and € one")
    func astralPlane() {
        let text = UTF16Positions("😀é€𝄞x")
        #expect(text.utf16Offset(ofUTF8: 4) == 2)
        #expect(text.utf16Offset(ofUTF8: 6) == 3)
        #expect(text.utf16Offset(ofUTF8: 9) == 4)
        #expect(text.utf16Offset(ofUTF8: 13) == 6)
        #expect(text.position(ofUTF8: 14) == (0, 7))
        #expect(text.utf8Offset(line: 0, character: 6) == 13)
    }

    @Test("a character inside a surrogate pair means the scalar's start")
    func insideSurrogatePair() {
        #expect(text.utf8Offset(line: 0, character: 2) == 1)
    }

    @Test("a character past a CRLF line's end is before its \\r, not between \\r and \\n")
    func crlfLineEnd() {
        #expect(text.utf8Offset(line: 0, character: 99) == 6)
        #expect(text.position(ofUTF8: 6) == (0, 4))
        // A lone \r at the text's end is text, not a line ending.
        #expect(UTF16Positions("ab\r").utf8Offset(line: 0, character: 99) == 3)
    }

    @Test("positions past the end, and negative ones, are clamped")
    func pastTheEnd() {
        #expect(text.utf8Offset(line: 9, character: 0) == 18)
        #expect(text.utf8Offset(line: 3, character: 99) == 18)
        #expect(text.utf8Offset(line: -1, character: 5) == 0)
        #expect(text.position(ofUTF8: 99) == (3, 3))
        #expect(text.position(ofUTF8: -4) == (0, 0))
        #expect(text.utf16Offset(ofUTF8: 99) == 13)
        #expect(text.utf8Offset(17, advancedByScalars: 5) == 18)
        #expect(text.utf8Offset(-3, advancedByScalars: 1) == 1)
        #expect(UTF16Positions("").position(ofUTF8: 3) == (0, 0))
        #expect(UTF16Positions("").utf8Offset(line: 0, character: 3) == 0)
    }

    @Test("a line and column from 1 (the compiler's) is a UTF-16 offset from the start")
    func lineAndColumn() {
        #expect(text.utf16Offset(line: 1, column: 1) == 0)
        #expect(text.utf16Offset(line: 2, column: 1) == 6)
        #expect(text.utf16Offset(line: 2, column: 4) == 7)
        #expect(text.utf16Offset(line: 4, column: 2) == 11)
        #expect(text.utf16Offset(line: 40, column: 1) == 13)
        #expect(text.utf16Offset(line: 0, column: 0) == 0)
    }

    @Test("a diagnostic's length in scalars is a UTF-8 end")
    func advancedByScalars() {
        #expect(text.utf8Offset(0, advancedByScalars: 2) == 5)
        #expect(text.utf8Offset(8, advancedByScalars: 2) == 13)
    }
}

/// The one rule for where lines end (`LineIndex.lines(of:)`), shared by every reader of a script.
@Suite struct LineSplittingTests {
    @Test("lines end after \\n; a \\r before it is the ending's, a lone \\r is a blank; joining gives the text back")
    func oneRule() {
        let text = "a\r\n:type x\nb\rc\r\n\r\n"
        let lines = LineIndex.lines(of: text)
        #expect(lines == ["a\r", ":type x", "b\rc\r", "\r", ""])
        #expect(lines.map(LineIndex.content) == ["a", ":type x", "b\rc", "", ""])
        #expect(lines.joined(separator: "\n") == text)
        // The same lines as the index the compiler and the language server count by.
        #expect(LineIndex(Array(text.utf8)).starts.count == lines.count)
        // `String.split` does not see `\r\n` (one Character): the reason for one splitter.
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 2)
    }
}
