/// `plumb help --man`: the manual page `plumb.1`, in roff, made from `plumb --help`'s text
/// (`HelpText.overview`) so the two never say different things. Scripts/install writes it to
/// `PREFIX/share/man/man1/plumb.1`.
///
/// The overview's shape is what it reads: a first line `plumb: SUMMARY`, sections headed by a line
/// in capitals, entries `  TERM   DESCRIPTION` (two or more blanks apart) whose longer
/// descriptions continue on deeper-indented lines, and a closing paragraph.
enum ManPage {
    static func roff(version: String, overview: String = HelpText.overview) -> String {
        var lines = overview.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let title = lines.removeFirst()
        let summary = title.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? title
        var out = [
            #".TH PLUMB 1 "" "plumb \#(version)" "User Commands""#,
            // No hyphenation: a word broken across lines (`termi‐nal`) cannot be searched for.
            ".nh",
            ".SH NAME",
            #"plumb \- \#(escaped(summary))"#,
        ]
        var section = ""
        var inExamples = false
        // In a paragraph of unindented lines: the next such line continues it, so a parenthesis
        // opened on one line is closed in the same paragraph.
        var inParagraph = false
        for line in lines {
            let continuesParagraph = inParagraph
            inParagraph = false
            if line.isEmpty {
                if inExamples {
                    out.append(".fi")
                    inExamples = false
                }
                continue
            }
            if !line.hasPrefix(" "), line == line.uppercased(), line.contains(where: \.isLetter) {
                section = line
                out.append(".SH \(escaped(line))")
                if section == "EXAMPLES" {
                    out += [".PP", ".nf"]
                    inExamples = true
                }
                continue
            }
            if inExamples {
                out.append(escaped(line.trimmingCharacters(in: .whitespaces)))
                continue
            }
            if !line.hasPrefix(" ") {
                if section != "" {
                    out.append(".SH NOTES")
                    section = ""
                }
                out += continuesParagraph ? [escaped(line)] : [".PP", escaped(line)]
                inParagraph = true
                continue
            }
            let body = line.drop { $0 == " " }
            let indent = line.count - body.count
            if indent == 2, let gap = body.range(of: "  ") {
                let term = body[..<gap.lowerBound]
                let description = body[gap.upperBound...].trimmingCharacters(in: .whitespaces)
                out += [".TP", #"\fB\#(escaped(String(term)))\fR"#, escaped(description)]
            } else if indent == 2 {
                out += [".TP", #"\fB\#(escaped(String(body)))\fR"#]
            } else {
                out.append(escaped(String(body)))
            }
        }
        if inExamples { out.append(".fi") }
        return out.joined(separator: "\n") + "\n"
    }

    /// Text safe in roff: backslashes doubled as `\e`, a leading `.` or `'` made literal, and
    /// `-` written `\-` so options stay minus signs (and copy as such).
    /// Code quoted in backticks (`` `plumb test` ``) is set in bold, without the backticks: roff
    /// prints a backtick as it is.
    static func escaped(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        let pieces = result.split(separator: "`", omittingEmptySubsequences: false)
        if pieces.count > 1 {
            result = pieces.enumerated().map { index, piece in
                // Quoted pieces are the odd ones; an unpaired backtick becomes an apostrophe.
                guard index % 2 == 1 else { return String(piece) }
                return index == pieces.count - 1 ? "'" + piece : "\\fB" + piece + "\\fR"
            }.joined()
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
