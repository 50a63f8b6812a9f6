extension Assets {
    static let learnerPage =
        pageHead("Plumb workshop")
            + """
            <body class="learner">
            <header><h1>Plumb workshop</h1><span id="who"></span><span id="progress"></span></header>
            <section id="present" class="present" hidden>
              <h2>The teacher shows</h2>
              <pre id="present-text" class="code"></pre>
              <div id="present-error" class="error"></div>
              <div id="present-step-time" class="step-time"></div>
              <div id="present-diagram" class="diagram"></div>
              <ol id="present-step-lines" class="events step-lines" hidden></ol>
              <ol id="present-events" class="events"></ol>
            </section>
            <section id="join" hidden>
              <form id="join-form">
                <label for="name">Your name</label>
                <input id="name" maxlength="40" autocomplete="name" required>
                <button type="submit" id="join-button">Join</button>
              </form>
              <p id="join-error" class="error"></p>
            </section>
            <main id="room" hidden>
              <nav>
                <ol id="exercises"></ol>
                <button id="open-playground" class="playground-link">Playground</button>
              </nav>
              <section id="exercise" hidden>
                <h2 id="exercise-title"></h2>
                <pre id="lesson"></pre>
                <textarea id="editor" spellcheck="false" autocapitalize="off" rows="7" aria-label="exercise text"></textarea>
                <div class="buttons">
                  <button id="check">Check</button>
                  <button id="hint">Hint</button>
                  <button id="reset" class="quiet">Reset</button>
                  <span id="status" class="status"></span>
                </div>
                <ol id="hints" class="hints"></ol>
                <div id="verdict" class="verdict"></div>
                <pre id="message" class="message"></pre>
                <div id="diagnostics"></div>
                <div id="check-diagram" class="diagram"></div>
              </section>
              <section id="playground" hidden>
                <h2>Playground</h2>
                <p class="quiet">Any pipeline, on the virtual clock: its events and its marble diagram.</p>
                <textarea id="pipeline" spellcheck="false" autocapitalize="off" rows="6" aria-label="pipeline">interval 100ms | take 5 | map { $0 * 10 }</textarea>
                <div class="buttons">
                  <button id="run">Run</button>
                  <button id="step" class="quiet" title="step through time, one instant at a time, as :step does">Step</button>
                  <button id="continue" class="quiet" disabled title="to the end of the stepped run">Continue</button>
                  <button id="compare" class="quiet" title="run it pushed and pulled, as :compare does">Compare</button>
                  <span id="run-status" class="status"></span>
                </div>
                <div id="stepper" class="stepper" hidden>
                  <input type="range" id="step-slider" min="0" max="0" step="1" value="0" aria-label="virtual time (ms)">
                  <span id="step-time" class="step-time"></span>
                </div>
                <div id="run-diagnostics"></div>
                <div id="run-error" class="error"></div>
                <div id="diagram" class="diagram"></div>
                <ol id="step-lines" class="events step-lines" hidden></ol>
                <div id="comparisons"></div>
                <ol id="events" class="events"></ol>
              </section>
            </main>
            <script src="/static/common.js"></script>
            <script src="/static/learner.js"></script>
            </body>
            </html>

            """
}
