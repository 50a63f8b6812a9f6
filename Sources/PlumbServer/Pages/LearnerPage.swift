extension Assets {
    static let learnerPage = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Plumb workshop</title>
        <link rel="stylesheet" href="/static/room.css">
        </head>
        <body class="learner">
        <header><h1>Plumb workshop</h1><span id="who"></span><span id="progress"></span></header>
        <section id="present" class="present" hidden>
          <h2>The teacher shows</h2>
          <pre id="present-text" class="code"></pre>
          <div id="present-error" class="error"></div>
          <div id="present-diagram" class="diagram"></div>
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
            <div class="buttons"><button id="run">Run</button><span id="run-status" class="status"></span></div>
            <div id="run-diagnostics"></div>
            <div id="run-error" class="error"></div>
            <div id="diagram" class="diagram"></div>
            <ol id="events" class="events"></ol>
          </section>
        </main>
        <script src="/static/common.js"></script>
        <script src="/static/learner.js"></script>
        </body>
        </html>

        """
}
