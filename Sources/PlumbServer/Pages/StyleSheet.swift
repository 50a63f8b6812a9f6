extension Assets {
    /// Readable on a laptop and on a projector at 1280×720.
    static let styleSheet = #"""
        :root { --ink: #1d232b; --muted: #5c6672; --line: #d5dbe2; --pass: #1c7c3c; --fail: #b3261e; --accent: #2456a6; --paper: #ffffff; --soft: #f4f6f9; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--soft); }
        header { display: flex; gap: 1.5em; align-items: baseline; padding: 0.6em 1.2em; background: var(--ink); color: #fff; }
        header h1 { font-size: 1.2em; margin: 0; }
        #progress, #summary { color: #c9d3de; }
        main { padding: 1em 1.2em; }
        #room { display: grid; grid-template-columns: 14em 1fr; gap: 1.2em; align-items: start; }
        nav ol { list-style: none; margin: 0 0 0.8em; padding: 0; }
        nav li button { width: 100%; text-align: left; background: none; border: 0; padding: 0.25em 0.5em; font: inherit; color: var(--ink); cursor: pointer; border-radius: 4px; }
        nav li.current button { background: var(--accent); color: #fff; }
        nav li.passed button { color: var(--pass); }
        nav li.passed.current button { color: #fff; }
        section { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.8em 1.1em; }
        h2 { margin: 0.1em 0 0.5em; font-size: 1.15em; }
        pre, textarea, .code { font: 14px/1.4 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
        pre { white-space: pre-wrap; margin: 0.4em 0; }
        #lesson { background: var(--soft); padding: 0.6em 0.8em; border-radius: 4px; }
        textarea { width: 100%; border: 1px solid var(--line); border-radius: 4px; padding: 0.5em; }
        .buttons { display: flex; gap: 0.6em; align-items: center; margin: 0.5em 0; }
        button { font: inherit; padding: 0.35em 0.9em; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
        button.quiet, .playground-link { background: #fff; color: var(--accent); }
        button:disabled { opacity: 0.5; cursor: default; }
        .status, .quiet { color: var(--muted); }
        .verdict.pass { color: var(--pass); font-weight: 600; font-size: 1.1em; }
        .verdict.fail { color: var(--fail); font-weight: 600; }
        .message { color: var(--fail); }
        .error { color: var(--fail); }
        .hints li { color: #6b4f00; }
        .diagnostic { border-left: 4px solid var(--fail); padding: 0.3em 0.7em; margin: 0.5em 0; background: #fff5f4; }
        .diagnostic.warning { border-color: #b07d00; background: #fffaf0; }
        .diagnostic .rendered { margin: 0.3em 0; }
        .diagram { overflow-x: auto; margin: 0.6em 0; }
        .diagram svg { max-width: 100%; height: auto; background: #fff; }
        .events { font: 14px/1.35 ui-monospace, "DejaVu Sans Mono", monospace; padding-left: 0; list-style: none; max-height: 16em; overflow-y: auto; }
        .events .time { color: var(--muted); margin-right: 1em; }
        .events .failed { color: var(--fail); }
        .stepper { display: flex; gap: 0.8em; align-items: center; margin: 0.3em 0; }
        .stepper input[type=range], #present-slider { flex: 1; min-width: 12em; }
        .step-time { font: 14px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; color: var(--accent); white-space: nowrap; }
        .step-lines li { color: var(--muted); }
        .step-lines li.now { color: var(--ink); font-weight: 600; }
        .comparison { border-top: 1px solid var(--line); margin: 0.6em 0; padding-top: 0.4em; }
        .comparison .side { font: 14px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
        table.compare-rows { font: 13px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; margin: 0.4em 0; }
        table.compare-rows td, table.compare-rows th { padding: 0.1em 0.6em; white-space: pre; }
        table.compare-rows tr.differs { background: #fff3cd; }
        table.compare-rows td.mark { color: #8a5a00; font-weight: 700; }
        .comparison .verdict-line { font-weight: 600; }
        .comparison.differs .verdict-line { color: #8a5a00; }
        .comparison.same .verdict-line { color: var(--pass); }
        .comparison .why { font: 14px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
        .present { margin: 1em 1.2em 0; border: 2px solid var(--accent); }
        .present #present-text { font-size: 1.6em; }
        #join { max-width: 26em; margin: 3em auto; }
        #join input { font: inherit; padding: 0.35em; width: 100%; margin: 0.4em 0 0.8em; }
        table { border-collapse: collapse; background: var(--paper); }
        th, td { border: 1px solid var(--line); padding: 0.3em 0.5em; text-align: left; font-size: 0.95em; }
        td.cell { min-width: 3.2em; white-space: nowrap; }
        td.passed { background: #e3f4e8; color: var(--pass); }
        td.failing { background: #fde8e6; color: var(--fail); }
        td.open { background: #fff8e1; }
        td .time, td .hints { color: var(--muted); font-size: 0.85em; }
        .present-editor { margin-top: 1.2em; }
        body.teacher { height: 100vh; display: flex; flex-direction: column; overflow: hidden; }
        body.teacher header { padding: 0.35em 1em; gap: 1em; align-items: center; }
        body.teacher header .sort { margin-left: auto; color: #c9d3de; font-size: 0.9em; }
        body.teacher header button { padding: 0.1em 0.6em; font-size: 0.9em; }
        body.teacher header .sort button[aria-pressed="true"] { background: #c9d3de; color: var(--ink); }
        .teacher-layout { flex: 1; min-height: 0; display: grid; grid-template-columns: 1fr 17.5em; gap: 0.6em; padding: 0.4em 0.6em; }
        .teacher-layout main { padding: 0; min-width: 0; overflow: auto; }
        #side { overflow-y: auto; display: flex; flex-direction: column; gap: 0.5em; }
        #side section { padding: 0.4em 0.7em; margin: 0; }
        #side h2 { font-size: 1em; margin: 0 0 0.3em; }
        .rule { margin: 0 0 0.3em; font-size: 0.85em; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #room-tables { display: grid; gap: 0.6em; align-items: start; }
        #room-tables.columns-2 { grid-template-columns: 1fr 1fr; }
        table.room-table { width: 100%; table-layout: fixed; font-size: 14px; line-height: 1.25; }
        .room-table col.c-name { width: 6.9em; }
        .room-table col.c-done { width: 1.6em; }
        .room-table col.c-now { width: 6.6em; }
        .room-table th, .room-table td { padding: 0.15em 0.2em; font-size: 1em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; height: 1.75em; }
        .room-table th.exercise, .room-table td.total-cell, .room-table td.cell { text-align: center; padding: 0.15em 0; text-overflow: clip; }
        .room-table th.exercise { font-size: 0.65em; }
        .room-table tr.total th, .room-table tr.total td { height: 1.4em; font-size: 0.65em; color: var(--muted); background: var(--soft); }
        .room-table tr.total.passed td { color: var(--pass); }
        .room-table th.learner-name { font-weight: 600; }
        .room-table td.done { color: var(--muted); text-align: center; }
        .room-table tr.stuck th.learner-name, .room-table tr.stuck td.now { color: var(--fail); }
        .room-table tr.stuck { background: #fff1f0; }
        .room-table td.now .flag { font-weight: 700; }
        .qr { width: 124px; height: 124px; flex: none; padding: 0; border: 0; background: #fff; cursor: zoom-in; }
        .qr svg { width: 100%; height: 100%; display: block; }
        .qr-large { position: fixed; inset: 0; z-index: 10; background: #fff; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 0.6em; cursor: zoom-out; }
        .qr-large-code { width: min(80vh, 90vw); height: min(80vh, 90vw); }
        .qr-large-code svg { width: 100%; height: 100%; display: block; }
        .qr-large-url { font: 24px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; color: var(--ink); }
        .qr-large .quiet { margin: 0; font-size: 14px; }
        .join-row { display: flex; gap: 0.6em; align-items: center; }
        .join-url { font: 12px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; word-break: break-all; color: var(--accent); }
        #join-warning { font-size: 12px; line-height: 1.3; margin: 0.3em 0 0; }
        #join-command { font-size: 10.5px; line-height: 1.25; background: var(--soft); padding: 0.2em 0.3em; margin: 0.2em 0 0; word-break: break-all; }
        #present-input { font-size: 13px; }
        #present-status { font-size: 0.85em; }
        .small { font-size: 0.8em; margin: 0 0 0.3em; }
        .mistake { border-top: 1px solid var(--line); padding: 0.25em 0; font-size: 0.85em; }
        .mistake .count { font-weight: 700; color: var(--fail); }
        .mistake .failure { font: 12px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
        .mistake button { float: right; padding: 0 0.5em; font-size: 0.9em; }
        body.present-view { background: #fff; padding: 1em; }
        body.present-view #present-text { font-size: 32px; line-height: 1.3; margin: 0 0 0.4em; }
        body.present-view #present-error { font-size: 24px; }
        body.present-view .diagram { overflow-x: auto; }
        body.present-view .diagram svg { max-width: none; }
        body.present-view #present-idle { font-size: 24px; }
        body.present-view #present-controls { margin: 0 0 0.4em; }
        body.present-view .step-time { font-size: 20px; }
        body.present-view .step-lines { font-size: 20px; max-height: none; }
        .forbidden { max-width: 34em; margin: 4em auto; }
        """#
}
