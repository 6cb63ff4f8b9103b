// The Tune view: runs POST /api/tune (or reads the JSON of `outlier-lab tune --format json`) and shows the front
// of benefit against harm as a scatter plot in SVG. Each point links to the lab with that setting on the default
// case (the lab reads #scenario=JSON from its URL).

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

function labLink(row) {
  return `/#scenario=${encodeURIComponent(JSON.stringify(row.lab_scenario))}`;
}

function fmt(x, digits = 1) {
  return x === null || x === undefined ? '-' : Number(x).toFixed(digits);
}

function plot(front) {
  const svg = $('tune-plot');
  svg.replaceChildren();
  const w = 640, h = 360, left = 60, bottom = 40, top = 20, right = 20;
  const maxHarm = Math.max(1, ...front.map((r) => r.harm));
  const x = (harm) => left + (harm / maxHarm) * (w - left - right);
  const y = (benefit) => top + (1 - Math.max(0, Math.min(100, benefit)) / 100) * (h - top - bottom);
  const line = (x1, y1, x2, y2) => {
    const l = document.createElementNS(SVG, 'line');
    Object.entries({ x1, y1, x2, y2, stroke: '#888' }).forEach(([k, v]) => l.setAttribute(k, v));
    svg.appendChild(l);
  };
  const text = (tx, ty, s, anchor = 'middle') => {
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('x', tx); t.setAttribute('y', ty); t.setAttribute('text-anchor', anchor);
    t.setAttribute('font-size', '12'); t.textContent = s;
    svg.appendChild(t);
  };
  line(left, h - bottom, w - right, h - bottom);
  line(left, top, left, h - bottom);
  text((left + w - right) / 2, h - 8, 'harm (false ejections per run + failures added, points)');
  text(14, top + 4, '100 %', 'start');
  text(14, h - bottom, '0 %', 'start');
  text(w - right, h - bottom + 16, fmt(maxHarm, 2), 'end');
  text(left + 8, h - bottom + 16, '0', 'start');
  for (const row of front) {
    const a = document.createElementNS(SVG, 'a');
    a.setAttribute('href', labLink(row));
    a.setAttribute('class', 'tune-point');
    const c = document.createElementNS(SVG, 'circle');
    c.setAttribute('cx', x(row.harm));
    c.setAttribute('cy', y(row.benefit_percent));
    c.setAttribute('r', row.recommended ? 8 : 5);
    c.setAttribute('fill', row.recommended ? '#c2410c' : (row.admissible ? '#2563eb' : '#9ca3af'));
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${row.label}: benefit ${fmt(row.benefit_percent)} %, harm ${fmt(row.harm, 2)}`
      + (row.recommended ? ' (recommended)' : '') + (row.admissible ? '' : ' (breaks a constraint)');
    c.appendChild(title);
    a.appendChild(c);
    svg.appendChild(a);
  }
}

function show(result) {
  $('tune-result').hidden = false;
  plot(result.front);
  const body = $('tune-front').querySelector('tbody');
  body.replaceChildren();
  for (const row of result.front) {
    const tr = document.createElement('tr');
    const cells = [row.recommended ? '*' : '', `${fmt(row.benefit_percent)} %`, `${fmt(row.worst_seed_benefit_percent)} %`,
      fmt(row.harm, 2), fmt(row.detect_seconds), fmt(row.return_seconds),
      row.label + (row.admissible ? '' : ' (breaks a constraint)')];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.appendChild(td);
    }
    const td = document.createElement('td');
    const a = document.createElement('a');
    a.href = labLink(row);
    a.textContent = 'open in the lab';
    td.appendChild(a);
    tr.appendChild(td);
    body.appendChild(tr);
  }
  $('tune-why').textContent = result.why;
  $('tune-file-text').textContent = result.recommended.file;
  const list = (id, items) => {
    $(id).replaceChildren(...items.map((s) => {
      const li = document.createElement('li');
      li.textContent = s;
      return li;
    }));
  };
  list('tune-cannot', result.cannot_catch);
  list('tune-detectors', result.detectors);
  $('tune-status').textContent = `${result.search.candidates} candidates, ${result.search.runs} runs, `
    + `${result.request.hosts} hosts at ${result.request.rps} rps, target ${result.request.target}`;
}

function error(message) {
  $('tune-error').textContent = message;
  $('tune-error').hidden = !message;
}

async function tune(event) {
  event.preventDefault();
  error('');
  $('tune-status').textContent = 'Searching… (a default tune takes a while: every candidate on the whole suite)';
  $('tune-run').disabled = true;
  const body = {
    hosts: Number($('tune-hosts').value), rps: Number($('tune-rps').value),
    clients: Number($('tune-clients').value), target: $('tune-target').value, seeds: Number($('tune-seeds').value),
  };
  try {
    const response = await fetch('/api/tune', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const json = JSON.parse((await response.text()).trim());
    if (json.error) {
      error(json.error);
      $('tune-status').textContent = '';
    } else {
      show(json);
    }
  } catch (e) {
    error(`The search failed: ${e.message}`);
    $('tune-status').textContent = '';
  } finally {
    $('tune-run').disabled = false;
  }
}

async function load() {
  const file = $('tune-file').files[0];
  if (!file) return;
  error('');
  try {
    const json = JSON.parse(await file.text());
    if (!json.front || !json.recommended) throw new Error('not the JSON of outlier-lab tune --format json');
    show(json);
  } catch (e) {
    error(`${file.name}: ${e.message}`);
  }
}

$('tune-form').addEventListener('submit', tune);
$('tune-file').addEventListener('change', load);
