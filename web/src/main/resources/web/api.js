// The page's calls to the lab server. A run's answer may be streamed with leading whitespace while the server
// works, and may end as {"error": ...} even with status 200 (a run stopped after its answer began): an
// answer with an error key is an error whatever its status.

/**
 * POST /api/run: resolves to { ok: true, body, res } or { ok: false, error, res }; rejects only when the
 * request failed (the server is gone) or was aborted.
 */
export async function postRun(scenario, signal) {
  const res = await fetch('/api/run', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(scenario), signal });
  let body;
  try {
    body = await res.json();
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    return { ok: false, res, error: `The server's answer (${res.status}) was not JSON: ${e.message}` };
  }
  if (!res.ok || (body && typeof body === 'object' && 'error' in body)) {
    return { ok: false, res, error: body?.error ?? `The server answered ${res.status}.` };
  }
  return { ok: true, res, body };
}

/** POST /api/hinges: what the run's answer hinges on, with the other fault pattern compared (a second run). */
export async function postHinges(scenario, signal) {
  const res = await fetch('/api/hinges', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(scenario), signal });
  const body = await res.json().catch(() => null);
  return res.ok && body && Array.isArray(body.hinges) ? body.hinges : null;
}

/** Milliseconds the server spent on the run, from its Server-Timing header (NaN if absent). */
export function serverTiming(res) {
  const m = /dur=([0-9.]+)/.exec(res.headers.get('Server-Timing') ?? '');
  return m ? Number(m[1]) : NaN;
}

/** The schema of Export JSON's document, in both profiles; {@code outlier-lab run FILE} reads its "inputs". */
export const EXPORT_SCHEMA = 'outlier-lab.lab-export.v1';

/** Saves a JSON document as a download named {@code name}. */
export function download(doc, name) {
  const blob = new Blob([JSON.stringify(doc, null, 2) + '\n'], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return name;
}

export function slug(name) {
  return String(name || 'scenario').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'scenario';
}
