/// The room's pages, served from the binary: plain HTML, CSS and JavaScript, no framework. The
/// HTML is fixed text (no value is ever put into it on the server); the scripts fetch JSON and
/// show every value with `textContent`, and draw diagrams through `DOMParser`, dropping any
/// script or event attribute, under a policy that runs only these scripts.
import PlumbDiagrams

enum Assets {
    /// Static files by path: content type and text.
    static let files: [String: (String, String)] = [
        "/static/room.css": ("text/css; charset=utf-8", styleSheet + diagramStyles),
        "/static/common.js": ("text/javascript; charset=utf-8", commonScript),
        "/static/learner.js": ("text/javascript; charset=utf-8", learnerScript),
        "/static/teacher.js": ("text/javascript; charset=utf-8", teacherScript),
        "/static/present.js": ("text/javascript; charset=utf-8", presentScript),
    ]

    /// The diagrams' own rules: the policy refuses the `<style>` inside each SVG (no inline
    /// styles), so the room's style sheet carries them, scoped to its diagram boxes.
    static let diagramStyles = MarbleSVG.scopedStyleRules(under: ".diagram svg") + "\n"

    /// The start of every page up to its `<body>`: the doctype, the character set, the viewport,
    /// the title and the room's one style sheet.
    static func pageHead(_ title: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <link rel="stylesheet" href="/static/room.css">
        </head>

        """
    }

    static let forbiddenPage =
        pageHead("Plumb workshop")
            + """
            <body><main class="forbidden"><h1>This room needs its link</h1>
            <p>Open the exact address the teacher gave (it ends in <code>?room=…</code>).</p></main></body></html>

            """
}
