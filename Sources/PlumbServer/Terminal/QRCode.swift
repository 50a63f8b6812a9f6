import CQRencode

/// A QR code made by libqrencode, drawn for a terminal: the learners' URL, so a phone or a
/// laptop's camera can open it from the projected terminal.
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let size: Int
    /// Row by row, `true` for a dark module.
    public let modules: [Bool]

    /// Encodes `text` as bytes, error correction level L (the smallest code: a terminal is a clean
    /// picture), the smallest version that holds it. Nil when it does not fit any.
    public init?(_ text: String) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_L) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // Bit 0 of each byte is the module's colour (libqrencode's qrencode.h).
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at `row`, `column` is dark; outside the code (the quiet zone), light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// The code as text: two modules a character cell with the half blocks `▀`, `▄` and `█`,
    /// `quietZone` light modules on every side (the standard asks for 4), dark modules drawn in
    /// black on white with ANSI colours so that it reads the same on a dark terminal.
    public func rendered(quietZone: Int = 4) -> String {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = "\u{1B}[30;107m"
            for column in range {
                switch (isDark(row: top, column: column), isDark(row: top + 1, column: column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension QRCode {
    /// The code as an SVG document for a page: one square unit per module, `quietZone` light
    /// modules on every side, the dark modules one path (scaled by the page; `crispEdges` keeps
    /// the modules' edges sharp).
    public func svg(quietZone: Int = 4) -> String {
        let side = size + 2 * quietZone
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                // A run of dark modules in the row is one rectangle.
                var end = column
                while end < size, isDark(row: row, column: end) { end += 1 }
                path += "M\(column + quietZone) \(row + quietZone)h\(end - column)v1h-\(end - column)z"
                column = end
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" role="img">\
            <title>QR code</title><rect width="\(side)" height="\(side)" fill="#ffffff"/><path d="\(path)" fill="#000000"/></svg>
            """
    }
}
