import Foundation
import Testing

@testable import PlumbServer

/// The learners' URL as a QR code in the terminal, read back by a real decoder: the printed half
/// blocks are turned into a picture and given to zbarimg (Debian zbar-tools, which Scripts/test
/// installs).
@Suite struct ServeQRCodeTests {
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The modules a rendering shows, read back from its characters (ANSI colours dropped): each
    /// cell is two rows, `▀` the upper dark, `▄` the lower, `█` both.
    static func modules(of text: String) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            let plain = line.replacing(#/\x{1B}\[[0-9;]*m/#, with: "")
            rows.append(plain.map { $0 == "▀" || $0 == "█" })
            rows.append(plain.map { $0 == "▄" || $0 == "█" })
        }
        return rows
    }

    /// Decodes a rendering with zbarimg: the modules drawn 8 pixels each into a PGM picture.
    static func decode(_ text: String) throws -> String {
        let rows = modules(of: text)
        let scale = 8
        let width = (rows.first?.count ?? 0) * scale
        var pixels: [UInt8] = Array("P5\n\(width) \(rows.count * scale)\n255\n".utf8)
        for row in rows {
            let line = row.flatMap { Array(repeating: $0 ? UInt8(0) : 255, count: scale) }
            for _ in 0..<scale { pixels += line }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-qr-\(Secret.make()).pgm")
        try Data(pixels).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try output(try #require(zbarimg), ["--raw", "-q", file.path])
    }

    @Test(
        "the printed QR code decodes to the learners' URL, with a quiet zone around it",
        .enabled(if: zbarimg != nil, "zbarimg (Debian zbar-tools) is not installed: Scripts/test installs it"),
        arguments: [
            "http://127.0.0.1:8080/?room=0123456789abcdef0123456789abcdef",
            "http://[::1]:8080/?room=fedcba9876543210fedcba9876543210",
            "http://teachers-laptop.local:49152/?room=00000000000000000000000000000000",
        ])
    func decodes(url: String) throws {
        let code = try #require(QRCode(url))
        let text = code.rendered()
        #expect(try Self.decode(text) == url)
        let rows = Self.modules(of: text)
        // Four light modules on each side; the finder pattern's corner is the first dark one.
        #expect(rows.prefix(4).allSatisfy { $0.allSatisfy { !$0 } })
        #expect(rows[4].prefix(4).allSatisfy { !$0 } && rows[4][4])
        #expect(rows[4].count == code.size + 8)
    }

    static let rsvgConvert = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs a tool to its end; its standard output.
    static func output(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "the teacher's page's QR code, an SVG drawn by rsvg-convert, decodes to the learners' URL",
        .enabled(if: zbarimg != nil && rsvgConvert != nil, "zbarimg (zbar-tools) or rsvg-convert (librsvg2-bin) is not installed"))
    func svgDecodes() throws {
        let url = "http://teachers-laptop.local:49152/?room=0123456789abcdef0123456789abcdef"
        let svg = try #require(QRCode(url)).svg()
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-qr-\(Secret.make())")
        try Data(svg.utf8).write(to: base.appendingPathExtension("svg"))
        defer {
            try? FileManager.default.removeItem(at: base.appendingPathExtension("svg"))
            try? FileManager.default.removeItem(at: base.appendingPathExtension("png"))
        }
        // 200 pixels across, as the page shows it at about 124 CSS pixels on a 1.6× screen.
        _ = try Self.output(
            try #require(Self.rsvgConvert),
            ["-w", "200", "-b", "white", "-o", base.appendingPathExtension("png").path, base.appendingPathExtension("svg").path])
        #expect(try Self.output(try #require(Self.zbarimg), ["--raw", "-q", base.appendingPathExtension("png").path]) == url)
    }

    @Test("the rendering is libqrencode's matrix, module for module")
    func matchesMatrix() throws {
        let code = try #require(QRCode("http://127.0.0.1:8080/?room=0123456789abcdef0123456789abcdef"))
        let rows = Self.modules(of: code.rendered(quietZone: 0))
        for row in 0..<code.size {
            for column in 0..<code.size { #expect(rows[row][column] == code.isDark(row: row, column: column)) }
        }
    }
}
