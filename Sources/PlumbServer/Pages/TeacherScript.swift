extension Assets {
    static let teacherScript = #"""
        'use strict';
        const key = new URLSearchParams(location.search).get('key') || '';

        function headers(withBody) {
          const h = { 'X-Plumb-Key': key };
          if (withBody) h['Content-Type'] = 'application/json';
          return h;
        }

        function duration(seconds) {
          if (seconds < 60) return seconds + ' s';
          return Math.floor(seconds / 60) + ' min';
        }

        // The table, from the live stream's `room` event.
        function showRoom(data) {
          $('room-error').textContent = '';
          const head = $('room-head');
          head.replaceChildren(element('th', 'learner'));
          for (const name of data.exercises) head.appendChild(element('th', name.slice(0, 2), 'exercise')).title = name;
          const body = $('room-body');
          body.replaceChildren();
          for (const learner of data.learners) {
            const row = element('tr');
            const who = element('th', learner.name, 'learner-name');
            who.appendChild(element('span', ' ' + learner.passed + '/' + data.exercises.length, 'quiet'));
            row.appendChild(who);
            learner.cells.forEach((cell, index) => {
              const state = cell.passed ? 'passed' : cell.message ? 'failing' : cell.opened ? 'open' : 'untouched';
              const td = element('td', null, 'cell ' + state);
              td.dataset.exercise = data.exercises[index];
              td.appendChild(element('span', cell.passed ? '✓' : cell.message ? '✗' : cell.opened ? '…' : '', 'mark'));
              if (cell.hintsUsed > 0) td.appendChild(element('span', ' h' + cell.hintsUsed, 'hints'));
              if (cell.opened) td.appendChild(element('span', ' ' + duration(cell.seconds), 'time'));
              td.title = data.exercises[index] + (cell.message ? '\n' + cell.message : '') + '\nchecks: ' + cell.checks + ', hints: ' + cell.hintsUsed;
              row.appendChild(td);
            });
            body.appendChild(row);
          }
          const count = data.learners.length;
          $('summary').textContent = count + (count === 1 ? ' learner · ' : ' learners · ') + data.running + ' running · ' + data.waiting + ' waiting' + (data.present ? ' · presenting' : '');
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
                showDiagram($('present-diagram'), line.result.svg);
                $('present-status').textContent = line.result.error ? line.result.error.message : 'shown on every learner\'s page';
              }
              if (line.active === false) { $('present-status').textContent = 'stopped'; $('present-diagram').replaceChildren(); }
            });
          } catch (error) { $('present-status').textContent = error.message; }
        }

        $('present-start').addEventListener('click', () => present($('present-input').value));
        $('present-stop').addEventListener('click', () => present(''));
        // The table comes on the live stream: at once, at every change, and every few seconds.
        liveStream('/api/teacher/stream', headers, { room: showRoom }, (open) => {
          document.body.dataset.live = open ? 'open' : 'closed';
          if (!open) $('room-error').textContent = 'reconnecting to the room…';
        });
        """#
}
