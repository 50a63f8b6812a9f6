extension Assets {
    static let learnerScript = #"""
        'use strict';
        const room = new URLSearchParams(location.search).get('room') || '';
        const storageKey = 'plumb-learner-' + room;
        let learner = localStorage.getItem(storageKey);
        let current = null;
        let presentVersion = -1;
        let stream = null;
        // Runs whose lines come on the stream, by the id this page gave them.
        const pendingRuns = new Map();
        let runCount = 0;

        function headers(withBody) {
          const h = { 'X-Plumb-Room': room };
          if (learner) h['X-Plumb-Learner'] = learner;
          if (withBody) h['Content-Type'] = 'application/json';
          return h;
        }

        async function request(method, path, body) {
          const response = await fetch(path, { method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
          if (response.status === 401) { forget(); throw new Error('join the room again'); }
          if (!response.ok) {
            const data = await response.json().catch(() => ({}));
            throw new Error(data.error || ('the server answered ' + response.status));
          }
          return response;
        }

        async function api(method, path, body) { return (await request(method, path, body)).json(); }

        function forget() {
          localStorage.removeItem(storageKey);
          learner = null;
          if (stream) { stream.close(); stream = null; }
          failPendingRuns();
          $('room').hidden = true;
          $('join').hidden = false;
        }

        async function join(event) {
          event.preventDefault();
          $('join-error').textContent = '';
          try {
            const response = await fetch('/api/join', { method: 'POST', headers: headers(true), body: JSON.stringify({ name: $('name').value }) });
            const data = await response.json();
            if (!response.ok) throw new Error(data.error || 'could not join');
            learner = data.learner;
            localStorage.setItem(storageKey, learner);
            await start();
          } catch (error) { $('join-error').textContent = error.message; }
        }

        async function loadList() {
          const data = await api('GET', '/api/exercises');
          $('who').textContent = data.name;
          const done = data.exercises.filter((e) => e.passed).length;
          $('progress').textContent = done + '/' + data.exercises.length + ' done';
          const list = $('exercises');
          list.replaceChildren();
          for (const exercise of data.exercises) {
            const item = element('li', null, exercise.passed ? 'passed' : '');
            item.dataset.name = exercise.name;
            const button = element('button', (exercise.passed ? '✓ ' : '') + exercise.name, 'exercise-link');
            button.addEventListener('click', () => openExercise(exercise.name));
            item.appendChild(button);
            if (exercise.name === current) item.classList.add('current');
            list.appendChild(item);
          }
          if (data.playground && !$('pipeline').dataset.loaded) { $('pipeline').value = data.playground; }
          $('pipeline').dataset.loaded = '1';
          return data;
        }

        async function openExercise(name) {
          current = name;
          const data = await api('GET', '/api/exercise?name=' + encodeURIComponent(name));
          $('playground').hidden = true;
          $('exercise').hidden = false;
          $('exercise-title').textContent = data.name;
          $('lesson').textContent = data.lesson.join('\n');
          $('editor').value = data.text;
          showHints(data.hints, data.hintsTotal);
          showVerdict(data.passed, data.message);
          $('diagnostics').replaceChildren();
          $('check-diagram').replaceChildren();
          for (const item of $('exercises').children) item.classList.toggle('current', item.dataset.name === name);
        }

        function showHints(hints, total) {
          const list = $('hints');
          list.replaceChildren();
          for (const hint of hints) list.appendChild(element('li', hint));
          $('hint').textContent = hints.length < total ? 'Hint (' + hints.length + '/' + total + ')' : 'No more hints';
          $('hint').disabled = hints.length >= total;
        }

        function showVerdict(passed, message) {
          const verdict = $('verdict');
          verdict.className = 'verdict ' + (passed ? 'pass' : message ? 'fail' : '');
          verdict.textContent = passed ? '✓ passes' : message ? '✗ not yet' : '';
          $('message').textContent = passed ? '' : (message || '');
        }

        // Starts a run or a check and hands each of its lines to `onLine`: through the live stream
        // when it is open (the POST answers 202 at once), otherwise read from the response.
        async function startRun(path, body, onLine) {
          if (stream && stream.open) {
            const id = 'r' + (++runCount) + '-' + Date.now().toString(36);
            const finished = new Promise((resolve, reject) => pendingRuns.set(id, { onLine, resolve, reject }));
            let response;
            try {
              response = await request('POST', path, Object.assign({ via: 'events', run: id }, body));
            } catch (error) { pendingRuns.delete(id); throw error; }
            if (response.status === 202) { await finished; return; }
            pendingRuns.delete(id);
            await readLines(response, onLine);
            return;
          }
          await readLines(await request('POST', path, body), onLine);
        }

        function runLine(line) {
          const pending = pendingRuns.get(line.run);
          if (!pending) return;
          pending.onLine(line);
          if (line.result) { pendingRuns.delete(line.run); pending.resolve(); }
        }

        function failPendingRuns() {
          for (const pending of pendingRuns.values()) pending.reject(new Error('the live stream was interrupted: try again'));
          pendingRuns.clear();
        }

        async function check() {
          const button = $('check');
          button.disabled = true;
          $('status').textContent = 'checking…';
          $('diagnostics').replaceChildren();
          try {
            await startRun('/api/check', { exercise: current, text: $('editor').value }, (line) => {
              if (line.queued) $('status').textContent = 'waiting: place ' + line.queued + ' in line';
              if (line.result) {
                const r = line.result;
                showVerdict(r.passed === true, r.message || (r.error && r.error.message) || (r.passed ? '' : 'the check failed'));
                // An error's diagnostic says it, with its excerpt: the message is not said again.
                if ((r.diagnostics || []).some((d) => d.severity === 'error')) $('message').textContent = '';
                showDiagnostics($('diagnostics'), r.diagnostics, $('editor'), check);
                showDiagram($('check-diagram'), r.svg);
                $('status').textContent = '';
              }
            });
            await loadList();
          } catch (error) { $('status').textContent = error.message; }
          button.disabled = false;
        }

        async function hint() {
          try {
            const data = await api('POST', '/api/hint', { exercise: current });
            showHints(data.hints, data.hintsTotal);
          } catch (error) { $('status').textContent = error.message; }
        }

        async function reset() {
          try {
            const data = await api('POST', '/api/reset', { exercise: current });
            $('editor').value = data.text;
          } catch (error) { $('status').textContent = error.message; }
        }

        function openPlayground() {
          current = null;
          $('exercise').hidden = true;
          $('playground').hidden = false;
          for (const item of $('exercises').children) item.classList.remove('current');
        }

        // The playground's stepping: the pauses of the text last stepped, and the one shown.
        let stepping = null;
        const stepView = { diagram: $('diagram'), time: $('step-time'), lines: $('step-lines') };

        function clearPlayground() {
          $('events').replaceChildren();
          $('diagram').replaceChildren();
          $('run-error').textContent = '';
          $('run-diagnostics').replaceChildren();
          $('step-lines').replaceChildren();
          $('step-lines').hidden = true;
          $('stepper').hidden = true;
          $('continue').disabled = true;
          $('comparisons').replaceChildren();
          stepping = null;
        }

        // Compare: each pipeline run pushed and pulled as :compare runs it, the events side by
        // side (≠ where they differ), both runs' diagrams on one time axis, the verdict and why.
        async function compare() {
          const text = $('pipeline').value;
          for (const id of ['run', 'step', 'compare']) $(id).disabled = true;
          clearPlayground();
          $('run-status').textContent = 'comparing…';
          try {
            await readLines(await request('POST', '/api/compare', { text }), (line) => {
              if (line.queued) $('run-status').textContent = 'waiting: place ' + line.queued + ' in line';
              if (!line.result) return;
              const r = line.result;
              $('run-status').textContent = '';
              showDiagnostics($('run-diagnostics'), r.diagnostics, $('pipeline'), compare);
              if (r.error && !(r.diagnostics || []).length) $('run-error').textContent = r.error.message;
              for (const c of r.comparisons || []) $('comparisons').appendChild(comparisonOf(c));
            });
          } catch (error) { $('run-status').textContent = error.message; }
          for (const id of ['run', 'step', 'compare']) $(id).disabled = false;
        }

        function comparisonOf(c) {
          const box = element('div', null, 'comparison' + (c.differs ? ' differs' : ' same'));
          box.appendChild(element('div', c.pushName + '  ' + c.push, 'side push'));
          box.appendChild(element('div', c.pullName + '  ' + c.pull, 'side pull'));
          const table = element('table', null, 'compare-rows');
          const head = element('tr');
          head.appendChild(element('th', ''));
          head.appendChild(element('th', 'push'));
          head.appendChild(element('th', 'pull'));
          table.appendChild(head);
          for (const row of c.rows) {
            const tr = element('tr', null, row.differs ? 'differs' : '');
            tr.appendChild(element('td', row.differs ? '≠' : '', 'mark'));
            tr.appendChild(element('td', row.push === null ? '' : row.push.trim(), 'push'));
            tr.appendChild(element('td', row.pull === null ? '' : row.pull.trim(), 'pull'));
            table.appendChild(tr);
          }
          box.appendChild(table);
          const diagram = element('div', null, 'diagram');
          showDiagram(diagram, c.svg);
          box.appendChild(diagram);
          for (const line of c.verdict) box.appendChild(element('div', line, /^why:/.test(line) ? 'why' : 'verdict-line'));
          return box;
        }

        // Step: the first press runs the text as a step-through (POST /api/step, read from the
        // response: the pauses can be larger than the live stream carries) and stands at time 0;
        // each press after goes to the next pause, as `:next` does.
        async function step(toEnd) {
          const text = $('pipeline').value;
          if (stepping && stepping.text === text) {
            showStep(toEnd === true ? stepping.steps.length - 1 : Math.min(stepping.index + 1, stepping.steps.length - 1));
            return;
          }
          for (const id of ['run', 'step']) $(id).disabled = true;
          clearPlayground();
          $('run-status').textContent = 'stepping…';
          try {
            await readLines(await request('POST', '/api/step', { text }), (line) => {
              if (line.queued) $('run-status').textContent = 'waiting: place ' + line.queued + ' in line';
              if (!line.result) return;
              const r = line.result;
              $('run-status').textContent = '';
              showDiagnostics($('run-diagnostics'), r.diagnostics, $('pipeline'), step);
              if (r.error) { $('run-error').textContent = r.error.message; return; }
              if (!r.steps || !r.steps.length) { $('run-error').textContent = 'nothing to step through'; return; }
              stepping = { text, steps: r.steps, ending: r.ending, index: 0, times: r.steps.map((p) => p.ns) };
              const slider = $('step-slider');
              slider.max = String(Math.ceil(r.steps[r.steps.length - 1].ns / 1e6));
              $('stepper').hidden = false;
              showStep(toEnd === true ? r.steps.length - 1 : 0);
            });
          } catch (error) { $('run-status').textContent = error.message; }
          for (const id of ['run', 'step']) $(id).disabled = false;
        }

        // Shows pause `index`; the slider moves to its time unless the slider itself chose it.
        function showStep(index, fromSlider) {
          stepping.index = index;
          const pause = stepping.steps[index];
          if (!fromSlider) $('step-slider').value = String(Math.round(pause.ns / 1e6));
          showPause(stepView, stepping.steps, index, stepping.ending, true);
          $('continue').disabled = index === stepping.steps.length - 1;
          $('step').disabled = index === stepping.steps.length - 1;
        }

        function slide() {
          if (!stepping) return;
          showStep(pauseAt(stepping.times, Number($('step-slider').value)), true);
        }

        async function run() {
          const button = $('run');
          clearPlayground();
          $('step').disabled = false;
          button.disabled = true;
          $('run-status').textContent = 'running…';
          try {
            await startRun('/api/run', { text: $('pipeline').value }, (line) => {
              if (line.queued) $('run-status').textContent = 'waiting: place ' + line.queued + ' in line';
              if (line.event) { $('run-status').textContent = 'running…'; appendEvent($('events'), line.event); }
              if (line.result) {
                const r = line.result;
                showDiagram($('diagram'), r.svg);
                showDiagnostics($('run-diagnostics'), r.diagnostics, $('pipeline'), run);
                const problem = r.error ? r.error.message : r.expectation ? r.expectation.message : '';
                $('run-error').textContent = problem || '';
                $('run-status').textContent = 'done';
              }
            });
          } catch (error) { $('run-status').textContent = error.message; }
          button.disabled = false;
        }

        function showPresent(data) {
          if (data.version === presentVersion) return;
          presentVersion = data.version;
          $('present').hidden = !data.active;
          if (!data.active) return;
          $('present-text').textContent = data.text;
          const list = $('present-events');
          list.replaceChildren();
          const result = data.result || {};
          $('present-error').textContent = result.error ? result.error.message : '';
          // The teacher steps through it: the pause they stand at, as their present view shows.
          const view = { diagram: $('present-diagram'), time: $('present-step-time'), lines: $('present-step-lines') };
          if (data.step) {
            const steps = [];
            steps[data.step.index] = data.step.pause;
            steps.length = data.step.count;
            showPause(view, steps, data.step.index, data.step.ending, false);
            return;
          }
          view.time.textContent = '';
          view.lines.hidden = true;
          for (const event of data.events || []) appendEvent(list, event);
          showDiagram($('present-diagram'), result.svg);
        }

        // The live stream: present mode and this learner's runs, as they happen.
        function openStream() {
          if (stream) return;
          stream = liveStream('/api/stream', headers, { present: showPresent, run: runLine, unauthorized: forget }, (open) => {
            document.body.dataset.live = open ? 'open' : 'closed';
            if (!open) failPendingRuns();
          });
        }

        async function start() {
          $('join').hidden = true;
          $('room').hidden = false;
          openStream();
          const data = await loadList();
          const next = data.exercises.find((e) => !e.passed) || data.exercises[0];
          if (next) await openExercise(next.name);
        }

        $('join-form').addEventListener('submit', join);
        $('check').addEventListener('click', check);
        $('hint').addEventListener('click', hint);
        $('reset').addEventListener('click', reset);
        $('run').addEventListener('click', run);
        $('step').addEventListener('click', () => step(false));
        $('continue').addEventListener('click', () => step(true));
        $('compare').addEventListener('click', compare);
        $('step-slider').addEventListener('input', slide);
        $('open-playground').addEventListener('click', openPlayground);
        if (learner) start().catch(() => forget()); else forget();
        """#
}
