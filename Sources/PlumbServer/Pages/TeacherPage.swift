extension Assets {
    static let teacherPage = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Plumb workshop · teacher</title>
        <link rel="stylesheet" href="/static/room.css">
        </head>
        <body class="teacher">
        <header><h1>The room</h1><span id="summary"></span></header>
        <main>
          <table id="room-table"><thead><tr id="room-head"></tr></thead><tbody id="room-body"></tbody></table>
          <p id="room-error" class="error"></p>
          <section class="present-editor">
            <h2>Present</h2>
            <p class="quiet">Your pipeline, run and shown large on every learner's page.</p>
            <textarea id="present-input" spellcheck="false" rows="4" aria-label="pipeline to present">interval 100ms | take 5 | scan 0 { $0 + $1 }</textarea>
            <div class="buttons"><button id="present-start">Present</button><button id="present-stop" class="quiet">Stop presenting</button><span id="present-status" class="status"></span></div>
            <div id="present-diagram" class="diagram"></div>
          </section>
        </main>
        <script src="/static/common.js"></script>
        <script src="/static/teacher.js"></script>
        </body>
        </html>

        """
}
