extension Assets {
    /// What both pages share: requests with the token in a header, the streamed results, the
    /// diagram and the diagnostics. Values only ever reach the page through `textContent`.
    static let commonScript = #"""
        'use strict';
        const $ = (id) => document.getElementById(id);

        function element(tag, text, className) {
          const node = document.createElement(tag);
          if (text !== undefined && text !== null) node.textContent = String(text);
          if (className) node.className = className;
          return node;
        }

        // Reads a newline-delimited JSON body as it arrives, one object per line.
        async function readLines(response, onLine) {
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            let newline;
            while ((newline = buffer.indexOf('\n')) >= 0) {
              const line = buffer.slice(0, newline);
              buffer = buffer.slice(newline + 1);
              if (line.trim()) onLine(JSON.parse(line));
            }
          }
          if (buffer.trim()) onLine(JSON.parse(buffer));
        }

        // A live stream of server-sent events. An EventSource cannot send the header token, so each
        // connection starts with a one-time ticket (a POST that carries the token), then opens
        // `path?ticket=T`. On any error the source is closed (a spent ticket would only be refused)
        // and a new ticket is asked for after a pause that grows to 15 s. `handlers` maps event
        // names to functions of the parsed data; `onState(open)` is told when it opens or drops.
        function liveStream(ticketPath, headers, handlers, onState) {
          let source = null;
          let delay = 1000;
          let stopped = false;
          let timer = null;
          function retry() {
            if (stopped) return;
            timer = setTimeout(connect, delay);
            delay = Math.min(delay * 2, 15000);
          }
          async function connect() {
            timer = null;
            try {
              const response = await fetch(ticketPath, { method: 'POST', headers: headers(true), body: '{}' });
              if (response.status === 401 && handlers.unauthorized) { handlers.unauthorized(); return; }
              if (!response.ok) throw new Error('the server answered ' + response.status);
              const data = await response.json();
              if (stopped) return;
              source = new EventSource(data.path + '?ticket=' + encodeURIComponent(data.ticket));
              source.onopen = () => { delay = 1000; onState(true); };
              for (const name of Object.keys(handlers)) {
                source.addEventListener(name, (event) => handlers[name](JSON.parse(event.data)));
              }
              source.onerror = () => { source.close(); source = null; onState(false); retry(); };
            } catch (error) { onState(false); retry(); }
          }
          connect();
          return {
            get open() { return source !== null && source.readyState === EventSource.OPEN; },
            close() { stopped = true; if (timer) clearTimeout(timer); if (source) source.close(); source = null; },
          };
        }

        // Draws the SVG the server made (the same picture as :export). Parsed as XML, never as
        // HTML; scripts, foreign content, event attributes and links are dropped before it is shown.
        function showDiagram(container, svgText) {
          container.replaceChildren();
          if (!svgText) return;
          const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
          const svg = doc.documentElement;
          if (!svg || svg.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length > 0) {
            container.textContent = '(the diagram could not be drawn)';
            return;
          }
          // The SVG's own <style> goes too: the policy refuses inline styles, and room.css carries
          // the diagram's rules (MarbleSVG.styleRules) scoped to .diagram svg.
          for (const bad of Array.from(svg.querySelectorAll('script, style, foreignObject, iframe, object, embed, use'))) bad.remove();
          for (const node of [svg, ...Array.from(svg.querySelectorAll('*'))]) {
            for (const attribute of Array.from(node.attributes)) {
              if (/^on/i.test(attribute.name) || /href$/i.test(attribute.name)) node.removeAttribute(attribute.name);
            }
          }
          container.appendChild(document.importNode(svg, true));
        }

        // Stepping through time (the playground's Step and the present view's): the pauses of a
        // step-through as the server made them with `:step`'s own stepping, each with its time,
        // what `:step` prints there and the diagram so far. `view` has the diagram's box, the
        // time's label and the list of lines; `cumulative` lists every pause's lines up to this
        // one (this one's marked), else only this one's.
        function showPause(view, steps, index, ending, cumulative) {
          const pause = steps[index];
          showDiagram(view.diagram, pause.svg);
          const last = index === steps.length - 1;
          view.time.textContent = '▲ ' + pause.time + ' · pause ' + (index + 1) + ' of ' + steps.length + (last ? ' · ' + endingWords(ending, pause.time, steps.length) : '');
          view.time.dataset.ns = String(pause.ns);
          view.lines.replaceChildren();
          steps.forEach((p, i) => {
            if (i > index || (!cumulative && i < index)) return;
            for (const line of p.lines) {
              const item = element('li', line.trim(), 'event' + (i === index ? ' now' : ''));
              item.dataset.ns = String(p.ns);
              view.lines.appendChild(item);
            }
          });
          view.lines.hidden = view.lines.children.length === 0;
        }

        function endingWords(ending, time, count) {
          if (ending === 'ended') return 'the run ended at ' + time;
          if (ending === 'waiting') return 'nothing more is scheduled: the run waits for input';
          if (ending === 'horizon') return 'stopped: nothing but an endless timer was left';
          return 'the room keeps the first ' + count + ' pauses';
        }

        // The pause a time on the slider (in ms) stands at: the last at or before it.
        function pauseAt(times, ms) {
          let found = 0;
          times.forEach((ns, i) => { if (Number(ns) <= ms * 1e6) found = i; });
          return found;
        }

        function formatValue(value) {
          return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
        }

        // One event as the shell prints it: `+0.100s  value 10`.
        function describeEvent(event) {
          const time = '+' + (Number(event.t || 0)).toFixed(3) + 's';
          let text = event.event;
          if (event.event === 'value') text += ' ' + formatValue(event.value);
          // As the shell prints it: `failed[E602]: …` for an error the language raised.
          if (event.event === 'failed') text = (event.id ? 'failed[' + event.id + ']: ' : 'failed: ') + String(event.error);
          if (event.event === 'finished' || event.event === 'failed') text += '  (' + event.count + (event.count === 1 ? ' value)' : ' values)');
          if (event.event === 'note') text = 'note: ' + String(event.text);
          return { time, text, kind: event.event };
        }

        function appendEvent(list, event) {
          const { time, text, kind } = describeEvent(event);
          const item = element('li', null, 'event ' + kind);
          item.appendChild(element('span', time, 'time'));
          item.appendChild(document.createTextNode(' '));
          item.appendChild(element('span', text, 'what'));
          list.appendChild(item);
        }

        // Diagnostics under an editor, each said once: the headline (position, id, message), the
        // source excerpt with its caret (the rendered text without its own headline and help
        // lines, which would say them again), the help once, what the id means, and a button
        // that makes the fix-it and then `onFix` (runs or checks the fixed text).
        function showDiagnostics(container, diagnostics, editor, onFix) {
          container.replaceChildren();
          for (const d of diagnostics || []) {
            const box = element('div', null, 'diagnostic ' + d.severity);
            box.appendChild(element('div', d.line + ':' + d.column + ': ' + d.severity + '[' + d.id + ']: ' + d.message, 'headline'));
            if (d.rendered) {
              const excerpt = String(d.rendered).split('\n').slice(1).filter((line) => !/^\s*(help|= help):/.test(line)).join('\n');
              if (excerpt.trim()) box.appendChild(element('pre', excerpt, 'rendered'));
            }
            if (d.help) box.appendChild(element('div', 'help: ' + d.help, 'help'));
            // What the id means, as `plumb help ID` says it: the room's way to read more.
            if (d.explanation) {
              const more = element('details', null, 'explanation');
              more.appendChild(element('summary', 'What ' + d.id + ' means', null));
              more.appendChild(element('pre', d.explanation, null));
              box.appendChild(more);
            }
            if (typeof d.fixed === 'string' && editor) {
              const fix = element('button', 'Apply the fix', 'fix');
              fix.addEventListener('click', () => {
                editor.value = d.fixed;
                container.replaceChildren();
                editor.focus();
                if (onFix) onFix();
              });
              box.appendChild(fix);
            }
            if (editor && d.severity === 'error' && typeof d.start === 'number') {
              editor.focus();
              editor.setSelectionRange(d.start, Math.max(d.start + 1, d.end));
            }
            container.appendChild(box);
          }
        }
        """#
}
