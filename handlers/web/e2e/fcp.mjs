// The first contentful paint of /: how long a visitor waits before the
// calculator's page shows anything. The browser suite (run.mjs) reports it;
// on its own this file builds fiplan, starts it on a free port with a
// temporary database and prints the figure:
//
//   cd handlers/web/e2e && node fcp.mjs      (or: make fcp)
//
// RUNS sets how many loads the median is of (default 9); CHROMIUM
// overrides the browser path (default /usr/bin/chromium).
//
// Each load is in a fresh browser context: no cache, no cookies, no
// service worker, as a first visit. The browser's start-up is timed apart,
// and its first load is reported apart as well ("cold": the first page of a
// new browser also starts its renderer and network processes, and may meet
// a server that has just started). The median is of the loads after it,
// once the server says it has compressed its pages and files.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

// chromiumOptions are the launch options every browser of the tests uses.
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// paintOnce loads url in a fresh context and answers its first contentful
// paint in ms after navigation start, as the page's own Paint Timing entry
// says.
async function paintOnce(browser, url) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await ctx.newPage();
    await page.goto(url);
    return await page.evaluate(() => new Promise((ok) => {
      const e = performance.getEntriesByName('first-contentful-paint')[0];
      if (e) return ok(e.startTime);
      new PerformanceObserver((l) => ok(l.getEntries()[0].startTime)).observe({ type: 'paint', buffered: true });
    }));
  } finally {
    await ctx.close();
  }
}

// measureFCP starts a browser of its own, loads base + '/' once cold, waits
// for ready() (the server's start-up work done), then runs more times, and
// answers { startup, cold, runs, median } in ms.
export async function measureFCP({ base, runs = 9, ready = async () => {} }) {
  const t0 = performance.now();
  const browser = await chromium.launch(chromiumOptions);
  const startup = performance.now() - t0;
  try {
    const cold = await paintOnce(browser, base + '/');
    await ready();
    const times = [];
    for (let i = 0; i < runs; i++) times.push(await paintOnce(browser, base + '/'));
    return { startup, cold, runs: times, median: median(times) };
  } finally {
    await browser.close();
  }
}

// serverWarm answers a function that waits, up to 30 s, for the server's
// log at debug level to say the web app's compressed forms are made.
export function serverWarm(logPath) {
  return async () => {
    for (let i = 0; i < 300; i++) {
      if (readFileSync(logPath, 'utf8').includes('"msg":"web app compressed"')) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the server did not finish compressing its web files in 30 s (log: ${logPath})`);
  };
}

// describeFCP is the figure as the suite and make fcp print it.
export const describeFCP = (m) => `first contentful paint of /: median ${m.median.toFixed(0)} ms of ${m.runs.length} loads in fresh contexts `
  + `(${m.runs.map((x) => x.toFixed(0)).join(' ')}); first load of a new browser ${m.cold.toFixed(0)} ms; browser start-up ${m.startup.toFixed(0)} ms`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const work = mkdtempSync(join(tmpdir(), 'fiplan-fcp-'));
  const bin = join(work, 'fiplan');
  execFileSync('go', ['build', '-o', bin, './cmd/fiplan'], { cwd: repo, stdio: 'inherit' });
  const port = await new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); });
    s.on('error', fail);
  });
  const base = `http://127.0.0.1:${port}`;
  const log = join(work, 'fiplan.log');
  const server = spawn(bin, [], {
    env: { ...process.env, FI_ADDR: `127.0.0.1:${port}`, FI_DB: join(work, 'fiplan.db'), FI_PUBLIC_URL: base, FI_LOG_LEVEL: 'debug', FI_WEB_WARM: 'on' },
    stdio: ['ignore', 'ignore', openSync(log, 'w')],
  });
  try {
    let up = false;
    for (let i = 0; i < 100 && !up; i++) {
      try { up = (await fetch(base + '/api/v1/status')).ok; } catch { /* not yet */ }
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
    if (!up) throw new Error(`fiplan did not start (log: ${log})`);
    console.log(describeFCP(await measureFCP({ base, runs: Number(process.env.RUNS || 9), ready: serverWarm(log) })));
  } finally {
    server.kill('SIGTERM');
  }
}
