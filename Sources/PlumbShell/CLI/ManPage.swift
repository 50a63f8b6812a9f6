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
            ".SH NAME",
            #"plumb \- \#(escaped(summary))"#,
        ]
        var section = ""
        var inExamples = false
        for line in lines {
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
                out += [".PP", escaped(line)]
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
    static func escaped(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
