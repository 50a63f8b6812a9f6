extension Assets {
    /// The teacher's page, laid out for a projector at 1280×720: the room's table (in two columns
    /// of rows past 20 learners) on the left, and beside it, never below it, joining (the URL and
    /// its QR code), Present, and the room's common mistakes.
    static let teacherPage =
        pageHead("Plumb workshop · teacher")
            + """
            <body class="teacher">
            <header>
              <h1>The room</h1><span id="summary"></span>
              <span class="sort" role="group" aria-label="sort the learners">sort:
                <button class="quiet" data-sort="name" aria-pressed="true">name</button>
                <button class="quiet" data-sort="progress" aria-pressed="false">progress</button>
                <button class="quiet" data-sort="stuck" aria-pressed="false">stuck</button>
              </span>
              <button id="open-present-view">Present view</button>
            </header>
            <div class="teacher-layout">
              <main id="room-main">
                <p id="stuck-rule" class="rule"></p>
                <div id="room-tables"></div>
                <p id="room-error" class="error"></p>
              </main>
              <aside id="side">
                <section id="join-panel">
                  <h2>Join</h2>
                  <div class="join-row"><button id="join-qr" class="qr" title="show the QR code large, for the back of the room" aria-label="enlarge the QR code"></button><div><a id="join-url" class="join-url"></a></div></div>
                  <p id="join-warning" class="error"></p>
                  <pre id="join-command" class="code" hidden></pre>
                </section>
                <section class="present-editor">
                  <h2>Present</h2>
                  <textarea id="present-input" spellcheck="false" rows="2" aria-label="pipeline to present">interval 100ms | take 5 | scan 0 { $0 + $1 }</textarea>
                  <div class="buttons"><button id="present-start">Present</button><button id="present-stop" class="quiet">Stop</button></div>
                  <div id="present-status" class="status"></div>
                </section>
                <section id="mistakes-panel">
                  <h2 title="Failed checks, grouped by the first expectation that failed. Show presents one answer of the group, without its author's name.">Common mistakes</h2>
                  <div id="mistakes"></div>
                </section>
              </aside>
            </div>
            <div id="qr-large" class="qr-large" hidden>
              <div id="qr-large-code" class="qr-large-code"></div>
              <a id="qr-large-url" class="qr-large-url"></a>
              <p class="quiet">Click anywhere or press Escape to close.</p>
            </div>
            <script src="/static/common.js"></script>
            <script src="/static/teacher.js"></script>
            </body>
            </html>

            """

    /// The present view (`/present?key=KEY`), for the projector: the teacher's pipeline large,
    /// its diagram scaled to the width of the screen with no text under 16 px.
    static let presentPage =
        pageHead("Plumb workshop · present")
            + """
            <body class="present-view">
            <p id="present-idle" class="quiet">Nothing is presented: press Present on the teacher's page.</p>
            <pre id="present-text" class="code"></pre>
            <div id="present-controls" class="buttons" hidden>
              <button id="present-step">Step</button>
              <button id="present-continue" class="quiet">Continue</button>
              <button id="present-whole" class="quiet">Whole run</button>
              <input type="range" id="present-slider" min="0" max="0" step="1" value="0" aria-label="virtual time (ms)" hidden>
              <span id="present-step-time" class="step-time"></span>
            </div>
            <div id="present-error" class="error"></div>
            <div id="present-diagram" class="diagram"></div>
            <ol id="present-step-lines" class="events step-lines" hidden></ol>
            <script src="/static/common.js"></script>
            <script src="/static/present.js"></script>
            </body>
            </html>

            """
}
