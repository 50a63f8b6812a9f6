extension Assets {
    static let teacherScript = #"""
        'use strict';
        const key = new URLSearchParams(location.search).get('key') || '';
        let sortBy = 'name';
        let lastRoom = null;
        // Rows per column of the table before it takes a second column (40 learners fit 1280×720).
        const rowsPerColumn = 20;

        function headers(withBody) {
          const h = { 'X-Plumb-Key': key };
          if (withBody) h['Content-Type'] = 'application/json';
          return h;
        }

        function duration(seconds) {
          if (seconds < 60) return seconds + 's';
          return Math.floor(seconds / 60) + 'm';
        }

        // The learners in the order asked for: by name (as the server sends them), by progress
        // (most passed first), or stuck first (then the fewest passed). Ties keep the name order.
        function ordered(learners) {
          const list = learners.slice();
          if (sortBy === 'progress') list.sort((a, b) => b.passed - a.passed);
          if (sortBy === 'stuck') list.sort((a, b) => (b.stuck ? 1 : 0) - (a.stuck ? 1 : 0) || a.passed - b.passed);
          return list;
        }

        function exerciseLabel(name) {
          const digits = /^\d+/.exec(name);
          return digits ? String(Number(digits[0])) : name.slice(0, 2);
        }

        // One column of the table: fixed column widths (nothing moves when a cell gains a time),
        // the exercises' totals under their names, then a row per learner.
        function tableOf(data, learners) {
          const table = element('table', null, 'room-table');
          const columns = element('colgroup');
          columns.appendChild(element('col', null, 'c-name'));
          columns.appendChild(element('col', null, 'c-done'));
          for (let i = 0; i < data.exercises.length; i++) columns.appendChild(element('col', null, 'c-exercise'));
          columns.appendChild(element('col', null, 'c-now'));
          table.appendChild(columns);
          const head = element('thead');
          const names = element('tr', null, 'head');
          names.appendChild(element('th', 'learner'));
          names.appendChild(element('th', '✓', 'done')).title = 'exercises passed (of ' + data.exercises.length + ')';
          data.exercises.forEach((name) => { names.appendChild(element('th', exerciseLabel(name), 'exercise')).title = name; });
          names.appendChild(element('th', 'now on'));
          head.appendChild(names);
          for (const [field, label] of [['passed', 'passed'], ['trying', 'trying'], ['notStarted', 'not started']]) {
            const row = element('tr', null, 'total ' + field);
            const th = element('th', label, 'total-label');
            th.colSpan = 2;
            row.appendChild(th);
            data.totals.forEach((total, index) => {
              const td = element('td', total[field], 'total-cell');
              td.dataset.exercise = data.exercises[index];
              td.title = data.exercises[index] + ': ' + total.passed + ' passed, ' + total.trying + ' trying, ' + total.notStarted + ' not started';
              row.appendChild(td);
            });
            row.appendChild(element('td'));
            head.appendChild(row);
          }
          table.appendChild(head);
          const body = element('tbody');
          for (const learner of learners) body.appendChild(rowOf(data, learner));
          table.appendChild(body);
          return table;
        }

        function rowOf(data, learner) {
          const row = element('tr', null, 'learner' + (learner.stuck ? ' stuck' : ''));
          const who = element('th', learner.name, 'learner-name');
          who.title = learner.name;
          row.appendChild(who);
          row.appendChild(element('td', learner.passed, 'done')).title = learner.passed + ' of ' + data.exercises.length + ' passed';
          learner.cells.forEach((cell, index) => {
            const state = cell.passed ? 'passed' : cell.message ? 'failing' : cell.opened ? 'open' : 'untouched';
            const td = element('td', null, 'cell ' + state);
            td.dataset.exercise = data.exercises[index];
            td.appendChild(element('span', cell.passed ? '✓' : cell.message ? '✗' : cell.opened ? '•' : '', 'mark'));
            td.title = data.exercises[index] + (cell.opened ? ' · ' + duration(cell.seconds) : '') + '\nchecks: ' + cell.checks + ', hints: ' + cell.hintsUsed
              + (cell.message ? '\n' + cell.message : '');
            row.appendChild(td);
          });
          const now = element('td', null, 'now');
          if (typeof learner.current === 'number') {
            const cell = learner.cells[learner.current];
            if (learner.stuck) now.appendChild(element('span', '⚑', 'flag'));
            now.appendChild(element('span', '№' + exerciseLabel(data.exercises[learner.current]) + ' ' + duration(cell.seconds) + (cell.checks ? ' ' + cell.checks + '✗' : ''), 'where'));
            now.title = data.exercises[learner.current] + (learner.stuck ? '\nstuck: ' + learner.stuck : '');
          }
          row.appendChild(now);
          return row;
        }

        // The table, from the live stream's `room` event.
        function showRoom(data) {
          lastRoom = data;
          $('room-error').textContent = '';
          $('stuck-rule').textContent = '⚑ ' + data.stuckRule + ' · ✓ passed · ✗ failing · • opened';
          const learners = ordered(data.learners);
          const columns = learners.length > rowsPerColumn ? 2 : 1;
          const per = Math.ceil(learners.length / columns) || 0;
          const tables = $('room-tables');
          tables.replaceChildren();
          tables.className = 'columns-' + columns;
          for (let c = 0; c < columns; c++) tables.appendChild(tableOf(data, learners.slice(c * per, (c + 1) * per)));
          showMistakes(data);
          const count = data.learners.length;
          const stuck = data.learners.filter((l) => l.stuck).length;
          $('summary').textContent = count + (count === 1 ? ' learner' : ' learners') + ' · ' + stuck + ' stuck · ' + data.running + ' running · ' + data.waiting + ' waiting' + (data.present ? ' · presenting' : '');
        }

        // The room's common mistakes, exercise by exercise, the largest group first. The table
        // comes again at every change and every few seconds; groups that did not change keep their
        // elements, so a refresh never swaps a Show button from under the teacher's pointer.
        let shownMistakes = null;
        function showMistakes(data) {
          const shown = JSON.stringify([data.mistakes, data.mistakesLeftOut]);
          if (shown === shownMistakes) return;
          shownMistakes = shown;
          const list = $('mistakes');
          list.replaceChildren();
          if (!data.mistakes.length) { list.appendChild(element('p', 'No failing checks.', 'quiet')); return; }
          for (const group of data.mistakes) {
            const item = element('div', null, 'mistake');
            item.dataset.exercise = group.exercise;
            item.appendChild(element('span', group.count + '×', 'count'));
            item.appendChild(element('span', ' ' + group.exercise + ' ', 'exercise'));
            const show = element('button', 'Show', 'quiet show-mistake');
            show.title = 'present one answer with this failure (no name)';
            show.addEventListener('click', () => { $('present-input').value = group.example; present(group.example); });
            item.appendChild(show);
            item.appendChild(element('div', group.failure, 'failure'));
            list.appendChild(item);
          }
          if (data.mistakesLeftOut) list.appendChild(element('p', '… and ' + data.mistakesLeftOut + ' smaller groups', 'quiet small'));
        }

        async function present(text) {
          $('present-status').textContent = text ? 'running…' : '';
          try {
            const response = await fetch('/api/teacher/present', { method: 'POST', headers: headers(true), body: JSON.stringify({ text }) });
            if (!response.ok) {
              const data = await response.json().catch(() => ({}));
              throw new Error(data.error || ('the server answered ' + response.status));
            }
            await readLines(response, (line) => {
              if (line.result) {
                $('present-status').textContent = line.result.error ? line.result.error.message : 'shown on every learner\'s page and the present view';
              }
              if (line.active === false) $('present-status').textContent = 'stopped';
            });
          } catch (error) { $('present-status').textContent = error.message; }
        }

        // How learners join: the URL and its QR code; on loopback, why phones cannot, and the
        // command that lets them.
        async function loadJoin() {
          try {
            const response = await fetch('/api/teacher/join', { headers: headers(false) });
            const data = await response.json();
            if (!data.url) return;
            const link = $('join-url');
            link.textContent = data.url;
            link.href = data.url;
            showDiagram($('join-qr'), data.svg);
            showDiagram($('qr-large-code'), data.svg);
            $('qr-large-url').textContent = data.url;
            $('join-warning').textContent = data.warning ? data.warning + '. To let them join:' : '';
            $('join-command').hidden = !data.command;
            $('join-command').textContent = data.command || '';
          } catch (error) { $('join-warning').textContent = 'cannot read the join URL: ' + error.message; }
        }

        for (const button of document.querySelectorAll('[data-sort]')) {
          button.addEventListener('click', () => {
            sortBy = button.dataset.sort;
            for (const other of document.querySelectorAll('[data-sort]')) other.setAttribute('aria-pressed', String(other === button));
            if (lastRoom) showRoom(lastRoom);
          });
        }
        // The QR code large, for the back of the room: over the whole page until a click or Escape.
        $('join-qr').addEventListener('click', () => { $('qr-large').hidden = false; });
        $('qr-large').addEventListener('click', () => { $('qr-large').hidden = true; });
        document.addEventListener('keydown', (event) => { if (event.key === 'Escape') $('qr-large').hidden = true; });
        $('present-start').addEventListener('click', () => present($('present-input').value));
        $('present-stop').addEventListener('click', () => present(''));
        $('open-present-view').addEventListener('click', () => window.open('/present?key=' + encodeURIComponent(key), 'plumb-present'));
        loadJoin();
        // The table comes on the live stream: at once, at every change, and every few seconds.
        liveStream('/api/teacher/stream', headers, { room: showRoom }, (open) => {
          document.body.dataset.live = open ? 'open' : 'closed';
          if (!open) $('room-error').textContent = 'reconnecting to the room…';
        });
        """#

    /// The present view's script: the teacher's stream's `present` events, the diagram scaled so
    /// that its smallest text is at least 16 px (the room draws the presented diagram at most
    /// `RoomRuns.presentDiagramWidth` wide, so at 1280 px it fits; a wider one scrolls sideways),
    /// and Step, Continue, Whole run and the slider, which move the presentation for every learner.
    static let presentScript = #"""
        'use strict';
        const key = new URLSearchParams(location.search).get('key') || '';
        const smallestText = 16;

        function headers(withBody) {
          const h = { 'X-Plumb-Key': key };
          if (withBody) h['Content-Type'] = 'application/json';
          return h;
        }

        // Scales the diagram to the page's width, and further when its smallest text would
        // still be under `smallestText` pixels.
        function scaleDiagram() {
          const svg = document.querySelector('#present-diagram svg');
          if (!svg || !svg.viewBox.baseVal || !svg.viewBox.baseVal.width) return;
          const natural = svg.viewBox.baseVal.width;
          let smallest = Infinity;
          for (const text of svg.querySelectorAll('text')) smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) || Infinity);
          const available = document.documentElement.clientWidth - 32;
          let scale = available / natural;
          if (smallest !== Infinity) scale = Math.max(scale, smallestText / smallest);
          svg.style.width = Math.ceil(natural * scale) + 'px';
          svg.style.height = 'auto';
          document.body.dataset.scale = scale.toFixed(3);
        }

        // What is presented now, as the last `present` event said it.
        let presented = { active: false };
        const view = { diagram: $('present-diagram'), time: $('present-step-time'), lines: $('present-step-lines') };

        function showPresent(data) {
          presented = data;
          $('present-idle').hidden = data.active;
          $('present-controls').hidden = !data.active;
          $('present-text').textContent = data.active ? data.text : '';
          const result = data.result || {};
          $('present-error').textContent = data.active && result.error ? result.error.message : '';
          const slider = $('present-slider');
          if (data.active && data.step) {
            const steps = [];
            steps[data.step.index] = data.step.pause;
            steps.length = data.step.count;
            showPause(view, steps, data.step.index, data.step.ending, false);
            slider.hidden = false;
            slider.max = String(Math.ceil(Number(data.step.times[data.step.count - 1]) / 1e6));
            if (!sliding) slider.value = String(Math.round(Number(data.step.pause.ns) / 1e6));
          } else {
            showDiagram($('present-diagram'), data.active ? result.svg : null);
            view.time.textContent = '';
            view.lines.hidden = true;
            slider.hidden = true;
          }
          scaleDiagram();
        }

        // Moves the presentation to a pause (null: the whole run); every learner's view follows.
        // One request at a time: a slider dragged past several pauses sends the last it reached.
        let moving = false;
        let wanted;
        let sliding = false;
        async function moveTo(pause) {
          wanted = pause;
          if (moving) return;
          moving = true;
          try {
            while (wanted !== undefined) {
              const next = wanted;
              wanted = undefined;
              view.time.textContent = presented.step ? view.time.textContent : 'stepping…';
              const response = await fetch('/api/teacher/present/step', { method: 'POST', headers: headers(true), body: JSON.stringify({ pause: next }) });
              if (!response.ok) {
                const data = await response.json().catch(() => ({}));
                throw new Error(data.error || ('the server answered ' + response.status));
              }
              await readLines(response, (line) => {
                if (line.result && line.result.error) $('present-error').textContent = line.result.error.message;
              });
            }
          } catch (error) { $('present-error').textContent = error.message; }
          moving = false;
        }

        $('present-step').addEventListener('click', () => moveTo(presented.step ? presented.step.index + 1 : 0));
        $('present-continue').addEventListener('click', () => moveTo(1e9));
        $('present-whole').addEventListener('click', () => moveTo(null));
        $('present-slider').addEventListener('input', () => {
          if (!presented.step) return;
          sliding = true;
          moveTo(pauseAt(presented.step.times, Number($('present-slider').value)));
        });
        $('present-slider').addEventListener('change', () => { sliding = false; });
        window.addEventListener('resize', scaleDiagram);
        liveStream('/api/teacher/stream', headers, { present: showPresent }, (open) => {
          document.body.dataset.live = open ? 'open' : 'closed';
        });
        """#
}
