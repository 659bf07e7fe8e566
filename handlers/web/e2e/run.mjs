// Browser tests of the web app. It builds fiplan, starts it in local mode on
// a free port with a temporary database, drives Debian's Chromium through
// playwright-core, and saves screenshots at 375 and 1280 px wide.
//
//   cd handlers/web/e2e && npm ci && node run.mjs
//
// CHROMIUM overrides the browser path (default /usr/bin/chromium).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, mkdirSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHTTPServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { chromiumOptions, measureFCP, serverWarm, describeFCP } from './fcp.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// SHOTS keeps the screenshots of every page in each language and colour
// scheme (default: under the run's temporary directory).

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const work = mkdtempSync(join(tmpdir(), 'fiplan-e2e-'));
const shots = join(work, 'screenshots');
mkdirSync(shots);
const pageShots = process.env.SHOTS || join(work, 'pages');
mkdirSync(pageShots, { recursive: true });

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); });
    s.on('error', fail);
  });
}

async function waitUp(base) {
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(base + '/api/v1/status')).ok) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('fiplan did not start');
}

console.log('building fiplan…');
const bin = join(work, 'fiplan');
execFileSync('go', ['build', '-o', bin, './cmd/fiplan'], { cwd: repo, stdio: 'inherit' });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(bin, [], {
  // The signed-in user's allowance is raised: a household plan with its
  // Monte Carlo costs what its work measures, and the suite computes many;
  // the anonymous limit stays the default, which a test spends.
  env: { ...process.env, FI_ADDR: `127.0.0.1:${port}`, FI_DB: join(work, 'fiplan.db'), FI_PUBLIC_URL: base, FI_LOG_LEVEL: 'debug', FI_WEB_WARM: 'on', FI_RATE_FREE: '100000/1m', FI_RATE_PRO: '100000/1m' },
  stdio: ['ignore', 'ignore', openSync(join(work, 'fiplan.log'), 'w')],
});
let failed = 0;
let browser;
try {
  await waitUp(base);
  browser = await chromium.launchPersistentContext(join(work, 'profile'), {
    ...chromiumOptions,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const page = browser.pages()[0] || await browser.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  // The API's refusals during a test, printed when it fails.
  const refused = [];
  page.on('response', (r) => {
    if (r.status() >= 400 && r.url().includes('/api/')) refused.push(`${r.status()} ${r.request().method()} ${r.url().replace(base, '')}`);
  });

  const shot = async (name) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(400); // charts redraw at the new width
      await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  const tests = [];
  const test = (name, fn) => tests.push({ name, fn });
  // A request body as the calculator's query string: each key's value as
  // JSON, a string as it is; an empty value leaves out a key of the page's
  // defaults (monteCarlo=&historical= turn both off).
  const query = (body) => new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  const ctx = {};

  test('first paint of / and the public calculator', async () => {
    await page.goto(base + '/');
    await page.waitForSelector('#fi-number');
    assert.equal(await page.locator('h1').count(), 1);
  });

  test('a calculation: numbers and chart match the API', async () => {
    await page.goto(base + '/');
    await page.waitForSelector('#fi-number');
    await page.fill('#currentAge', '41');
    await page.fill('#annualIncome', '82000');
    await page.fill('#annualExpenses', '39000');
    await page.fill('#currentSavings', '120000');
    await page.click('#add-scenario');
    const [resp] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.click('#calc button[type=submit]'),
    ]);
    const d = (await resp.json()).data;
    await page.waitForFunction((n) => document.querySelector('#fi-number')?.textContent === n,
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(d.fiNumber));
    assert.equal(await page.textContent('#years-to-fi'), `${d.yearsToFI} years`);
    assert.equal(await page.textContent('#fi-age'), String(d.fiAge));
    // By default the chart is in today's money, as the Monte Carlo band is:
    // the balance drawn is the real one, and every label says so.
    const real = page.locator('polyline[data-series=real]');
    assert.equal(Number(await real.getAttribute('data-count')), d.projections.length);
    assert.equal(Number(await real.getAttribute('data-last')), d.projections.at(-1).realEndBalance);
    assert.equal(await page.locator('polyline[data-series=nominal]').count(), 0, 'no balance in money of each year beside a band in today\'s money');
    assert.equal(Number(await page.locator('line[data-series=fi-number]').getAttribute('data-last')), d.fiNumber);
    assert.equal(d.scenarios.length, 1);
    assert.equal(Number(await page.locator('polyline[data-series=scenario-0]').getAttribute('data-count')), d.scenarios[0].projections.length);
    assert.equal(Number(await page.locator('path[data-series=mc]').getAttribute('data-count')), d.monteCarlo.balances.length);
    assert.equal(Number(await page.locator('path[data-series=mc]').getAttribute('data-last')), d.monteCarlo.balances.at(-1).p90);
    const legend = await page.locator('#chart .legend li').allTextContents();
    assert.ok(legend.length >= 4 && legend.every((l) => l.includes("today's money")), `legend ${JSON.stringify(legend)}`);
    // The real balance sits inside the band for most years (it is a path of
    // average returns); the nominal one, before, sat above the 90th percentile.
    const inside = d.monteCarlo.balances.filter((b, i) => d.projections[i].realEndBalance <= b.p90).length;
    assert.ok(inside >= d.monteCarlo.balances.length * 0.9, `${inside} of ${d.monteCarlo.balances.length} years inside the band`);
    // In money of each year: the nominal balance, and the band grown by the
    // plan's price level.
    await page.check('#chart-nominal');
    const nominal = page.locator('polyline[data-series=nominal]');
    assert.equal(Number(await nominal.getAttribute('data-last')), d.projections.at(-1).endBalance);
    const lvl = d.projections.at(-1).endBalance / d.projections.at(-1).realEndBalance;
    const hi = Number(await page.locator('path[data-series=mc]').getAttribute('data-last'));
    assert.ok(Math.abs(hi - d.monteCarlo.balances.at(-1).p90 * lvl) < 1, `band top ${hi}`);
    assert.ok((await page.locator('#chart .legend').textContent()).includes('money of each year'));
    await page.check('#chart-real');
    await page.waitForSelector('polyline[data-series=real]');
    assert.equal(await page.locator('#table tbody tr').count(), d.projections.length);
    assert.match(await page.textContent('#mc-success'), /%$/);
    assert.match(await page.textContent('#hist-success'), /%$/);
    ctx.calc = d;
    ctx.url = page.url();
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const csv = readFileSync(await dl.path(), 'utf8').trim().split('\n');
    assert.equal(csv.length, d.projections.length + 1);
    assert.equal(csv[1].split(',')[6], String(d.projections[0].endBalance));
    await shot('calculator');
  });

  test('the shared URL reloads the same plan', async () => {
    assert.match(ctx.url, /currentAge=41/);
    const p2 = await browser.newPage();
    await p2.goto(ctx.url);
    await p2.waitForSelector('#fi-number');
    assert.equal(await p2.inputValue('#currentAge'), '41');
    assert.equal(await p2.inputValue('#sc0-name'), 'Spend less');
    const fi = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(ctx.calc.fiNumber);
    await p2.waitForFunction((n) => document.querySelector('#fi-number')?.textContent === n, fi);
    await p2.reload();
    await p2.waitForFunction((n) => document.querySelector('#fi-number')?.textContent === n, fi);
    await p2.close();
  });

  test('a link kept from before the page had one state still opens: percentages, boxes and scenarios read', async () => {
    const p = await browser.newPage();
    const sent = p.waitForRequest((r) => r.url().endsWith('/api/v1/calculator') && r.method() === 'POST');
    await p.goto(base + '/?currentAge=41&annualIncome=90000&annualExpenses=40000&expectedReturn=6&mc=0&sc=Lean~30000~');
    const body = JSON.parse((await sent).postData() || '{}');
    assert.equal(body.currentAge, 41);
    assert.equal(body.expectedReturn, 0.06);
    assert.equal(body.monteCarlo, undefined);
    assert.deepEqual(body.scenarios, [{ name: 'Lean', annualExpenses: 30000 }]);
    await p.waitForSelector('#fi-number');
    assert.equal(await p.inputValue('#expectedReturn'), '6');
    assert.match(p.url(), /monteCarlo=/);
    // Without a key of its own, an old link is told by a rate in percent.
    const sent2 = p.waitForRequest((r) => r.url().endsWith('/api/v1/calculator') && r.method() === 'POST');
    await p.goto(base + '/?currentAge=41&annualIncome=90000&annualExpenses=40000&expectedReturn=6&withdrawalRate=4');
    const body2 = JSON.parse((await sent2).postData() || '{}');
    assert.equal(body2.expectedReturn, 0.06);
    assert.equal(body2.withdrawalRate, 0.04);
    await p.close();
  });

  test('a validation error shows on its field', async () => {
    await page.goto(base + '/?currentAge=12&annualIncome=50000&annualExpenses=30000');
    await page.waitForSelector('#currentAge[aria-invalid=true]');
    const msg = await page.textContent('#currentAge-error');
    assert.ok(msg && msg.length > 3, `message ${msg}`);
    await shot('calculator-invalid');
  });

  test('a household link opens signed out; an error on a row shows on its field', async () => {
    const hh = { accounts: [{ id: 'us-401k', type: 'us-401k', owner: 'self', balance: 200000 }], pensions: [{ kind: 'us-social-security', owner: 'self', amount: 20000, fromAge: 55 }], tax: { country: 'US' }, currency: 'USD' };
    const [resp] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.goto(base + '/?currentAge=40&annualIncome=100000&annualExpenses=50000&historical=&monteCarlo=&' + query(hh)),
    ]);
    const err = await resp.json();
    assert.equal(err.code, 'VALIDATION_ERROR');
    assert.equal(err.details[0].path, 'pensions[0].fromAge');
    await page.waitForSelector('#pensions0-fromAge[aria-invalid=true]');
    assert.equal(await page.textContent('#pensions0-fromAge-error'), err.details[0].message);
    assert.equal(await page.getAttribute('#household', 'open'), '', 'the section with the error is open');
    // Signed out, the tax countries are not listed: the link's country is kept, and the hint says why.
    assert.equal(await page.inputValue('#tax-country'), 'US');
    assert.equal(await page.inputValue('#accounts0-type'), 'us-401k');
    assert.match(await page.textContent('#tax-hint'), /Sign in/);
    assert.equal(await page.isHidden('#saved'), true, 'no saved plans signed out');
    // Corrected, the plan runs.
    await page.fill('#pensions0-fromAge', '67');
    assert.equal(await page.locator('#pensions0-fromAge-error').count(), 0, 'the error goes when the field is edited');
    await page.click('#calc button[type=submit]');
    await page.waitForSelector('#lifetime-tax');
    await shot('calculator-household-error');
  });

  test('chart ticks: short amounts keep their zeros', async () => {
    await page.goto(base + '/');
    await page.waitForSelector('#fi-number');
    const got = await page.evaluate(async () => {
      const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/static\/chart[.\w]*\.js$/.test(n));
      const { short } = await import(url);
      return [0, 999, 1000, 10000, 1e6, 1e7, 1.5e7, 1e9, 999999, 2.5e6, -1e7].map(short);
    });
    assert.deepEqual(got, ['0', '999', '1k', '10k', '1M', '10M', '15M', '1B', '1M', '2.5M', '-10M']);
  });

  test('a plan that runs out of money says so, with a high withdrawal rate warned of', async () => {
    const [resp] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.goto(base + '/?currentAge=35&annualIncome=70000&annualExpenses=40000&currentSavings=50000&withdrawalRate=0.08&historical='),
    ]);
    const d = (await resp.json()).data;
    assert.equal(typeof d.depletionAge, 'number', 'the API answers a depletion age for this plan');
    await page.waitForSelector('#money-lasts');
    assert.equal(await page.textContent('#money-lasts'), `age ${d.depletionAge}`);
    const warn = await page.textContent('#warnings');
    assert.match(warn, new RegExp(`runs out at age ${d.depletionAge}`));
    assert.match(warn, /withdrawal rate of 8% is high/);
    await shot('calculator-runs-out');
    // FI today by the FI number, yet the money runs out: not "0 years" alone.
    const [resp2] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.goto(base + '/?currentAge=45&annualIncome=60000&annualExpenses=48000&currentSavings=600000&withdrawalRate=0.08&historical=&monteCarlo='),
    ]);
    const d2 = (await resp2.json()).data;
    assert.equal(d2.yearsToFI, 0, 'the API answers FI now for this plan');
    assert.equal(typeof d2.depletionAge, 'number', 'and a depletion age');
    await page.waitForFunction(() => document.querySelector('#years-to-fi')?.textContent === 'now');
    assert.equal(await page.textContent('#money-lasts'), `age ${d2.depletionAge}`);
    assert.match(await page.textContent('#warnings'), new RegExp(`runs out at age ${d2.depletionAge}`));
    // A plan that lasts reads "past age 95" and warns of nothing.
    await page.goto(base + '/?currentAge=41&annualIncome=82000&annualExpenses=39000&currentSavings=120000&historical=');
    await page.waitForFunction(() => document.querySelector('#money-lasts')?.textContent === 'past age 95');
    assert.equal(await page.isHidden('#warnings'), true);
    await shot('calculator-monte-carlo');
  });

  test('sign in locally', async () => {
    await page.goto(base + '/app/portfolio');
    assert.match(page.url(), /\/auth\/login\?next=%2Fapp%2Fportfolio/);
    assert.match(await page.textContent('h2'), /local/i);
    await shot('login');
    await page.fill('#name', 'e2e-user');
    await page.selectOption('#tier', 'pro');
    await page.click('#login-form button[type=submit]');
    await page.waitForURL(base + '/app/portfolio');
    await page.waitForFunction(() => document.querySelector('#user')?.textContent === 'e2e-user (pro)');
  });

  test('portfolio: a bad ISIN is shown on its field, a good one is added, scores appear', async () => {
    await page.goto(base + '/app/portfolio');
    await page.waitForSelector('#assets-status:not([hidden])');
    await page.fill('#a-name', 'Vanguard FTSE All-World');
    await page.fill('#a-isin', 'IE00BK5BQT81');
    await page.fill('#a-value', '12000');
    await page.fill('#a-currency', 'EUR');
    await page.click('#asset-save');
    await page.waitForSelector('#a-isin[aria-invalid=true]');
    assert.match(await page.textContent('#a-isin-error'), /check digit/);
    await shot('portfolio-bad-isin');
    await page.fill('#a-isin', 'IE00BK5BQT80');
    const [health] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/portfolio-health') && r.status() === 200),
      page.click('#asset-save'),
    ]);
    const h = (await health.json()).data;
    await page.waitForFunction((s) => document.querySelector('#health-score')?.textContent === s, String(h.score));
    assert.equal(await page.locator('#health .components li').count(), 4);
    assert.equal(await page.locator('#assets tbody tr').count(), 1);
    await page.waitForSelector('#fi-score');
    await page.waitForSelector('#summary svg.bars rect');
    await shot('portfolio');
  });

  test('tax: regions follow the year, a failed calculation clears the result, lines read once', async () => {
    await page.goto(base + '/app/tax');
    await page.waitForSelector('#country option[value=US]', { state: 'attached' });
    await page.selectOption('#country', 'US');
    const years = await page.locator('#year option').allTextContents();
    assert.equal(await page.inputValue('#year'), years[0]);
    const regions = async () => page.locator('#region option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    // The latest year does not model California: it is not offered, and a hint says why.
    if (!(await regions()).includes('CA')) {
      assert.match(await page.textContent('#region-hint'), /other tax years/);
      await page.selectOption('#year', '2025');
    }
    assert.ok((await regions()).includes('CA'), 'California offered in a year that models it');
    await page.selectOption('#region', 'CA');
    await page.fill('#employment', '150000');
    await page.click('#tax button[type=submit]');
    await page.waitForSelector('#breakdown tbody tr');
    const caLines = await page.locator('#breakdown tbody tr:has(td:nth-child(2):text-is("regional")) td:first-child').allTextContents();
    assert.ok(caLines.length > 0 && caLines.every((l) => /^California/.test(l)), `regional lines named by their region: ${JSON.stringify(caLines)}`);
    assert.ok(await page.locator('#assumptions li').count() > 0, 'assumptions shown');
    assert.ok(await page.locator('#not-modelled li').count() > 0, 'what is not modelled shown');
    await shot('tax-us-ca');
    // A failing calculation leaves no result of other inputs on screen.
    await page.fill('#employment', '-5');
    await page.click('#tax button[type=submit]');
    await page.waitForSelector('#tax-status.error');
    assert.equal(await page.locator('#breakdown').count(), 0, 'the previous result is cleared');
    // Germany: each line names its rule once, not a rate or a layer twice.
    await page.selectOption('#country', 'DE');
    await page.fill('#employment', '60000');
    await page.click('#tax button[type=submit]');
    await page.waitForSelector('#breakdown tbody tr');
    const lines = await page.locator('#breakdown tbody tr td:first-child').allTextContents();
    assert.ok(lines.some((l) => l.startsWith('Rentenversicherung')), JSON.stringify(lines));
    for (const l of lines) {
      assert.doesNotMatch(l, /^[\d,.]+\s?%$/, `line named by its rate: ${l}`);
      const parts = l.split(' · ');
      assert.equal(new Set(parts).size, parts.length, `a word twice: ${l}`);
    }
    assert.ok(lines.filter((l) => l === 'Arbeitsentgelt').length === 0, JSON.stringify(lines));
    assert.match(await page.textContent('#not-modelled'), /Kirchensteuer/);
    await shot('tax-de');
  });

  test('places and tax pages answer', async () => {
    await page.goto(base + '/app/places');
    await page.waitForSelector('#cities li');
    await page.check('#cities li:nth-child(1) input');
    await page.check('#cities li:nth-child(2) input');
    await page.click('#compare-btn');
    await page.waitForSelector('#comparison table');
    await page.click('#recs button[type=submit]');
    await page.waitForSelector('#rec-list li');
    await shot('places');
    await page.goto(base + '/app/tax');
    await page.waitForSelector('#country option[value=GB]', { state: 'attached' });
    await page.selectOption('#country', 'GB');
    // No wages filled in for a pension-only user to be taxed on.
    assert.equal(await page.inputValue('#employment'), '', 'the tax page starts empty of wages');
    await page.fill('#employment', '60000');
    await page.click('#tax button[type=submit]');
    await page.waitForSelector('#breakdown tbody tr');
    await page.click('#optimize');
    await page.waitForSelector('#suggestions li');
    await shot('tax');
  });

  test('places: a city found by its local name opens the planner retiring there, with the API\'s city budget', async () => {
    await page.goto(base + '/app/places');
    await page.waitForSelector('#cities li');
    await page.fill('#q', 'Lisboa');
    await page.click('#search button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#cities li label')?.textContent.startsWith('Lisbon'));
    const link = page.locator('#cities li a.plan-link').first();
    assert.equal(await link.textContent(), 'Plan to retire in Lisbon');
    await Promise.all([page.waitForURL(/cityId=lisbon-pt/), link.click()]);
    await page.waitForSelector('#fi-number');
    assert.equal(await page.inputValue('#cityId'), 'lisbon-pt');
    assert.ok(await page.isDisabled('#retirementExpenses'), 'the city budget sets the retirement spending');
    await page.fill('#currentAge', '50');
    await page.fill('#annualIncome', '90000');
    await page.fill('#annualExpenses', '45000');
    await page.fill('#currentSavings', '400000');
    const [resp] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.click('#calc button[type=submit]'),
    ]);
    const sent = resp.request().postDataJSON();
    assert.equal(sent.cityId, 'lisbon-pt');
    assert.equal(sent.retirementExpenses, undefined, 'no retirement spending beside the city');
    const d = (await resp.json()).data;
    assert.equal(d.city.id, 'lisbon-pt');
    await page.waitForFunction((n) => document.querySelector('#city-spending')?.textContent === n,
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(d.city.retirementExpenses));
    await shot('calculator-city');
    // clearing the city gives the spending field back
    await page.fill('#cityId', '');
    assert.ok(!(await page.isDisabled('#retirementExpenses')));
    // a move abroad may name its city too: spending follows it from then on
    await page.click('#household > summary');
    await page.click('#add-move');
    await page.fill('#moves0-atAge', '70');
    await page.selectOption('#moves0-country', 'PT');
    await page.fill('#moves0-cityId', 'porto-pt');
    const [r2] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.click('#calc button[type=submit]'),
    ]);
    assert.deepEqual(r2.request().postDataJSON().relocations, [{ atAge: 70, country: 'PT', cityId: 'porto-pt' }]);
    assert.equal(r2.status(), 200);
  });

  test('the partner\'s income growth is typed in percent and sent as a fraction; too high is shown on its field', async () => {
    await page.goto(base + '/?currentAge=40&annualIncome=80000&annualExpenses=40000&currentSavings=100000');
    await page.waitForSelector('#fi-number');
    await page.click('#household > summary');
    await page.check('#has-partner');
    await page.fill('#partner-age', '38');
    await page.fill('#partner-income', '50000');
    await page.fill('#partner-growth', '1.5');
    const [resp] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.click('#calc button[type=submit]'),
    ]);
    assert.equal(resp.status(), 200);
    assert.equal(resp.request().postDataJSON().partner.incomeGrowthRate, 0.015);
    await page.fill('#partner-growth', '50');
    const [bad] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
      page.click('#calc button[type=submit]'),
    ]);
    assert.equal(bad.status(), 400);
    await page.waitForSelector('#partner-growth[aria-invalid="true"]');
  });

  test('settings: an API key works from outside until revoked; export', async () => {
    await page.goto(base + '/dashboard/settings');
    await page.waitForSelector('#keys caption, #keys tbody');
    await page.fill('#key-name', 'e2e script');
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('#new-key:not([hidden])');
    const key = await page.textContent('#new-key-value');
    assert.match(key, /^svc_[0-9A-Za-z]{32,}/);
    assert.match(await page.textContent('#new-key'), /not be shown again/);
    await page.waitForSelector('#keys tbody tr');
    await shot('settings-key');
    const call = () => fetch(base + '/api/v1/fi-score', { headers: { Authorization: 'Bearer ' + key } });
    const ok = await call();
    assert.equal(ok.status, 200, await ok.text());
    page.once('dialog', (d) => d.accept());
    await page.click('#keys tbody tr button');
    await page.waitForSelector('#keys caption:has-text("No API keys")');
    const gone = await call();
    assert.equal(gone.status, 401);
    assert.equal((await gone.json()).code, 'UNAUTHORIZED');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const exp = JSON.parse(readFileSync(await dl.path(), 'utf8'));
    assert.ok(JSON.stringify(exp).includes('IE00BK5BQT80'), 'export holds the asset');
  });

  test('settings: one currency, the profile\'s; the base currency follows it', async () => {
    await page.goto(base + '/dashboard/settings');
    await page.waitForSelector('#p-currency');
    await page.waitForFunction(() => document.querySelector('#profile .status')?.hidden);
    assert.equal(await page.locator('#s-baseCurrency').count(), 0, 'no second currency field');
    assert.equal(await page.inputValue('#p-currency'), '', 'never chosen: empty, not USD');
    assert.equal(await page.inputValue('#s-locale'), '', 'never chosen: empty, not en-US');
    await page.fill('#p-currency', 'GBP');
    await page.click('#profile button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#profile .status')?.textContent === 'Saved.');
    const st = await page.evaluate(() => fetch('/api/v1/user/settings').then((r) => r.json()));
    assert.equal(st.data.baseCurrency, 'GBP', 'the asset summary\'s currency follows');
    await page.fill('#p-currency', '');
    await page.click('#profile button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#profile .status')?.textContent === 'Saved.');
    const [pr, st2] = await page.evaluate(() => Promise.all(['/api/v1/user/profile', '/api/v1/user/settings'].map((u) => fetch(u).then((r) => r.json()))));
    assert.equal(pr.data.currency, null);
    assert.equal(st2.data.baseCurrency, null);
  });

  test('settings: rates in percent, as on the calculator', async () => {
    await page.goto(base + '/dashboard/settings');
    await page.waitForFunction(() => document.querySelector('#s-expectedReturn')?.value !== '');
    assert.equal(await page.inputValue('#s-withdrawalRate'), '4');
    await page.fill('#s-expectedReturn', '7');
    await page.fill('#s-withdrawalRate', '3.5');
    await page.click('#settings button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#settings .status')?.textContent === 'Saved.');
    const st = await page.evaluate(() => fetch('/api/v1/user/settings').then((r) => r.json()));
    assert.equal(st.data.expectedReturn, 0.07);
    assert.equal(st.data.withdrawalRate, 0.035);
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#s-withdrawalRate')?.value === '3.5');
    assert.equal(await page.inputValue('#s-expectedReturn'), '7');
    // The API's bounds are fractions; the field says them in percent.
    await page.fill('#s-withdrawalRate', '70');
    await page.click('#settings button[type=submit]');
    await page.waitForSelector('#s-withdrawalRate[aria-invalid=true]');
    assert.match(await page.textContent('#s-withdrawalRate-error'), /^must be at most \d+(\.\d+)?%$/);
  });

  // Household plans, end to end: three people fill the household section,
  // the page's request is the body the test expects, the figures on the
  // page are the API's for that body (the test asks the API itself), the
  // plan is saved, and both a reload and a fresh page opened from the saved
  // plan show the same figures; light and dark, 375 and 1280 px, axe-core.
  const personas = [
    {
      name: 'us-couple', lang: 'en', locale: 'en-US', currency: 'USD',
      flat: { currentAge: '38', annualIncome: '180000', annualExpenses: '70000', targetRetirementAge: '45' },
      country: 'US', partner: { age: '38', income: '60000', retire: '45' }, filing: 'joint',
      accounts: [
        { type: 'us-401k', balance: '300000', annualContribution: '23000', employerContribution: '8000' },
        { type: 'us-401k', owner: 'partner', balance: '120000', annualContribution: '15000' },
        { type: 'us-roth-ira', balance: '80000', annualContribution: '7000' },
        { type: 'us-hsa', balance: '30000', annualContribution: '9500' }, // over the family limit
        { type: 'taxable', balance: '250000', costBasis: '180000' },
      ],
      pensions: [{ kind: 'us-social-security', amount: '30000', fromAge: '67' }, { kind: 'us-social-security', owner: 'partner', amount: '15000', fromAge: '67' }],
      order: 'tax-smart', conversions: '12',
      body: {
        currentAge: 38, annualIncome: 180000, annualExpenses: 70000, targetRetirementAge: 45,
        partner: { age: 38, annualIncome: 60000, retirementAge: 45 },
        accounts: [
          { id: 'us-401k', type: 'us-401k', owner: 'self', balance: 300000, annualContribution: 23000, employerContribution: 8000 },
          { id: 'us-401k-partner', type: 'us-401k', owner: 'partner', balance: 120000, annualContribution: 15000 },
          { id: 'us-roth-ira', type: 'us-roth-ira', owner: 'self', balance: 80000, annualContribution: 7000 },
          { id: 'us-hsa', type: 'us-hsa', owner: 'self', balance: 30000, annualContribution: 9500 },
          { id: 'taxable', type: 'taxable', owner: 'self', balance: 250000, costBasis: 180000 },
        ],
        pensions: [{ kind: 'us-social-security', owner: 'self', amount: 30000, fromAge: 67 }, { kind: 'us-social-security', owner: 'partner', amount: 15000, fromAge: 67 }],
        withdrawalOrder: 'tax-smart', conversions: { upToRate: 0.12 }, tax: { country: 'US', filing: 'joint' }, currency: 'USD',
      },
    },
    {
      name: 'uk-single', lang: 'en', locale: 'en-GB', currency: 'GBP',
      flat: { currentAge: '50', annualIncome: '70000', annualExpenses: '32000', targetRetirementAge: '52' },
      country: 'GB',
      accounts: [
        { type: 'gb-sipp', balance: '400000', annualContribution: '10000', employerContribution: '5000' },
        { type: 'gb-isa', balance: '150000', annualContribution: '20000' },
      ],
      pensions: [{ kind: 'gb-state-pension', amount: '11973', fromAge: '67' }],
      moves: [{ atAge: '60', country: 'PT' }],
      body: {
        currentAge: 50, annualIncome: 70000, annualExpenses: 32000, targetRetirementAge: 52,
        accounts: [
          { id: 'gb-sipp', type: 'gb-sipp', owner: 'self', balance: 400000, annualContribution: 10000, employerContribution: 5000 },
          { id: 'gb-isa', type: 'gb-isa', owner: 'self', balance: 150000, annualContribution: 20000 },
        ],
        pensions: [{ kind: 'gb-state-pension', owner: 'self', amount: 11973, fromAge: 67 }],
        relocations: [{ atAge: 60, country: 'PT' }],
        tax: { country: 'GB' }, currency: 'GBP',
      },
      bridge: true,
    },
    {
      name: 'de-couple', lang: 'de', locale: 'de-DE', currency: 'EUR',
      flat: { currentAge: '45', annualIncome: '95000', annualExpenses: '42000', targetRetirementAge: '58' },
      country: 'DE', partner: { age: '45', income: '40000', retire: '58' },
      accounts: [
        { type: 'cash', balance: '30000' },
        { type: 'taxable', balance: '400000', costBasis: '300000', annualContribution: '20000' },
        { type: 'taxable', owner: 'partner', balance: '80000' },
      ],
      // Both statutory pensions of the Deutsche Rentenversicherung: hers from 65, two years early.
      pensions: [{ kind: 'de-statutory-pension', amount: '18000', fromAge: '67' }, { kind: 'de-statutory-pension', owner: 'partner', amount: '12000', fromAge: '65' }],
      phases: [{ fromAge: '75', amount: '36000' }],
      body: {
        currentAge: 45, annualIncome: 95000, annualExpenses: 42000, targetRetirementAge: 58,
        partner: { age: 45, annualIncome: 40000, retirementAge: 58 },
        accounts: [
          { id: 'cash', type: 'cash', owner: 'self', balance: 30000 },
          { id: 'taxable', type: 'taxable', owner: 'self', balance: 400000, costBasis: 300000, annualContribution: 20000 },
          { id: 'taxable-partner', type: 'taxable', owner: 'partner', balance: 80000 },
        ],
        pensions: [{ kind: 'de-statutory-pension', owner: 'self', amount: 18000, fromAge: 67 }, { kind: 'de-statutory-pension', owner: 'partner', amount: 12000, fromAge: 65 }],
        spending: [{ fromAge: 75, amount: 36000 }],
        tax: { country: 'DE' }, currency: 'EUR',
      },
    },
    {
      // A Swiss couple in Zürich (the region Switzerland starts in, so none
      // is sent): pillar 3a for both, his vested benefits (Freizügigkeit)
      // from a former employer's pension fund, a taxable depot.
      name: 'ch-couple', lang: 'de', locale: 'de-CH', currency: 'CHF',
      flat: { currentAge: '48', annualIncome: '150000', annualExpenses: '85000', targetRetirementAge: '60' },
      country: 'CH', partner: { age: '46', income: '70000', retire: '60' },
      accounts: [
        { type: 'ch-3a', balance: '95000', annualContribution: '7000' },
        { type: 'ch-3a', owner: 'partner', balance: '40000', annualContribution: '7000' },
        { type: 'ch-bvg', balance: '380000' },
        { type: 'taxable', balance: '350000', annualContribution: '20000' },
      ],
      pensions: [{ kind: 'generic', amount: '29000', fromAge: '65' }, { kind: 'generic', owner: 'partner', amount: '24000', fromAge: '65' }],
      body: {
        currentAge: 48, annualIncome: 150000, annualExpenses: 85000, targetRetirementAge: 60,
        partner: { age: 46, annualIncome: 70000, retirementAge: 60 },
        accounts: [
          { id: 'ch-3a', type: 'ch-3a', owner: 'self', balance: 95000, annualContribution: 7000 },
          { id: 'ch-3a-partner', type: 'ch-3a', owner: 'partner', balance: 40000, annualContribution: 7000 },
          { id: 'ch-bvg', type: 'ch-bvg', owner: 'self', balance: 380000 },
          { id: 'taxable', type: 'taxable', owner: 'self', balance: 350000, annualContribution: 20000 },
        ],
        pensions: [{ kind: 'generic', owner: 'self', amount: 29000, fromAge: 65 }, { kind: 'generic', owner: 'partner', amount: 24000, fromAge: 65 }],
        tax: { country: 'CH' }, currency: 'CHF',
      },
    },
  ];
  // The rest of every body: the form's defaults.
  const defaults = { expectedReturn: 0.07, inflationRate: 0.03, withdrawalRate: 0.04, lifeExpectancy: 95, incomeGrowthRate: 0, monteCarlo: { simulations: 1000 }, historical: {} };

  /** The figures a page shows for an answer, in its locale and currency. */
  const figures = (d, p) => {
    const m = new Intl.NumberFormat(p.locale, { style: 'currency', currency: p.currency, maximumFractionDigits: 0 });
    const end = Math.max(95, p.body.partner ? p.body.partner.age - p.body.currentAge + 95 : 0);
    const de = p.lang === 'de';
    return {
      fiAge: d.fiAge === null ? '—' : String(d.fiAge),
      lasts: d.depletionAge === null ? (de ? `über Alter ${end}` : `past age ${end}`) : (de ? `Alter ${d.depletionAge}` : `age ${d.depletionAge}`),
      tax: m.format(d.lifetimeTax),
    };
  };
  const shownFigures = async () => ({
    fiAge: await page.textContent('#fi-age'), lasts: await page.textContent('#money-lasts'), tax: await page.textContent('#lifetime-tax'),
  });
  const waitFigures = (want) => page.waitForFunction((w) => document.querySelector('#lifetime-tax')?.textContent === w.tax
    && document.querySelector('#fi-age')?.textContent === w.fiAge, want);

  async function fillPersona(p) {
    await page.click('#calc details:not(#household) > summary');
    for (const [k, v] of Object.entries(p.flat)) await page.fill('#' + k, v);
    await page.click('#household > summary');
    await page.selectOption('#tax-country', p.country);
    if (p.partner) {
      await page.check('#has-partner');
      await page.fill('#partner-age', p.partner.age);
      await page.fill('#partner-income', p.partner.income);
      await page.fill('#partner-retire', p.partner.retire);
      if (p.filing) await page.selectOption('#tax-filing', p.filing);
    }
    for (const [i, a] of p.accounts.entries()) {
      await page.click('#add-account');
      await page.selectOption(`#accounts${i}-type`, a.type);
      if (a.owner) await page.selectOption(`#accounts${i}-owner`, a.owner);
      for (const k of ['balance', 'costBasis', 'annualContribution', 'employerContribution']) if (a[k]) await page.fill(`#accounts${i}-${k}`, a[k]);
    }
    for (const [i, x] of p.pensions.entries()) {
      await page.click('#add-pension');
      await page.selectOption(`#pensions${i}-kind`, x.kind);
      if (x.owner) await page.selectOption(`#pensions${i}-owner`, x.owner);
      await page.fill(`#pensions${i}-amount`, x.amount);
      await page.fill(`#pensions${i}-fromAge`, x.fromAge);
    }
    for (const [i, x] of (p.phases || []).entries()) {
      await page.click('#add-phase');
      await page.fill(`#phases${i}-fromAge`, x.fromAge);
      await page.fill(`#phases${i}-amount`, x.amount);
    }
    for (const [i, x] of (p.moves || []).entries()) {
      await page.click('#add-move');
      await page.fill(`#moves${i}-atAge`, x.atAge);
      await page.selectOption(`#moves${i}-country`, x.country);
    }
    if (p.order) await page.selectOption('#withdrawal-order', p.order);
    if (p.conversions) await page.fill('#conversions', p.conversions);
  }

  async function checkLooks(p, scheme) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(axeSource);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(400);
      // At each width: a phone's layout (cards, stacked fields) is checked too.
      const res = await page.evaluate(() => globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
      assert.deepEqual(res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], `${p.name} ${scheme} ${width}: axe`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= width, `${p.name} at ${width}: page ${wide} px wide`);
      await page.screenshot({ path: join(pageShots, `household-${p.name}-${scheme}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  for (const p of personas) {
    test(`household ${p.name}: the page's figures are the API's, saved and reopened the same, light and dark`, async () => {
      const patch = (path, body) => page.evaluate(([u, b]) => fetch(u, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.status), [path, body]);
      await browser.addCookies([{ name: 'fiplan_lang', value: p.lang, url: base }]);
      // The locale is chosen; the currency is not: the plan is in the tax country's.
      assert.equal(await patch('/api/v1/user/settings', { locale: p.locale }), 200);
      try {
        await page.goto(base + '/');
        await page.waitForSelector(`#tax-country option[value=${p.country}]`, { state: 'attached' });
        await page.waitForSelector('#saved:not([hidden])');
        await page.waitForSelector('#fi-number');
        assert.equal(await page.getAttribute('html', 'lang'), p.lang);
        await fillPersona(p);
        const [resp] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
          page.click('#calc button[type=submit]'),
        ]);
        const sent = resp.request().postDataJSON();
        const want = { ...defaults, ...p.body };
        assert.deepEqual(sent, want, 'the request the page sends');
        // The API's own answer for the same body.
        // Asked as the signed-in user, as the page asks: an anonymous caller's
        // allowance buys few household plans with their Monte Carlo.
        const api = await page.evaluate(async (b) => {
          const r = await fetch('/api/v1/calculator', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: b });
          return { status: r.status, text: await r.text() };
        }, JSON.stringify(want));
        assert.equal(api.status, 200, api.text);
        const d = JSON.parse(api.text).data;
        assert.ok(Array.isArray(d.projections[0].accounts), 'a household answer');
        assert.equal(d.currency, p.currency, 'the answer says its currency');
        assert.equal(await page.textContent('label[for=annualIncome]'), p.lang === 'de' ? 'Bruttoeinkommen im Jahr' : 'Gross income a year', 'with a tax country the income is gross');
        assert.match(await page.textContent('#currency-note'), new RegExp(`\\(${p.currency}\\)`));
        if (p.country !== 'US') assert.match(await page.textContent('#tax-hint'), new RegExp(p.currency));
        const fig = figures(d, p);
        await waitFigures(fig);
        assert.deepEqual(await shownFigures(), fig);
        // The backtest runs in the plan's own money: a German couple's in
        // euros, the US record restated, and the page says so.
        assert.equal(d.historical.currency, p.currency, 'the backtest in the plan\'s money');
        if (p.currency !== 'USD') {
          assert.ok(d.historical.conversion?.to, 'how the US record was restated');
          assert.equal(await page.textContent('#hist-fx'), `${d.historical.conversion.from}-${d.historical.conversion.to}`);
          assert.match(await page.locator('#hist-fx').evaluate((e) => e.previousElementSibling.textContent), new RegExp(`^Backtest in ${p.currency}\\b`));
          // The API's note on how, shown as it is (English, marked so).
          assert.equal(await page.textContent('#hist-note'), d.historical.conversion.note);
          assert.equal(await page.getAttribute('#hist-note', 'lang'), 'en');
          assert.ok(await page.isVisible('#hist-note'), 'the conversion note is shown');
        }
        if (p.name === 'de-couple') {
          // The euro before 1999 is the Deutsche Mark at its conversion rate,
          // at the World Bank's yearly rates from 1960 and H.10's monthly ones
          // from 1971: the annual record is restated from the year after the
          // first rate (a year runs from the December before it).
          assert.equal(d.historical.dataset, 'annual');
          const rates = /World Bank's yearly official rates against the US dollar from (\d{4}).*H\.10 monthly average rates from 1971/.exec(d.historical.conversion.note);
          assert.ok(rates, `the note names both sources: ${d.historical.conversion.note}`);
          assert.equal(d.historical.conversion.from, Number(rates[1]) + 1, 'restated from the year after the first yearly rate');
          assert.ok(d.historical.conversion.from < 1971, `restated from ${d.historical.conversion.from}, before the monthly rates`);
          assert.match(await page.textContent('#hist-note'), new RegExp(`Restated ${d.historical.conversion.from}-${d.historical.conversion.to};`));
          assert.equal(await page.textContent('#hist-fx'), `${d.historical.conversion.from}-${d.historical.conversion.to}`);
        }
        // One FI: the FI number shown is the one the FI age tests, the chart's
        // line is drawn at it, and money that outlasts the retirement is FI by then.
        const target = d.afterTaxFINumber || d.fiNumber;
        assert.equal(await page.textContent('#fi-number'), new Intl.NumberFormat(p.locale, { style: 'currency', currency: p.currency, maximumFractionDigits: 0 }).format(target));
        assert.equal(Number(await page.locator('line[data-series=fi-number]').getAttribute('data-last')), target);
        if (d.depletionAge === null && d.retirementAge !== null) assert.ok(d.fiAge !== null && d.fiAge <= d.retirementAge, `FI at ${d.fiAge}, retired at ${d.retirementAge}, the money lasts`);
        if (p.name === 'de-couple') assert.notEqual(await page.textContent('#years-to-fi'), 'nicht erreicht');
        assert.equal(await page.locator('#table tbody tr').count(), d.projections.length);
        // The year table: each account's balance with what it was paid, paid
        // out and converted beneath it, pensions, and the tax with its kinds
        // beneath, where any; where the year is taxed when that changes.
        const some = (f) => (d.projections.some((r) => Math.abs(f(r) || 0) >= 0.5) ? 1 : 0);
        const moves = new Set(d.projections.map((r) => r.residence)).size > 1 ? 1 : 0;
        assert.equal(await page.locator('#table thead th').count(), 3 + moves + d.projections[0].accounts.length
          + some((r) => r.income?.pensions) + some((r) => r.overLimit) + some((r) => r.shortfall));
        const flows = (k) => d.projections.reduce((n, r) => n + r.accounts.filter((a) => Math.abs(a[k] || 0) >= 0.5).length, 0);
        assert.equal(await page.locator('#table td .l.in').count(), flows('contributions'), 'what each account is paid in which year');
        assert.equal(await page.locator('#table td .l.out').count(), flows('withdrawals'), 'which account pays in which year');
        assert.equal(await page.locator('#table td .l.conv').count(), flows('conversions'), 'what is converted in which year');
        const kinds = d.projections.reduce((n, r) => n + ['incomeTax', 'socialContributions', 'capitalTax', 'penalties', 'wealthTax'].filter((k) => Math.abs(r.tax?.[k] || 0) >= 0.5).length, 0);
        assert.equal(await page.locator('#table td .l.kind').count(), kinds, 'the tax by kind');
        // The first year drawn from: its account's cell says the amount, in three figures.
        const drawn = d.projections.find((r) => r.accounts.some((a) => a.withdrawals >= 0.5));
        if (drawn) {
          const k = drawn.accounts.findIndex((a) => a.withdrawals >= 0.5);
          const three = new Intl.NumberFormat(p.locale, { notation: 'compact', maximumSignificantDigits: 3 }).format(Math.round(drawn.accounts[k].withdrawals));
          const cell = page.locator(`#table tbody tr:nth-child(${d.projections.indexOf(drawn) + 1}) td:nth-child(${2 + moves + k}) .l.out`);
          assert.equal(await cell.textContent(), `−${three} ${p.lang === 'de' ? 'entnommen' : 'drawn'}`);
        }
        assert.match(await page.textContent('#table-key'), new RegExp(`\\(${p.currency}\\)`));
        // At 1280 px the table fits its box: nothing scrolls sideways.
        await page.setViewportSize({ width: 1280, height: 900 });
        // Every select's choice is read whole: its text fits inside the box, beside the arrow.
        const cutSelects = await page.evaluate(() => {
          const c = document.createElement('canvas').getContext('2d');
          return [...document.querySelectorAll('#calc select')].filter((s) => s.offsetParent && s.selectedOptions[0]).map((s) => {
            const cs = globalThis.getComputedStyle(s);
            c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
            const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
            return [s.id, Math.round(c.measureText(s.selectedOptions[0].text).width), Math.round(room)];
          }).filter(([, w, room]) => w > room);
        });
        assert.deepEqual(cutSelects, [], `select labels cut off at 1280 px (id, text, room): ${JSON.stringify(cutSelects)}`);
        await page.locator('.table-wrap.years').screenshot({ path: join(pageShots, `household-${p.name}-years-1280.png`) });
        const fit = await page.evaluate(() => { const w = document.querySelector('.table-wrap.years'); return [w.scrollWidth, w.clientWidth]; });
        assert.ok(fit[0] <= fit[1] + 1, `the year table at 1280 px: ${fit[0]} px in a ${fit[1]} px box`);
        // On a desktop a table whose first column stays in view; on a phone cards.
        await page.setViewportSize({ width: 1280, height: 900 });
        assert.equal(await page.evaluate(() => globalThis.getComputedStyle(document.querySelector('#table tbody td')).position), 'sticky');
        assert.equal(await page.evaluate(() => globalThis.getComputedStyle(document.querySelector('#table')).display), 'table');
        await page.setViewportSize({ width: 375, height: 900 });
        assert.equal(await page.evaluate(() => globalThis.getComputedStyle(document.querySelector('#table')).display), 'block');
        await page.locator('.table-wrap.years').screenshot({ path: join(pageShots, `household-${p.name}-years-375.png`) });
        await page.setViewportSize({ width: 1280, height: 900 });
        if (p.name === 'us-couple') {
          // The couple's HSA above the family limit: the part over it is said.
          const over = d.projections.find((r) => r.overLimit >= 0.5);
          assert.ok(over, 'the API answers an amount over the limit');
          assert.match(await page.textContent('#warnings'), new RegExp(`Contributions above an account’s yearly limit go to the taxable account instead: .* in ${over.year}`));
        }
        assert.equal(await page.locator('#stack-chart path.band').count(), d.projections[0].accounts.length);
        // In today's money by default, as the balance chart is; in money of
        // each year with the same choice.
        const stackTop = async () => Number(await page.locator('#stack-chart path.band').last().getAttribute('data-last'));
        const lastRow = d.projections.at(-1);
        const endSum = lastRow.accounts.reduce((s, a) => s + Math.max(0, a.endBalance), 0);
        const realSum = lastRow.endBalance > 0 ? endSum * lastRow.realEndBalance / lastRow.endBalance : endSum; // a plan that ran out ends at 0 in either money
        assert.ok(Math.abs(await stackTop() - realSum) < 0.01, `stack top ${await stackTop()}, accounts in today's money ${realSum}`);
        assert.match(await page.textContent('#stack-chart'), p.lang === 'en' ? /in today's money/ : /in heutigem Geld/);
        await page.check('#chart-nominal');
        await page.waitForFunction((n) => Math.abs(Number([...document.querySelectorAll('#stack-chart path.band')].at(-1)?.getAttribute('data-last')) - n) < 0.01, endSum);
        await page.check('#chart-real');
        assert.equal(await page.locator('#baseline tbody tr').count(), 3);
        const saves = Math.round(d.baseline.lifetimeTax - d.lifetimeTax);
        if (p.lang === 'en' && saves > 0) assert.match(await page.textContent('#baseline-hint'), new RegExp(`saves ${new Intl.NumberFormat(p.locale, { style: 'currency', currency: p.currency, maximumFractionDigits: 0 }).format(saves).replace(/[$.]/g, '\\$&')} of lifetime tax`));
        assert.equal(await page.isDisabled('#currentSavings'), true, 'accounts replace the amount invested today');
        // The household's savings rate: its first year's take-home pay less spending, over that pay.
        assert.ok(d.savingsRate > 0 && d.savingsRate < 1, `savings rate ${d.savingsRate}`);
        assert.equal(await page.textContent('#savings-rate'), new Intl.NumberFormat(p.locale, { style: 'percent', maximumFractionDigits: 1 }).format(d.savingsRate));
        assert.equal(await page.locator('#bridge li').count(), Math.max(1, d.bridge.length));
        if (p.bridge) assert.ok(d.bridge.length > 0, 'a bridge before the SIPP opens');
        if (p.moves) {
          const at = d.projections.findIndex((r) => r.residence === p.moves[0].country);
          assert.equal(d.projections[at].age, Number(p.moves[0].atAge));
          assert.equal(await page.textContent(`#table tbody tr:nth-child(${at + 1}) td:nth-child(2)`), 'Portugal');
        }
        if (d.notes?.length) assert.equal(await page.locator('#notes li').count(), d.notes.length);
        // Keyboard and mouse: the chart gives each year's balances.
        await page.focus('#stack-chart svg');
        await page.keyboard.press('ArrowRight');
        assert.match(await page.textContent('#stack-chart .chart-tip'), new RegExp(`${d.projections[1].age}:`));
        const sb = await page.locator('#stack-chart svg').boundingBox();
        await page.mouse.move(sb.x + sb.width - 20, sb.y + sb.height / 2);
        assert.match(await page.textContent('#stack-chart .chart-tip'), new RegExp(`${d.projections.at(-1).age}:`));
        // The CSV holds every account's balance by year.
        const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
        const csv = readFileSync(await dl.path(), 'utf8').trim().split('\n');
        assert.equal(csv.length, d.projections.length + 1);
        const ids = d.projections[0].accounts.map((a) => a.id);
        assert.deepEqual(csv[0].split(',').slice(4, 4 + ids.length), ids);
        assert.equal(Number(csv.at(-1).split(',')[4]), d.projections.at(-1).accounts[0].endBalance);
        if (p.name === 'de-couple') {
          // The gesetzliche Rente is a kind of its own, named in German; the partner's, two years early, is 7,2 % lower.
          assert.equal(await page.evaluate(() => /** @type {HTMLSelectElement} */ (document.querySelector('#pensions1-kind')).selectedOptions[0].textContent), 'Gesetzliche Rente (DRV)');
          const at67 = d.projections.find((r) => r.age === 67);
          const lvl = Math.pow(1.03, at67.year - d.projections[0].year);
          assert.ok(Math.abs(at67.income.pensions - (18000 + 12000 * (1 - 24 * 0.003)) * lvl) < 2, `pensions at 67: ${at67.income.pensions}`);
        }
        if (p.lang === 'de') {
          const own = await page.evaluate(() => [...document.querySelectorAll('label, button, h1, h2, h3, legend, th[scope=col], dt, .lead, caption')]
            .map((e) => e.textContent.trim()).filter(Boolean));
          const bad = own.filter((s) => english.test(s));
          assert.deepEqual(bad, [], 'English on the German page');
        }
        await checkLooks(p, 'light');
        if (p.name === 'us-couple') {
          // On paper: the household's results and inputs, the table whole.
          await page.evaluate(() => globalThis.dispatchEvent(new Event('beforeprint')));
          await page.emulateMedia({ media: 'print' });
          try {
            assert.equal(await page.isVisible('#baseline'), true, 'baseline printed');
            assert.equal(await page.isVisible('#stack-chart svg'), true, 'balances by account printed');
            assert.match(await page.textContent('#calc-summary'), /Balance today\s*300000/);
            await page.screenshot({ path: join(pageShots, `household-${p.name}-print.png`), fullPage: true });
          } finally {
            await page.emulateMedia({ media: 'screen' });
          }
        }
        // Save, reload, and open the saved plan on a fresh page.
        await page.fill('#plan-name', `Household ${p.name}`);
        const [saved] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/plans') && r.request().method() === 'POST'),
          page.click('#save-plan'),
        ]);
        assert.equal(saved.status(), 201, await saved.text());
        const id = (await saved.json()).data.id;
        ctx['plan-' + p.name] = { id, want };
        await page.waitForFunction((i) => document.location.search.includes('plan=' + i), id);
        const stored = await page.evaluate((i) => fetch('/api/v1/plans/' + i).then((r) => r.json()), id);
        assert.deepEqual(stored.data.input, want, 'the saved plan holds the household');
        await page.reload();
        await waitFigures(fig);
        assert.deepEqual(await shownFigures(), fig);
        // Saved again under the same name: a PUT with the plan's ETag.
        const [put] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/plans/' + id) && r.request().method() === 'PUT'),
          page.click('#save-plan'),
        ]);
        assert.equal(put.status(), 200, await put.text());
        assert.ok(put.request().headers()['if-match'], 'If-Match sent');
        const [again] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
          page.goto(base + '/?plan=' + id),
        ]);
        assert.deepEqual(again.request().postDataJSON(), want, 'the plan opened from its id');
        await waitFigures(fig);
        assert.equal(await page.inputValue('#accounts0-balance'), p.accounts[0].balance);
        // Why this tax: the first year's wages, rule by rule, as the tax engine explains them.
        if (!(await page.isHidden('#why'))) {
          const [ex] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith('/api/v1/tax/calculate')),
            page.click('#why-go'),
          ]);
          assert.equal(ex.status(), 200, await ex.text());
          assert.equal(ex.request().postDataJSON().explain, true);
          const r = (await ex.json()).data;
          await page.waitForSelector('#why-table tbody tr');
          assert.equal(await page.locator('#why-table tbody tr').count(), r.trace.length);
          assert.ok(r.trace.length > 0, 'rules fired');
          const m = new Intl.NumberFormat(p.locale, { style: 'currency', currency: r.currency, maximumFractionDigits: 0 });
          assert.equal(await page.textContent('#why-table tbody tr:last-child td:last-child'), m.format(r.trace.at(-1).amount));
          assert.match(await page.textContent('#why-say'), new RegExp(m.format(r.totalTax).replace(/[$.]/g, '\\$&')));
          assert.equal(await page.locator('#why-table .src').count(), r.trace.reduce((n, x) => n + x.source.length, 0), 'each rule says its sources and their as-of dates');
          await page.locator('#why').screenshot({ path: join(pageShots, `household-${p.name}-why-1280.png`) });
          const dated = r.trace.flatMap((x) => x.source).filter((x) => x.asOf);
          assert.equal((await page.textContent('#why-table tbody')).match(/\(\d{4}-\d{2}-\d{2}\)/g)?.length ?? 0, dated.length, 'each dated source says its as-of date');
        }
        // The decisions: the optimiser's answer for the page's plan, each
        // figure the API's; applied, the plan is asked again with them.
        {
          const [opt] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().postDataJSON()?.optimize, { timeout: 60000 }),
            page.click('#decide-go'),
          ]);
          assert.equal(opt.status(), 200, await opt.text());
          const asked = opt.request().postDataJSON();
          assert.deepEqual(asked.optimize, { objective: 'spending' });
          const without = (o, ...ks) => Object.fromEntries(Object.entries(o).filter(([k]) => !ks.includes(k)));
          assert.deepEqual(without(asked, 'optimize'), without(want, 'monteCarlo', 'historical'), 'the optimiser is asked about the plan on the page');
          const o = (await opt.json()).data.optimized;
          const m = new Intl.NumberFormat(p.locale, { style: 'currency', currency: p.currency, maximumFractionDigits: 0 });
          if (o.feasible) {
            await page.waitForSelector('#dec-spend');
            assert.equal(await page.textContent('#dec-spend'), m.format(o.value));
            assert.equal(await page.textContent('#dec-over-baseline'), m.format(o.gain.overBaseline));
            await page.locator('#decide').screenshot({ path: join(pageShots, `household-${p.name}-decide-1280.png`) });
            // A decision's worth is said when it is more than the search's precision.
            const listed = await page.textContent('#decide-list');
            for (const w of o.worth || []) assert.equal(listed.includes(m.format(w.amount)), Math.abs(w.amount) >= Math.max(1, 2e-3 * Math.abs(o.value)), `worth ${w.decision} ${w.amount} of ${o.value}: ${listed}`);
            const x = o.decisions || {};
            assert.equal(await page.locator('#decide-list li').count(), Math.max(1, (x.retirementAge != null ? 1 : 0) + (x.claiming || []).length + (x.order || []).length + ((x.conversions || []).length ? 1 : 0)));
            if (!(await page.isHidden('#decide-apply'))) {
              const [again] = await Promise.all([
                page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST' && !r.request().postDataJSON()?.optimize),
                page.click('#decide-apply'),
              ]);
              const b = again.request().postDataJSON();
              if (x.retirementAge != null) assert.equal(b.targetRetirementAge, x.retirementAge, 'the retirement age applied');
              for (const c of x.claiming || []) assert.equal(b.pensions[c.pension].fromAge, c.age, 'a claiming age applied');
              if (x.order?.length) assert.equal(b.withdrawalOrder ?? 'conventional', x.order[0].order, 'the drawing order applied');
              await page.waitForSelector('#results:not([hidden]) #lifetime-tax');
            }
          } else {
            assert.match(await page.textContent('#decide-list'), /\S/, 'why no decision meets the target');
          }
        }
        await checkLooks(p, 'dark');
      } finally {
        await page.emulateMedia({ colorScheme: 'light' });
        await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
        await patch('/api/v1/user/settings', { locale: null });
      }
    });
  }

  // A saved household a year on, in each language: set beside a scenario
  // and other saved plans, checked in with this year's balances, renamed,
  // duplicated and deleted. The page's figures are the API's own answers,
  // fetched by the test. Each run checks its states with axe-core and for
  // sideways scrolling in one colour scheme, and the checked-in state in
  // both, at 375 and 1280 px: every persona, language, width and scheme.
  const apiJSON = (method, path, body, headers = {}) => page.evaluate(async ([m, u, b, h]) => {
    const r = await fetch(u, { method: m, headers: { 'Content-Type': 'application/json', ...h }, body: b === undefined ? undefined : JSON.stringify(b) });
    return { status: r.status, etag: r.headers.get('ETag'), body: r.status === 204 ? null : await r.json() };
  }, [method, '/api/v1' + path, body, headers]);
  const axeClean = async (what) => {
    await page.evaluate(axeSource);
    const res = await page.evaluate(() => globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
    assert.deepEqual(res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], `${what}: axe`);
  };
  /** Axe-core and the page's width at 375 and 1280 px in scheme, with a screenshot of each. */
  const looks = async (name, scheme) => {
    await page.emulateMedia({ colorScheme: scheme });
    await axeClean(`${name} ${scheme}`);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(250);
      const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, cut: [...document.querySelectorAll('#scenarios input, #checkin input, #plan-list input:not([type=checkbox])')].filter((i) => i.getBoundingClientRect().right > globalThis.innerWidth || i.clientWidth < 100).map((i) => i.id),
        tables: [...document.querySelectorAll('#results .table-wrap:not(.years)')].filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => w.querySelector('table').id) }));
      assert.ok(wide.page <= width, `${name} at ${width}: page ${wide.page} px wide`);
      assert.deepEqual(wide.cut, [], `${name} at ${width}: inputs cut off`);
      assert.deepEqual(wide.tables, [], `${name} at ${width}: tables scroll sideways`);
      await page.screenshot({ path: join(pageShots, `${name}-${scheme}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  /** The page's own text in German: none of it English, but for the API's notes (lang="en"). */
  const noEnglish = async (what) => {
    const text = await page.evaluate(() => {
      const out = [];
      const walk = (n) => {
        if (n.nodeType === 3) { if (n.textContent.trim()) out.push(n.textContent.trim()); return; }
        if (n.nodeType !== 1 || n.getAttribute('lang') === 'en' || n.hidden || n.tagName === 'SCRIPT' || n.tagName === 'STYLE') return;
        for (const a of ['aria-label', 'placeholder']) if (n.getAttribute(a)) out.push(n.getAttribute(a));
        for (const c of n.childNodes) walk(c);
      };
      walk(document.querySelector('main'));
      return out;
    });
    const bad = [...new Set(text.filter((s) => english.test(s)))];
    assert.deepEqual(bad, [], `${what}: English on the German page: ${JSON.stringify(bad)}`);
  };

  // A backtest on the user's own return series: uploaded through the API,
  // offered on the page once stored, picked, and its answer is the API's.
  test('a backtest on a stored return series, picked on the page', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ year: 1961 + i, stocks: [0.09, -0.12, 0.15, 0.04][i % 4], bonds: 0.03, inflation: 0.02 }));
    const made = await apiJSON('POST', '/user/series', { name: 'DAX and Bunds', currency: 'EUR', frequency: 'yearly', source: 'e2e', licence: 'own', rows });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const ds = made.body.data.dataset;
    assert.match(ds, /^user:/);
    // A user whose money is the euro, backtesting on a euro series.
    assert.equal((await apiJSON('PATCH', '/user/profile', { currency: 'EUR' })).status, 200);
    try {
      await page.goto(base + '/?currentAge=45&annualIncome=90000&annualExpenses=40000&currentSavings=600000');
      await page.waitForSelector('#hist-dataset-field:not([hidden])', { state: 'attached' });
      await page.click('#calc details:not(#household) > summary');
      assert.equal(await page.inputValue('#histDataset'), '', 'the US record unless chosen');
      await page.selectOption('#histDataset', ds);
      const [resp] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
        page.click('#calc button[type=submit]'),
      ]);
      const sent = resp.request().postDataJSON();
      assert.deepEqual(sent.historical, { dataset: ds });
      assert.equal(sent.currency, 'EUR');
      const d = (await apiJSON('POST', '/calculator', sent)).body.data;
      assert.equal(d.historical.dataset, ds);
      assert.equal(d.historical.currency, 'EUR', 'a series runs in its own money');
      assert.equal(d.historical.dataFrom, 1961);
      const want = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(d.historical.successRate);
      await page.waitForFunction((w) => document.getElementById('hist-success')?.textContent === w, want);
      assert.match(await page.textContent('#hist-data'), /^DAX and Bunds \(EUR, 1961–2020\)$/);
      assert.deepEqual(JSON.parse(new URL(page.url()).searchParams.get('historical')), { dataset: ds }, 'the link keeps the choice');
      await page.reload();
      await page.waitForFunction((v) => /** @type {HTMLSelectElement} */ (document.getElementById('histDataset')).value === v, ds);
      await page.screenshot({ path: join(pageShots, 'backtest-user-series-1280.png'), fullPage: true });
    } finally {
      await apiJSON('PATCH', '/user/profile', { currency: null });
      assert.equal((await apiJSON('DELETE', '/user/series/' + made.body.data.id)).status, 204);
    }
  });

  // The verify button against a server of the test's own that mails
  // through a local SMTP server (aiosmtpd): no address in the profile, then
  // sent to the profile's address, then a second within the minute refused,
  // said in German. That server is http://localhost: its cookies are not
  // those of 127.0.0.1, where the suite's session lives.
  test('settings: the email verify button with a mail server: no address, sent, wait a minute', async () => {
    const smtpPort = await freePort();
    let mails = '';
    const smtp = spawn('/usr/bin/aiosmtpd', ['-n', '-l', `127.0.0.1:${smtpPort}`], { stdio: ['ignore', 'pipe', 'ignore'] });
    smtp.stdout.on('data', (c) => { mails += c; });
    const port2 = await freePort();
    const base2 = `http://localhost:${port2}`;
    const server2 = spawn(bin, [], {
      env: { ...process.env, FI_ADDR: `127.0.0.1:${port2}`, FI_DB: join(work, 'fiplan-mail.db'), FI_PUBLIC_URL: base2, FI_SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
      stdio: ['ignore', 'ignore', openSync(join(work, 'fiplan-mail.log'), 'w')],
    });
    const p2 = await browser.newPage();
    try {
      await waitUp(`http://127.0.0.1:${port2}`);
      await p2.goto(base2 + '/auth/login?next=%2Fdashboard%2Fsettings');
      await p2.fill('#name', 'mail-user');
      // The profile is filled in once loaded: typed into before, it is overwritten.
      const profileLoaded = () => p2.waitForResponse((x) => x.url().endsWith('/api/v1/user/profile') && x.request().method() === 'GET');
      let loaded = profileLoaded();
      await p2.click('#login-form button[type=submit]');
      await p2.waitForURL(base2 + '/dashboard/settings');
      await loaded;
      await p2.waitForSelector('#profile .status[hidden]', { state: 'attached' }); // filled: its loading note is gone
      const press = async (want) => {
        const [r] = await Promise.all([
          p2.waitForResponse((x) => x.url().endsWith('/api/v1/user/email/verify')),
          p2.click('#verify-email'),
        ]);
        assert.equal(r.status(), want);
        await p2.waitForFunction(() => !document.querySelector('#verify-status')?.classList.contains('loading'));
        return p2.textContent('#verify-status');
      };
      assert.equal(await press(400), 'Your profile has no email address. Add one under Profile and save it first.');
      await p2.fill('#p-email', 'mail-user@example.com');
      await p2.click('#profile button[type=submit]');
      await p2.waitForFunction(() => document.querySelector('#profile .status')?.textContent === 'Saved.');
      assert.equal(await press(202), 'A verification link was sent to mail-user@example.com. Open it to receive plan notifications by email.');
      assert.equal(await p2.getAttribute('#verify-status', 'role'), 'status');
      for (let i = 0; i < 50 && !mails.includes('mail-user@example.com'); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(mails.includes('mail-user@example.com'), 'the mail reached the SMTP server');
      await browser.addCookies([{ name: 'fiplan_lang', value: 'de', url: base2 }]);
      loaded = profileLoaded();
      await p2.reload();
      await loaded;
      await p2.waitForFunction(() => /** @type {HTMLInputElement} */ (document.getElementById('p-email')).value === 'mail-user@example.com');
      assert.equal(await press(429), 'Vor weniger als einer Minute wurde eine Bestätigungsmail gesendet. Warten Sie eine Minute und versuchen Sie es dann erneut.');
      await p2.screenshot({ path: join(pageShots, 'settings-verify-email-de-1280.png'), fullPage: true });
    } finally {
      await p2.close();
      server2.kill('SIGTERM');
      smtp.kill('SIGTERM');
    }
  });

  // Webhooks from the settings page, in each language: a refused address
  // marked on its field, an endpoint added with its secret shown once, a
  // test event received by a server of the test's own and verified by the
  // page's own snippet, the delivery logged with its channel, the email
  // verify button's answer, the endpoint deleted.
  for (const lang of ['en', 'de']) {
    test(`settings in ${lang}: webhooks, a signed test event verified by the page's snippet, the delivery log`, async () => {
      const got = [];
      const hookServer = createHTTPServer((req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', () => { got.push({ headers: req.headers, body }); res.writeHead(204).end(); });
      });
      await new Promise((ok) => hookServer.listen(0, '127.0.0.1', ok));
      const url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (hookServer.address()).port}/hook-${lang}`;
      await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
      try {
        assert.equal((await apiJSON('PATCH', '/user/settings', { locale: lang === 'de' ? 'de-DE' : 'en-GB' })).status, 200);
        await page.goto(base + '/dashboard/settings');
        await page.waitForSelector('#hooks caption, #hooks tbody');
        await page.waitForSelector('#deliveries caption, #deliveries tbody');
        await page.fill('#hook-url', 'ftp://files.example/hook');
        await page.click('#hook-form button[type=submit]');
        await page.waitForSelector('#hook-url[aria-invalid=true]');
        assert.equal(await page.textContent('#hook-url-error'), lang === 'de' ? 'Geben Sie eine https-Adresse eines öffentlichen Servers ein.' : 'Enter an https address of a public server.');
        await page.fill('#hook-url', url);
        await page.uncheck('#hook-form input[value="guardrail.crossed"]');
        const [made] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/user/webhooks') && r.request().method() === 'POST'),
          page.click('#hook-form button[type=submit]'),
        ]);
        assert.equal(made.status(), 201);
        assert.deepEqual(made.request().postDataJSON(), { url, events: ['checkin.due'] });
        await page.waitForSelector('#new-hook:not([hidden])');
        const secret = await page.textContent('#new-hook-secret');
        assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
        const listed = (await apiJSON('GET', '/user/webhooks')).body.data;
        const hook = listed.find((h) => h.url === url);
        assert.ok(hook && !('secret' in hook), 'listed, never with its secret');
        await page.waitForSelector(`#hooks tr[data-id="${hook.id}"]`);

        // A test event, signed as the page says: its own snippet verifies it.
        await page.click(`#hooks tr[data-id="${hook.id}"] button:first-of-type`);
        for (let i = 0; i < 100 && !got.length; i++) await new Promise((r) => setTimeout(r, 100));
        assert.equal(got.length, 1, 'the test event arrived');
        const { headers, body } = got[0];
        assert.equal(JSON.parse(body).type, 'test');
        assert.match(headers['webhook-signature'], /^v1,/);
        const snippet = (await page.textContent('#hook-verify code')).replace(/^import .*\n/, '');
        const verify = new Function('createHmac', 'timingSafeEqual', snippet + '\nreturn verify;')(createHmac, timingSafeEqual);
        assert.equal(verify(secret, headers['webhook-id'], headers['webhook-timestamp'], headers['webhook-signature'], body), true, 'the snippet verifies the request');
        assert.equal(verify(secret, headers['webhook-id'], headers['webhook-timestamp'], headers['webhook-signature'], body + ' '), false, 'and refuses a changed body');
        const want = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64');
        assert.ok(headers['webhook-signature'].split(' ').includes('v1,' + want), 'Standard Webhooks signature');

        // The delivery log says it was delivered, in the page's language.
        await page.waitForFunction(() => document.querySelector('#deliveries tbody tr[data-status=delivered]'), null, { timeout: 10000, polling: 500 }).catch(() => {});
        if (!(await page.locator('#deliveries tbody tr[data-status=delivered]').count())) {
          await page.click('#dl-refresh');
          await page.waitForSelector('#deliveries tbody tr[data-status=delivered]');
        }
        const row = await page.locator('#deliveries tbody tr[data-status=delivered] td').allTextContents();
        assert.equal(row[1], 'Webhook');
        assert.equal(row[2], 'Test');
        assert.equal(row[3], lang === 'de' ? 'zugestellt' : 'delivered');
        assert.equal(row[5].trim(), '204');

        // This server has no SMTP server: the verify button says email is
        // off, in the page's language, from the route's 503.
        const [verifyAnswer] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/user/email/verify') && r.request().method() === 'POST'),
          page.click('#verify-email'),
        ]);
        assert.equal(verifyAnswer.status(), 503);
        await page.waitForSelector('#verify-status.error:not([hidden])');
        assert.equal(await page.textContent('#verify-status'), lang === 'de'
          ? 'E-Mail ist auf diesem Server abgeschaltet: Es können keine Mails gesendet werden.'
          : 'Email is off on this server: no mail can be sent.');
        assert.equal(await page.getAttribute('#verify-status', 'role'), 'alert');
        await page.click('#hook-verify summary');
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          await axeClean(`settings webhooks ${lang} ${scheme}`);
        }
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.waitForTimeout(250);
          assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width, `settings at ${width}: sideways scrolling`);
          await page.screenshot({ path: join(pageShots, `settings-webhooks-${lang}-${width}.png`), fullPage: true });
        }
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.emulateMedia({ colorScheme: 'light' });
        if (lang === 'de') await noEnglish('settings webhooks');

        // Shown once: a reload has the endpoint, not its secret.
        await page.reload();
        await page.waitForSelector(`#hooks tr[data-id="${hook.id}"]`);
        assert.equal(await page.isHidden('#new-hook'), true);
        assert.ok(!(await page.content()).includes(secret.slice(6)), 'the secret is not on the page again');
        page.once('dialog', (d) => d.accept());
        await page.click(`#hooks tr[data-id="${hook.id}"] button.danger`);
        await page.waitForSelector(`#hooks tr[data-id="${hook.id}"]`, { state: 'detached' });
        assert.ok(!(await apiJSON('GET', '/user/webhooks')).body.data.some((h) => h.id === hook.id), 'deleted');
      } finally {
        await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
        await apiJSON('PATCH', '/user/settings', { locale: null });
        hookServer.close();
      }
    });

    // The open plan says when its next check-in falls: the date set, else
    // the anniversary of its saving; saved again from the page, it keeps it.
    test(`check-in in ${lang}: the next check-in date, set and by default`, async () => {
      const loc = lang === 'de' ? 'de-DE' : 'en-GB';
      await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
      try {
        assert.equal((await apiJSON('PATCH', '/user/settings', { locale: loc })).status, 200);
        const input = { currentAge: 40, annualIncome: 80000, annualExpenses: 40000, currentSavings: 100000, currency: 'EUR' };
        const fmt = (d) => new Intl.DateTimeFormat(loc, { dateStyle: 'long', timeZone: 'UTC' }).format(d);
        const now = new Date();
        const next = lang === 'de' ? 'Nächster Check-in: ' : 'Next check-in: ';
        const set = await apiJSON('POST', '/plans', { name: `check-in ${lang}`, input, checkinDate: '03-15' });
        assert.equal(set.status, 201);
        const id = set.body.data.id;
        await page.goto(base + '/?plan=' + id);
        await page.waitForSelector('#checkin:not([hidden])');
        // Saved this year: never due in it, so next year's 15 March.
        await page.waitForFunction((s) => document.getElementById('checkin-next')?.textContent === s, next + fmt(new Date(Date.UTC(now.getUTCFullYear() + 1, 2, 15))) + '.');
        const [put] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/plans/' + id) && r.request().method() === 'PUT'),
          page.click('#save-plan'),
        ]);
        assert.equal(put.status(), 200);
        assert.equal((await apiJSON('GET', '/plans/' + id)).body.data.checkinDate, '03-15', 'saved again, the date stays');
        const plain = await apiJSON('POST', '/plans', { name: `anniversary ${lang}`, input });
        const made = new Date(plain.body.data.createdAt);
        await page.goto(base + '/?plan=' + plain.body.data.id);
        await page.waitForFunction((s) => document.getElementById('checkin-next')?.textContent === s, next + fmt(new Date(Date.UTC(made.getUTCFullYear() + 1, made.getUTCMonth(), made.getUTCDate()))) + '.');
        await page.screenshot({ path: join(pageShots, `checkin-next-${lang}-1280.png`), fullPage: true });
        for (const x of [id, plain.body.data.id]) assert.equal((await apiJSON('DELETE', '/plans/' + x)).status, 204);
      } finally {
        await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
        await apiJSON('PATCH', '/user/settings', { locale: null });
      }
    });
  }

  for (const [k, p] of personas.entries()) {
    for (const lang of ['en', 'de']) {
      test(`household ${p.name} in ${lang}: a scenario and saved plans side by side, a check-in a year later, rename, duplicate, delete`, async () => {
        const saved = ctx['plan-' + p.name];
        assert.ok(saved, 'the persona\'s saved plan (its test runs first)');
        const loc = lang === p.lang ? p.locale : lang === 'de' ? 'de-DE' : 'en-US';
        const scheme = (k + (lang === 'de' ? 1 : 0)) % 2 ? 'dark' : 'light';
        const other = scheme === 'dark' ? 'light' : 'dark';
        const m = new Intl.NumberFormat(loc, { style: 'currency', currency: p.currency, maximumFractionDigits: 0 });
        const pc = (v) => new Intl.NumberFormat(loc, { style: 'percent', maximumFractionDigits: 1 }).format(v);
        const name = `household-${p.name}-${lang}-saved`;
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        await page.emulateMedia({ colorScheme: scheme });
        try {
          assert.equal((await apiJSON('PATCH', '/user/settings', { locale: loc })).status, 200);
          // A year on: the plan started last year (a copy, so each language checks in alone).
          const year = new Date().getFullYear();
          const made = await apiJSON('POST', '/plans', { name: `${p.name} ${lang}`, input: { ...saved.want, startYear: year - 1 } });
          assert.equal(made.status, 201);
          const id = made.body.data.id;
          const [first] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
            page.goto(base + '/?plan=' + id),
          ]);
          assert.equal(first.status(), 200);
          await page.waitForSelector(`#pl-${id}`);
          assert.equal(await page.getAttribute('html', 'lang'), lang);

          // Duplicate, then tick the plan and its copy to compare, beside a scenario.
          await page.click(`#pl-${id} button:nth-of-type(3)`);
          await page.waitForFunction((n) => [...document.querySelectorAll('#plan-list .pl-name')].some((e) => e.textContent === n), lang === 'de' ? `${p.name} ${lang} (Kopie)` : `${p.name} ${lang} (copy)`);
          const list = (await apiJSON('GET', '/plans?limit=100')).body.data;
          const copy = list.find((x) => x.name.startsWith(`${p.name} ${lang} (`));
          assert.deepEqual(copy.input, (await apiJSON('GET', '/plans/' + id)).body.data.input, 'the copy holds the plan');
          await page.click('#add-scenario');
          const [calc] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST' && r.request().postDataJSON().scenarios),
            page.click('#calc button[type=submit]'),
          ]);
          const body = calc.request().postDataJSON();
          for (const x of [id, copy.id]) await page.check(`#plan-list li#pl-${x} input[type=checkbox]`);
          await page.waitForFunction(() => document.querySelectorAll('#compare-table thead th').length === 5);
          const { scenarios, ...flat } = body;
          const sc = { ...flat, ...Object.fromEntries(Object.entries(scenarios[0]).filter(([x]) => x !== 'name')) };
          const answers = [(await apiJSON('POST', '/calculator', body)).body.data, (await apiJSON('POST', '/calculator', sc)).body.data,
            (await apiJSON('POST', `/plans/${id}/run`)).body.data, (await apiJSON('POST', `/plans/${copy.id}/run`)).body.data];
          assert.equal(answers[0].scenarios[0].fiAge, answers[1].fiAge, 'a scenario run alone is the scenario');
          // Side by side: a column for each plan; the input the scenario changes
          // (the spending) comes first, marked; then what each plan answers.
          const rowKeys = await page.locator('#compare-table tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.k, r.classList.contains('differs')]));
          assert.deepEqual(rowKeys[0], ['annualExpenses', true], `the differing input first: ${JSON.stringify(rowKeys)}`);
          const nDiffer = rowKeys.filter(([, dif]) => dif).length;
          assert.ok(rowKeys.slice(0, nDiffer).every(([, dif]) => dif), 'every differing input before the answers');
          const spend = await page.locator('#compare-table tbody tr[data-k=annualExpenses] td').allTextContents();
          assert.deepEqual(spend, [m.format(body.annualExpenses), m.format(scenarios[0].annualExpenses), m.format(saved.want.annualExpenses), m.format(saved.want.annualExpenses)]);
          const cell = async (k) => page.locator(`#compare-table tbody tr[data-k=${k}] td`).allTextContents();
          const [fiAges, years, lasts, mcs, hists, taxes, ends] = await Promise.all(['fiAge', 'years', 'lasts', 'mc', 'hist', 'tax', 'end'].map(cell));
          for (const [i, d] of answers.entries()) {
            assert.equal(fiAges[i], d.fiAge === null ? '—' : String(d.fiAge), `column ${i}: FI age`);
            if (d.yearsToFI !== null) assert.match(years[i], new RegExp(`\\b${d.yearsToFI}\\b`), `column ${i}: years to FI`);
            assert.match(lasts[i], new RegExp(`\\b${d.depletionAge ?? Math.max(95, p.body.partner ? p.body.partner.age - p.body.currentAge + 95 : 0)}\\b`), `column ${i}: lasts`);
            assert.equal(mcs[i], pc(d.monteCarlo.successRate), `column ${i}: Monte Carlo`);
            assert.equal(hists[i], pc(d.historical.successRate), `column ${i}: historical`);
            assert.equal(taxes[i], m.format(d.lifetimeTax), `column ${i}: lifetime tax`);
            assert.equal(ends[i], m.format(d.finalBalanceReal), `column ${i}: end balance`);
          }

          // The check-in: a refused balance is marked on its field, in the page's language.
          const accounts = saved.want.accounts;
          assert.equal(await page.locator('#checkin-fields input').count(), accounts.length);
          await page.fill('#ci-0', '-5');
          await page.click('#checkin button[type=submit]');
          await page.waitForSelector('#ci-0[aria-invalid=true]');
          assert.equal(await page.textContent('#ci-0-error'), lang === 'de' ? 'Geben Sie einen Betrag von 0 bis 100 Milliarden ein.' : 'Enter an amount from 0 to 100 billion.');
          // A name refused on rename, too.
          await page.click(`#pl-${id} button:nth-of-type(2)`);
          await page.fill(`#rn-${id}`, '');
          await page.click(`#pl-${id} button:first-of-type`);
          await page.waitForSelector(`#rn-${id}[aria-invalid=true]`);
          if (lang === 'de') await noEnglish(`${p.name} errors`);
          await page.emulateMedia({ colorScheme: scheme });
          await axeClean(`${name} errors ${scheme}`);
          await page.screenshot({ path: join(pageShots, `${name}-errors-${scheme}-1280.png`), fullPage: true });
          const newName = lang === 'de' ? `Haushalt ${p.name} neu` : `Household ${p.name} renamed`;
          await page.fill(`#rn-${id}`, newName);
          const [patch] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith('/api/v1/plans/' + id) && r.request().method() === 'PATCH'),
            page.press(`#rn-${id}`, 'Enter'),
          ]);
          assert.equal(patch.status(), 200);
          assert.ok(patch.request().headers()['if-match'], 'rename sends If-Match');
          await page.waitForFunction(([i, n]) => document.querySelector(`#pl-${i} .pl-name`)?.textContent === n, [id, newName]);
          assert.equal((await apiJSON('GET', '/plans/' + id)).body.data.name, newName);
          assert.ok((await page.textContent('#checkin-hint')).includes(newName), 'the open plan\'s check-in names it anew');
          assert.ok((await page.textContent('#checkin-hint')).includes(`(${p.currency})`), 'the check-in asks for balances in the plan\'s currency');
          assert.equal(await page.inputValue('#plan-name'), newName);

          // This year's balances, each up by a tenth.
          const balances = Object.fromEntries(accounts.map((a) => [a.id, Math.round(a.balance * 1.1)]));
          for (const [i, a] of accounts.entries()) await page.fill(`#ci-${i}`, String(balances[a.id]));
          const [ci] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith(`/plans/${id}/checkin`)),
            page.click('#checkin button[type=submit]'),
          ]);
          assert.equal(ci.status(), 200, await ci.text());
          assert.deepEqual(ci.request().postDataJSON(), { balances });
          const c = (await apiJSON('POST', `/plans/${id}/checkin`, { balances })).body.data;
          assert.equal(c.age, p.body.currentAge + 1, 'a year later');
          await page.waitForSelector('#ci-spend');
          assert.equal(await page.textContent('#ci-spend'), m.format(c.spending));
          assert.equal(await page.textContent('#ci-rate'), pc(c.withdrawalRate));
          assert.equal(await page.textContent('#ci-mc'), pc(c.successRates.monteCarlo));
          assert.equal(await page.textContent('#ci-hist'), pc(c.successRates.historical));
          assert.equal(await page.locator('#ci-guard').count(), c.guardrails ? 1 : 0);
          const say = await page.textContent('#checkin-say');
          assert.ok(say.includes(m.format(c.spending)) && say.includes(String(c.drawdownAge)), say);
          const planSpend = [...(p.body.spending || [])].filter((x) => x.fromAge <= c.drawdownAge).reduce((_, x) => x.amount, p.body.annualExpenses);
          if (Math.abs(c.spending - planSpend) >= Math.max(1, planSpend * 0.005)) assert.ok(say.includes(m.format(Math.abs(c.spending - planSpend))), `${say}: the difference from ${planSpend}`);
          if (lang === 'de') await noEnglish(`${p.name} checked in`);
          await looks(name, scheme);
          await looks(name, other);

          // A plan changed elsewhere since the list was shown is not deleted: the page says so and lists it again.
          assert.equal((await apiJSON('PATCH', '/plans/' + copy.id, { name: copy.name + '!' })).status, 200);
          page.once('dialog', (dlg) => dlg.accept());
          await page.click(`#pl-${copy.id} button:nth-of-type(4)`);
          await page.waitForSelector('#plan-status.error');
          assert.match(await page.textContent('#plan-status'), lang === 'de' ? /\(Kopie\) wurde geändert, seit die Liste angezeigt wurde/ : /\(copy\) changed since this list was shown/);
          assert.equal((await apiJSON('GET', '/plans/' + copy.id)).status, 200, 'not deleted');
          await page.waitForFunction((i) => document.querySelector(`#pl-${i} .pl-name`)?.textContent.endsWith('!'), copy.id);
          // Delete the copy, with If-Match, after asking.
          page.once('dialog', (dlg) => dlg.accept());
          const [del] = await Promise.all([
            page.waitForResponse((r) => r.url().endsWith('/api/v1/plans/' + copy.id) && r.request().method() === 'DELETE'),
            page.click(`#pl-${copy.id} button:nth-of-type(4)`),
          ]);
          assert.equal(del.status(), 204);
          assert.ok(del.request().headers()['if-match'], 'delete sends If-Match');
          await page.waitForSelector(`#pl-${copy.id}`, { state: 'detached' });
          assert.equal((await apiJSON('GET', '/plans/' + copy.id)).status, 404);
          await page.waitForFunction(() => document.querySelectorAll('#compare-table thead th').length === 4);
          assert.equal((await apiJSON('DELETE', '/plans/' + id, undefined, { 'If-Match': '"stale"' })).status, 412, 'a stale tag is refused');
        } finally {
          await page.emulateMedia({ colorScheme: 'light' });
          await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
          await apiJSON('PATCH', '/user/settings', { locale: null });
        }
      });
    }
  }

  // The German couple in German: a joint return the tax data does not model
  // is not offered, and one sent by a link is refused on its field in
  // German, the figures of the previous inputs gone; the pension's amount
  // says it is at full pension age; a country whose income tax has a local
  // part starts in the region the API names.
  test('de-couple in German: no joint return offered, one refused said in German with the old figures cleared; pension amount at full pension age; default region', async () => {
    await browser.addCookies([{ name: 'fiplan_lang', value: 'de', url: base }]);
    try {
      const de = personas.find((x) => x.name === 'de-couple');
      const { currentAge, annualIncome, annualExpenses, targetRetirementAge, ...hh } = de.body;
      const flat = `/?currentAge=${currentAge}&annualIncome=${annualIncome}&annualExpenses=${annualExpenses}&targetRetirementAge=${targetRetirementAge}&monteCarlo=&historical=&`;
      const countries = (await apiJSON('GET', '/tax/countries')).body.data;
      assert.deepEqual(countries.find((c) => c.code === 'DE').jointYears, [], 'the tax data models no German joint return');
      await page.goto(base + flat + query({ ...hh, tax: { country: 'DE', filing: 'joint' } }));
      await page.waitForSelector('#lifetime-tax');
      assert.equal(await page.textContent('label[for=pensions0-amount]'), 'Jahresbetrag bei Regelaltersgrenze');
      assert.equal(await page.locator('#tax-filing option[value=joint]').isDisabled(), true, 'no joint return offered for Germany');
      assert.equal(await page.inputValue('#tax-filing'), '', 'a link\'s joint return is not sent where none is modelled');
      // Every US state files a couple jointly (where a state models no joint
      // return, its single rule applies to the couple's income): a US couple's
      // joint return is never refused for its region.
      const us = countries.find((c) => c.code === 'US');
      assert.deepEqual(us.regions.filter((r) => r.years.length && !r.jointYears.length).map((r) => r.code), [], 'US regions without a joint return');
      // Without a joint return the figures come back.
      await page.selectOption('#tax-filing', '');
      await page.click('#calc button[type=submit]');
      await page.waitForSelector('#results:not([hidden]) #lifetime-tax');
      // Switzerland starts in Zürich, the region its localTax names.
      await page.selectOption('#tax-country', 'CH');
      assert.equal(await page.inputValue('#tax-region'), countries.find((c) => c.code === 'CH').localTax.region);
    } finally {
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    }
  });

  test('places: a signed-in user\'s own plan retires in the city, not the example plan', async () => {
    const mine = (await apiJSON('POST', '/plans', { name: 'Mine, latest', input: { currentAge: 52, annualIncome: 88000, annualExpenses: 41000, currentSavings: 650000, retirementExpenses: 30000 } })).body.data;
    try {
      await page.goto(base + '/app/places');
      await page.fill('#q', 'Lisboa');
      await page.click('#search button[type=submit]');
      const link = page.locator('#cities li a.plan-link').first();
      await link.waitFor();
      const [resp] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
        link.click(),
      ]);
      const sent = resp.request().postDataJSON();
      assert.equal(sent.cityId, 'lisbon-pt');
      assert.equal(sent.currentAge, 52, 'the user\'s plan, not the example');
      assert.equal(sent.currentSavings, 650000);
      assert.equal(sent.retirementExpenses, undefined, 'the city\'s budget replaces the retirement spending');
      assert.equal(await page.inputValue('#currentAge'), '52');
    } finally {
      await apiJSON('DELETE', '/plans/' + mine.id);
    }
  });

  // The page's one state is the request body: a household plan of two
  // people sent, reloaded from its link, saved, opened by its id and opened
  // from the list on a fresh page is the same body each time; keys the form
  // has no field for (an account's own id, a scenario's return) are kept.
  test('one state: a household plan round-trips through its URL and a saved plan as the same request body', async () => {
    const plan = {
      flat: { currentAge: '48', annualIncome: '85000', annualExpenses: '40000', targetRetirementAge: '57', expectedReturn: '5.5', lifeExpectancy: '96' },
      country: 'GB', partner: { age: '46', income: '52000', retire: '60' },
      accounts: [
        { type: 'gb-sipp', balance: '310000', annualContribution: '12000', employerContribution: '6000' },
        { type: 'gb-isa', owner: 'partner', balance: '95000', annualContribution: '10000' },
        { type: 'taxable', balance: '40000', costBasis: '32000' },
      ],
      pensions: [{ kind: 'gb-state-pension', amount: '11973', fromAge: '67' }, { kind: 'gb-state-pension', owner: 'partner', amount: '11500', fromAge: '68' }],
      phases: [{ fromAge: '75', amount: '34000' }, { fromAge: '85', amount: '30000' }],
      order: 'tax-smart',
    };
    // The page's own request (not a scenario's run alone: that one has no scenarios).
    const sends = (action) => Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST' && !!r.request().postDataJSON()?.scenarios),
      action,
    ]).then(([r]) => r.request().postDataJSON());
    await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    await page.goto(base + '/');
    await page.waitForSelector('#tax-country option[value=GB]', { state: 'attached' });
    await page.waitForSelector('#saved:not([hidden])');
    await page.waitForSelector('#fi-number');
    await fillPersona(plan);
    await page.click('#add-scenario');
    const first = await sends(page.click('#calc button[type=submit]'));
    assert.deepEqual(first.partner, { age: 46, annualIncome: 52000, retirementAge: 60 });
    assert.deepEqual(first.accounts.map((a) => [a.id, a.owner]), [['gb-sipp', 'self'], ['gb-isa-partner', 'partner'], ['taxable', 'self']]);
    assert.deepEqual(first.spending, [{ fromAge: 75, amount: 34000 }, { fromAge: 85, amount: 30000 }]);
    assert.equal(first.expectedReturn, 0.055);
    assert.equal(first.pensions.length, 2);
    assert.equal(first.currency, 'GBP');
    assert.equal(first.scenarios.length, 1);
    // The link is the body: reloaded, the page sends it again.
    assert.deepEqual(await sends(page.reload()), first, 'reloaded from its URL');
    assert.equal(await page.inputValue('#accounts1-owner'), 'partner');
    assert.equal(await page.inputValue('#expectedReturn'), '5.5', 'a rate in percent on the page');
    // Saved, the plan's input is the body; opened by its id, the page sends it.
    await page.fill('#plan-name', 'Round trip');
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/plans') && r.request().method() === 'POST'),
      page.click('#save-plan'),
    ]);
    assert.equal(saved.status(), 201, await saved.text());
    const id = (await saved.json()).data.id;
    try {
      assert.deepEqual((await saved.json()).data.input, first, 'the saved plan is the body');
      assert.deepEqual(await sends(page.goto(base + '/?plan=' + id)), first, 'opened by its id');
      // A plan written through the API with keys the form has no field for:
      // the page keeps them, and keeps an account's own id.
      const extra = structuredClone(first);
      extra.accounts[0].id = 'my-sipp';
      extra.scenarios[0].expectedReturn = 0.04;
      const cur = await apiJSON('GET', '/plans/' + id);
      assert.equal((await apiJSON('PUT', '/plans/' + id, { name: 'Round trip', input: extra }, { 'If-Match': cur.etag })).status, 200);
      await page.goto(base + '/');
      await page.waitForSelector('#pl-' + id);
      await page.waitForSelector('#fi-number');
      const opened = await sends(page.click(`#pl-${id} button >> nth=0`));
      assert.deepEqual(opened, extra, 'opened from the list on a fresh page');
      assert.deepEqual(await sends(page.reload()), extra, 'and reloaded from its URL');
    } finally {
      await apiJSON('DELETE', '/plans/' + id);
    }
  });

  test('check-in of a one-pot plan under guardrails: one total, the guardrails\' state', async () => {
    const input = { currentAge: 60, annualIncome: 0, annualExpenses: 40000, currentSavings: 1000000, targetRetirementAge: 60, withdrawalStrategy: 'guyton-klinger', historical: {} };
    const made = await apiJSON('POST', '/plans', { name: 'Guardrails', input });
    assert.equal(made.status, 201);
    const id = made.body.data.id;
    await page.goto(base + '/?plan=' + id);
    await page.waitForSelector('#checkin:not([hidden]) #ci-total');
    assert.equal(await page.locator('#checkin-fields input').count(), 1, 'one total for a plan without accounts');
    await page.fill('#ci-total', '');
    await page.click('#checkin button[type=submit]');
    await page.waitForSelector('#ci-total[aria-invalid=true]');
    await page.fill('#ci-total', '900000');
    const [resp] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/plans/${id}/checkin`)), page.click('#checkin button[type=submit]')]);
    assert.deepEqual(resp.request().postDataJSON(), { currentSavings: 900000 });
    const c = (await apiJSON('POST', `/plans/${id}/checkin`, { currentSavings: 900000 })).body.data;
    assert.ok(c.retired && c.guardrails, 'retired under guardrails');
    const m = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    await page.waitForSelector('#ci-guard');
    assert.equal(await page.textContent('#ci-spend'), m.format(c.spending));
    assert.match(await page.textContent('#ci-spend'), /\d/);
    const guard = await page.textContent('#ci-guard');
    assert.ok(guard.includes(m.format(c.guardrails.cutBelowPortfolio)) && guard.includes(m.format(c.guardrails.raiseAbovePortfolio)), guard);
    assert.equal(await page.locator('#ci-mc').count(), 0, 'no Monte Carlo rate the plan did not ask for');
    assert.match(await page.textContent('#checkin-say'), /^This year the strategy of Guardrails lets you spend/);
    await axeClean('one-pot check-in');
    assert.equal((await apiJSON('DELETE', '/plans/' + id)).status, 204);
  });

  test('amounts in the profile\'s currency and the settings\' locale', async () => {
    const patch = (path, body) => page.evaluate(([p, b]) => fetch(p, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.status), [path, body]);
    assert.equal(await patch('/api/v1/user/settings', { locale: 'de-DE', baseCurrency: 'EUR' }), 200);
    assert.equal(await patch('/api/v1/user/profile', { currency: 'EUR' }), 200);
    try {
      const [resp] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST'),
        page.goto(base + '/?currentAge=45&annualIncome=90000&annualExpenses=48000&currentSavings=300000&historical='),
      ]);
      const d = (await resp.json()).data;
      const eur = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
      await page.waitForFunction((n) => document.querySelector('#fi-number')?.textContent === n, eur.format(d.fiNumber));
      // The settings' locale is German: so is the page, though the browser asks for English.
      assert.equal(await page.getAttribute('html', 'lang'), 'de');
      assert.equal(await page.textContent('#results-h'), 'Ihr Plan');
      assert.match(await page.textContent('#table tbody tr td:nth-child(3)'), /€$/);
      const [sum] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/assets/summary')),
        page.goto(base + '/app/portfolio'),
      ]);
      const sm = (await sum.json()).data;
      await page.waitForFunction((n) => document.querySelector('#total')?.textContent === n,
        new Intl.NumberFormat('de-DE', { style: 'currency', currency: sm.currency, maximumFractionDigits: 0 }).format(sm.totalValue));
    } finally {
      // Back to English for the tests after: the settings, and the language
      // cookie the German page kept.
      await patch('/api/v1/user/settings', { locale: null, baseCurrency: null });
      await patch('/api/v1/user/profile', { currency: null });
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    }
  });

  test('an expired session is refreshed without the page noticing', async () => {
    await page.goto(base + '/app/portfolio');
    await page.waitForSelector('#assets tbody tr');
    // A correctly signed token that has already expired, as after an idle hour.
    const expired = execFileSync(bin, ['token', '-sub', 'e2e-user', '-tier', 'pro', '-ttl', '1s'],
      { env: { ...process.env, FI_DB: join(work, 'fiplan.db') } }).toString().trim();
    await new Promise((r) => setTimeout(r, 1500));
    await browser.addCookies([{ name: 'fiplan_session', value: expired, url: base, httpOnly: true, sameSite: 'Lax' }]);
    const seen = [];
    const log = (r) => { if (/\/api\/v1\/assets$|\/auth\/refresh$/.test(r.url())) seen.push(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`); };
    page.on('response', log);
    await page.fill('#a-name', 'Savings account');
    await page.fill('#a-value', '5000');
    await page.click('#asset-save');
    await page.waitForSelector('#assets tbody tr:nth-child(2)');
    page.off('response', log);
    assert.deepEqual(seen.filter((s) => s.startsWith('POST')), ['POST /api/v1/assets 401', 'POST /auth/refresh 200', 'POST /api/v1/assets 201']);
    assert.equal(await page.textContent('#form-status'), 'Added Savings account.');
    const s = await page.evaluate(() => fetch('/auth/session').then((r) => r.json()));
    assert.equal(s.signedIn, true);
  });

  test('portfolio: a savings account and a target-date fund are categorised; no internal names', async () => {
    await page.goto(base + '/app/portfolio');
    await page.waitForSelector('#assets tbody tr');
    for (const [name, want] of [['High-yield savings', 'cash'], ['Vanguard Target Retirement 2050 Fund', 'equity']]) {
      await page.fill('#a-name', name);
      await page.fill('#a-value', '8000');
      await page.click('#asset-save');
      await page.waitForFunction((n) => document.querySelector('#form-status')?.textContent === `Added ${n}.`, name);
      const row = page.locator('#assets tbody tr', { hasText: name });
      await row.waitFor();
      assert.equal(await row.locator('td:nth-child(2)').textContent(), want, name);
    }
    await page.waitForSelector('#fi-score');
    const text = await page.textContent('main');
    assert.doesNotMatch(text, /fiProgress|portfolioHealth|timeToFI|cost_efficiency|\/api\/v1|profile\.\w+/, 'internal names on the page');
    assert.match(await page.textContent('#fiscore'), /Progress to your FI number/);
    // Bar charts are redrawn at a new width, so their text keeps its size.
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await page.waitForFunction(() => {
        const svg = document.querySelector('#summary svg.bars');
        return svg && Number(svg.getAttribute('viewBox').split(' ')[2]) <= svg.clientWidth * 1.1;
      }, null, { timeout: 3000 });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  test('portfolio: a UK saver\'s Premium Bonds are cash, a gilt index fund is a bond fund, not a single exposure', async () => {
    await page.goto(base + '/app/portfolio');
    await page.waitForLoadState('networkidle');
    const added = [];
    try {
      for (const [name, value, want] of [['NS&I Premium Bonds', '50000', 'cash'], ['Vanguard U.K. Government Bond Index', '900000', 'bond']]) {
        await page.fill('#a-name', name);
        await page.fill('#a-value', value);
        const [resp] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/v1/assets') && r.request().method() === 'POST'),
          page.click('#asset-save'),
        ]);
        added.push((await resp.json()).data.id);
        const row = page.locator('#assets tbody tr', { hasText: name });
        await row.waitFor();
        assert.equal(await row.locator('td:nth-child(2)').textContent(), want, name);
      }
      // The fund is most of the portfolio: the health score's answer for the
      // page's holdings has no advice to cut it as a single exposure. Only
      // an answer that comes once the reload has committed is the reloaded
      // page's: one asked for by the saves may still be on its way.
      let reloaded = false;
      page.once('framenavigated', () => { reloaded = true; });
      const [h] = await Promise.all([
        page.waitForResponse((r) => reloaded && r.url().endsWith('/api/v1/portfolio-health')),
        page.reload(),
      ]);
      const recs = (await h.json()).data.recommendations;
      assert.deepEqual(recs.filter((r) => r.kind === 'single_holding' && /Government Bond Index/.test(r.title)).map((r) => r.title), []);
      await page.waitForSelector('#health-score');
      assert.doesNotMatch(await page.textContent('main'), /Reduce the weight of Vanguard U\.K\. Government Bond Index/);
    } finally {
      for (const id of added) await page.evaluate((i) => fetch('/api/v1/assets/' + i, { method: 'DELETE' }), id);
    }
  });

  // The FI score of a user with saved plans is of the plan saved last, or
  // of the one chosen on the page; the page says which, with a link to it.
  test('portfolio: the FI score is of the plan saved last, or the one chosen; en and de, light and dark, 375 and 1280 px', async () => {
    const made = [];
    try {
      made.push((await apiJSON('POST', '/plans', { name: 'Older plan', input: { currentAge: 50, annualIncome: 70000, annualExpenses: 30000, currentSavings: 400000 } })).body.data);
      made.push((await apiJSON('POST', '/plans', { name: 'Newest plan', input: { currentAge: 47, annualIncome: 95000, annualExpenses: 45000, currentSavings: 520000, targetRetirementAge: 58 } })).body.data);
      for (const lang of ['en', 'de']) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        const [resp] = await Promise.all([
          page.waitForResponse((r) => r.url().includes('/api/v1/fi-score')),
          page.goto(base + '/app/portfolio'),
        ]);
        const f = (await resp.json()).data;
        assert.equal(f.plan.id, made[1].id, 'the plan saved last');
        await page.waitForFunction((s) => document.getElementById('fi-score')?.textContent === s, String(f.score));
        assert.match(await page.textContent('#fiscore-from'), lang === 'en' ? /“Newest plan”/ : /„Newest plan“/);
        assert.equal(await page.getAttribute('#fiscore-open', 'href'), '/?plan=' + made[1].id);
        // The older plan, chosen: its own score.
        const [older] = await Promise.all([
          page.waitForResponse((r) => r.url().includes('/api/v1/fi-score?plan=' + made[0].id)),
          page.selectOption('#fiscore-plan', made[0].id),
        ]);
        const o = (await older.json()).data;
        assert.equal(o.plan.id, made[0].id);
        await page.waitForFunction((s) => document.getElementById('fi-score')?.textContent === s, String(o.score));
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.evaluate(axeSource);
          for (const width of [375, 1280]) {
            await page.setViewportSize({ width, height: 900 });
            await page.waitForTimeout(300);
            const res = await page.evaluate(() => globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
            assert.deepEqual(res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], `fi score ${lang} ${scheme} ${width}: axe`);
            await page.locator('#fiscore').locator('..').screenshot({ path: join(pageShots, `fiscore-plan-${lang}-${scheme}-${width}.png`) });
          }
        }
        await page.emulateMedia({ colorScheme: 'light' });
        await page.setViewportSize({ width: 1280, height: 900 });
        // The profile alone: no plan named.
        await Promise.all([
          page.waitForResponse((r) => r.url().includes('/api/v1/fi-score?plan=none')),
          page.selectOption('#fiscore-plan', 'none'),
        ]);
        await page.waitForFunction(() => !document.getElementById('fiscore-open'));
      }
    } finally {
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
      for (const p of made) await apiJSON('DELETE', '/plans/' + p.id);
    }
  });

  test('at 375 and 1280 px no page scrolls sideways and tables fit their box', async () => {
    try {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        for (const [p, ready] of [['/?currentAge=41&annualIncome=82000&annualExpenses=39000&historical=', '#table tbody tr'],
          ['/app/portfolio', '#assets tbody tr'], ['/app/tax', '#country option[value=DE]'], ['/dashboard/settings', '#keys caption'], ['/app/places', '#cities li']]) {
          await page.goto(base + p);
          await page.waitForSelector(ready, { state: 'attached' });
          if (p === '/app/tax') {
            await page.selectOption('#country', 'DE');
            await page.fill('#employment', '60000');
            await page.click('#tax button[type=submit]');
            await page.waitForSelector('#breakdown tbody tr');
          }
          await page.waitForLoadState('networkidle');
          const wide = await page.evaluate(() => ({
            page: document.documentElement.scrollWidth,
            tables: [...document.querySelectorAll('.table-wrap:not(.years)')].filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => `${w.querySelector('table')?.id}: ${w.scrollWidth} > ${w.clientWidth}`),
          }));
          assert.ok(wide.page <= width, `${p} at ${width}: page ${wide.page} px wide`);
          assert.deepEqual(wide.tables, [], `${p} at ${width}: tables scroll sideways`);
        }
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  test('every form control on every page has a label', async () => {
    for (const p of ['/', '/app/portfolio', '/app/places', '/app/tax', '/dashboard/settings']) {
      await page.goto(base + p);
      await page.waitForLoadState('networkidle');
      const bad = await page.evaluate(() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
        .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map((e) => e.outerHTML));
      assert.deepEqual(bad, [], `${p}: unlabelled controls`);
      assert.equal(await page.locator('h1').count(), 1, `${p}: one h1`);
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      // Keyboard: the skip link is the first stop and moves focus to main.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip');
    }
  });

  // Each page in English and German, light and dark: axe-core finds no
  // violation of the WCAG 2 A and AA rules, the German page shows no
  // English words in its own text (labels, buttons, headings, table heads),
  // and a screenshot at 375 and 1280 px is kept.
  const english = /\b(the|and|your|of|Loading|Sign in|Sign out|Calculate|Save|Add|Delete|Search|Compare|Settings|Year|Age|Summary|Assets|Dark mode|Skip to content)\b/;
  const pagesReady = [['/', '#fi-number'], ['/app/portfolio', '#fi-score'], ['/app/places', '#cities li'], ['/app/tax', '#country option[value=DE]'], ['/dashboard/settings', '#keys caption']];
  async function everyPage(who, list) {
    const failures = [];
    const patch = (body) => page.evaluate((b) => fetch('/api/v1/user/settings', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.status), body);
    try {
      for (const lang of ['en', 'de']) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        if (who === 'signed-in') await patch({ locale: lang === 'de' ? 'de-DE' : 'en-US' });
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          for (const [p, ready] of list) {
            await page.goto(base + p);
            await page.waitForSelector(ready, { state: 'attached' });
            await page.waitForLoadState('networkidle');
            assert.equal(await page.getAttribute('html', 'lang'), lang, `${p} in ${lang}`);
            await page.evaluate(axeSource);
            if (lang === 'de') {
              const own = await page.evaluate(() => [...document.querySelectorAll('label, button, h1, h2, h3, legend, th[scope=col], dt, nav a, .lead, .status, caption')]
                .map((e) => e.textContent.trim()).filter(Boolean));
              for (const s of own) if (english.test(s)) failures.push(`${who} de ${p}: English text "${s.slice(0, 80)}"`);
            }
            const name = `${(p.replace(/\//g, '_').replace(/^_$/, '_calculator') || 'page').replace(/^_/, '')}-${who}-${lang}-${scheme}`;
            for (const width of [375, 1280]) {
              await page.setViewportSize({ width, height: 900 });
              await page.waitForTimeout(300);
              // axe-core at each width: a phone's layout is another page.
              const res = await page.evaluate(() => globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
              for (const v of res.violations) failures.push(`${who} ${lang} ${scheme} ${width} ${p}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
              await page.screenshot({ path: join(pageShots, `${name}-${width}.png`), fullPage: true });
            }
            await page.setViewportSize({ width: 1280, height: 900 });
          }
        }
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
      if (who === 'signed-in') await patch({ locale: null });
    }
    assert.deepEqual(failures, [], failures.join('\n'));
  }

  test('every page, signed in: no axe violations, no English on German pages (light and dark)', async () => {
    await everyPage('signed-in', pagesReady);
  });

  test('the dark-mode toggle is kept and set before the first paint', async () => {
    await page.goto(base + '/');
    await page.click('#theme-toggle');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.equal(await page.locator('#theme-toggle').innerText(), 'Light mode');
    await page.goto(base + '/app/tax');
    // theme.js runs before the body: the attribute is there at once.
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    const bg = await page.evaluate(() => globalThis.getComputedStyle(document.documentElement).backgroundColor);
    assert.notEqual(bg, 'rgb(247, 247, 244)', 'dark background');
    await page.click('#theme-toggle');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    await page.evaluate(() => localStorage.removeItem('fiplan-theme'));
  });

  test('the dark-mode toggle offers the other scheme when the system chose dark, in en and de', async () => {
    const name = () => page.getByRole('button', { name: /mode|Modus/ }).innerText();
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      for (const [lang, toLight, toDark] of [['en', 'Light mode', 'Dark mode'], ['de', 'Heller Modus', 'Dunkler Modus']]) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        await page.goto(base + '/');
        await page.evaluate(() => localStorage.removeItem('fiplan-theme'));
        await page.reload();
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), undefined, 'no stored choice');
        assert.equal(await page.evaluate(() => globalThis.getComputedStyle(document.documentElement).backgroundColor), 'rgb(20, 19, 17)', 'the system\'s dark');
        assert.equal(await name(), toLight, `${lang}: the system's dark offers light`);
        await page.click('#theme-toggle');
        assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
        assert.equal(await name(), toDark, `${lang}: after choosing light`);
        assert.equal(await page.evaluate(() => globalThis.getComputedStyle(document.documentElement).backgroundColor), 'rgb(247, 247, 244)', 'light background');
        await page.click('#theme-toggle');
        assert.equal(await name(), toLight, `${lang}: after choosing dark`);
        await page.evaluate(() => localStorage.removeItem('fiplan-theme'));
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    }
  });

  test('the result cards hold their answers on one line in en and de at 375 and 1280 px', async () => {
    try {
      for (const [lang, lasts] of [['en', 'past age 95'], ['de', 'über Alter 95']]) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        await page.goto(base + '/');
        await page.waitForSelector('#money-lasts');
        assert.equal(await page.textContent('#money-lasts'), lasts);
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          const wrapped = await page.evaluate(() => [...document.querySelectorAll('#stats dd')]
            .filter((d) => d.getBoundingClientRect().height > 1.5 * parseFloat(globalThis.getComputedStyle(d).lineHeight)).map((d) => d.textContent));
          assert.deepEqual(wrapped, [], `${lang} at ${width} px: answers wrapped`);
        }
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    } finally {
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    }
  });

  test('no select cuts off its choice on any page, en and de, 375 and 1280 px', async () => {
    const clipped = [];
    try {
      for (const lang of ['en', 'de']) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        for (const [p, ready] of pagesReady) {
          await page.goto(base + p);
          await page.waitForSelector(ready, { state: 'attached' });
          await page.waitForLoadState('networkidle');
          for (const width of [375, 1280]) {
            await page.setViewportSize({ width, height: 900 });
            // The chosen option's text, measured in the select's font, against
            // the room inside it less its arrow.
            const cut = await page.evaluate(() => {
              const g = document.createElement('canvas').getContext('2d');
              return [...document.querySelectorAll('select')].filter((s) => s.offsetParent && s.selectedOptions[0]).flatMap((s) => {
                const cs = globalThis.getComputedStyle(s);
                g.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
                const text = s.selectedOptions[0].textContent.trim();
                const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
                return g.measureText(text).width > room ? [`${s.id}: "${text}"`] : [];
              });
            });
            for (const c of cut) clipped.push(`${lang} ${width} ${p} ${c}`);
          }
          await page.setViewportSize({ width: 1280, height: 900 });
        }
      }
    } finally {
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    assert.deepEqual(clipped, [], clipped.join('\n'));
  });

  test('settings: every notification switch is named in words, en and de', async () => {
    try {
      for (const [lang, due] of [['en', 'Check-in due by email'], ['de', 'Check-in fällig per E-Mail']]) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        await page.goto(base + '/dashboard/settings');
        await page.waitForSelector('#notif-fields label');
        const names = await page.locator('#notif-fields label').allInnerTexts();
        const n = (await page.evaluate(() => fetch('/api/v1/user/notifications').then((r) => r.json()))).data;
        assert.equal(names.length, Object.values(n).reduce((a, ch) => a + Object.keys(ch).length, 0), 'one switch a channel');
        assert.ok(names.includes(due), `${lang}: ${JSON.stringify(names)}`);
        assert.deepEqual(names.filter((x) => Object.keys(n).some((k) => x.startsWith(k + ' '))), [], `${lang}: the API's names shown`);
      }
    } finally {
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    }
  });

  test('the year table names the one tax country without a preposition to get wrong, en and de', async () => {
    const hh = { accounts: [{ id: 'gb-isa', type: 'gb-isa', owner: 'self', balance: 200000 }], tax: { country: 'GB' }, currency: 'GBP' };
    try {
      for (const [lang, want] of [['en', 'Tax country in every year: United Kingdom.'], ['de', 'Steuerland in jedem Jahr: Vereinigtes Königreich.']]) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        await page.goto(base + '/?currentAge=50&annualIncome=60000&annualExpenses=30000&historical=&monteCarlo=&' + query(hh));
        await page.waitForSelector('#table-key:not([hidden])');
        await page.waitForFunction(() => /\.$/.test(document.querySelector('#table-key')?.textContent || ''));
        const key = await page.textContent('#table-key');
        assert.ok(key.endsWith(' ' + want), `${lang}: ${key}`);
      }
    } finally {
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    }
  });

  test('tax: the country first chosen is the locale\'s, en-GB and de-CH', async () => {
    const patch = (body) => page.evaluate((b) => fetch('/api/v1/user/settings', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.status), body);
    try {
      for (const [lang, loc, want] of [['en', 'en-GB', 'GB'], ['de', 'de-CH', 'CH'], ['de', 'de-DE', 'DE']]) {
        await browser.addCookies([{ name: 'fiplan_lang', value: lang, url: base }]);
        assert.equal(await patch({ locale: loc }), 200);
        await page.goto(base + '/app/tax');
        await page.waitForSelector('#country option[value=DE]', { state: 'attached' });
        assert.equal(await page.inputValue('#country'), want, loc);
      }
    } finally {
      await patch({ locale: null });
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
    }
  });

  test('print: no navigation or form, the inputs summarised, the table whole', async () => {
    await page.goto(base + '/?currentAge=41&annualIncome=82000&annualExpenses=39000&historical=');
    await page.waitForSelector('#table tbody tr');
    await page.evaluate(() => globalThis.dispatchEvent(new Event('beforeprint')));
    await page.emulateMedia({ media: 'print' });
    try {
      assert.equal(await page.isVisible('header.top'), false, 'navigation printed');
      assert.equal(await page.isVisible('#calc'), false, 'form printed');
      assert.equal(await page.isVisible('#calc-summary'), true, 'inputs summarised');
      assert.match(await page.textContent('#calc-summary'), /Age\s*41/);
      assert.equal(await page.isVisible('#chart svg'), true, 'chart printed');
      const clipped = await page.evaluate(() => { const w = document.querySelector('.table-wrap'); return w.scrollHeight > w.clientHeight + 1; });
      assert.equal(clipped, false, 'table cut at its box');
      await page.pdf({ path: join(pageShots, 'calculator-print.pdf') }).catch(() => {});
      await page.screenshot({ path: join(pageShots, 'calculator-print.png'), fullPage: true });
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });

  // A new user whose browser asks for German: the page stays German after
  // signing in (no locale was chosen, so none outranks Accept-Language), and
  // a German plan is in euros though no currency was chosen either.
  test('a German browser stays German after signing in; a German plan is in euros', async () => {
    const p2 = await browser.newPage();
    try {
      await browser.clearCookies({ name: 'fiplan_lang' });
      await p2.setExtraHTTPHeaders({ 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' });
      await p2.goto(base + '/auth/login?next=%2F%3FcurrentAge%3D45%26annualIncome%3D95000%26annualExpenses%3D42000%26monteCarlo%3D%26historical%3D');
      assert.equal(await p2.getAttribute('html', 'lang'), 'de');
      await p2.fill('#name', 'e2e-neu');
      await p2.click('#login-form button[type=submit]');
      await p2.waitForURL(/\/\?currentAge=45/);
      await p2.waitForFunction(() => document.querySelector('#user')?.textContent.startsWith('e2e-neu'));
      await p2.waitForSelector('#tax-country option[value=DE]', { state: 'attached' });
      await p2.waitForLoadState('networkidle');
      assert.equal(await p2.getAttribute('html', 'lang'), 'de', 'still German once signed in');
      const doc = (path) => p2.evaluate((u) => fetch(u).then((r) => r.json()), path);
      const st = (await doc('/api/v1/user/settings')).data;
      assert.equal(st.locale, null, 'no locale stored unchosen');
      assert.equal(st.baseCurrency, null, 'no currency stored unchosen');
      assert.equal((await doc('/api/v1/user/profile')).data.currency, null);
      assert.equal(await p2.textContent('label[for=annualIncome]'), 'Nettoeinkommen im Jahr', 'without a tax country the income is take-home');
      await p2.click('#household > summary');
      // The page may compute as soon as the country changes; the answer is
      // awaited from before the change, and the button asks again otherwise.
      const answered = p2.waitForResponse((r) => r.url().endsWith('/api/v1/calculator') && r.request().method() === 'POST' && r.request().postDataJSON().tax?.country === 'DE');
      await p2.selectOption('#tax-country', 'DE');
      assert.equal(await p2.textContent('label[for=annualIncome]'), 'Bruttoeinkommen im Jahr');
      assert.match(await p2.textContent('#tax-hint'), /EUR/);
      await p2.click('#calc button[type=submit]');
      const resp = await answered;
      assert.equal(resp.request().postDataJSON().currency, 'EUR', 'the plan is in the tax country\'s currency');
      const d = (await resp.json()).data;
      assert.equal(d.currency, 'EUR');
      const eur = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
      // The card shows the FI number the FI age is tested against: after tax where the answer has one.
      await p2.waitForFunction((n) => document.querySelector('#fi-number')?.textContent === n, eur.format(d.afterTaxFINumber || d.fiNumber));
      assert.match(await p2.textContent('#currency-note'), /Euro \(EUR\)/);
    } finally {
      await p2.close();
      await browser.addCookies([{ name: 'fiplan_lang', value: 'en', url: base }]);
      // Back to the suite's user.
      await page.goto(base + '/auth/login?next=%2Fdashboard%2Fsettings');
      await page.fill('#name', 'e2e-user');
      await page.selectOption('#tier', 'pro');
      await page.click('#login-form button[type=submit]');
      await page.waitForURL(base + '/dashboard/settings');
    }
  });

  test('sign out', async () => {
    await page.goto(base + '/dashboard/settings');
    await page.waitForSelector('#signout:not([hidden])');
    await Promise.all([page.waitForURL(base + '/'), page.click('#signout button')]).catch((e) => { throw new Error(`${e.message}; at ${page.url()}`); });
    await page.waitForSelector('#signin:not([hidden])');
    const s = await page.evaluate(() => fetch('/auth/session').then((r) => r.json()));
    assert.equal(s.signedIn, false);
    assert.equal(s.refreshable, false);
    await shot('signed-out');
  });

  test('every page, signed out: no axe violations, no English on German pages (light and dark)', async () => {
    await everyPage('signed-out', [['/', '#fi-number'], ['/auth/login', '#login-form'], ['/nowhere', 'h1']]);
  });

  test('a 429 says when to retry', async () => {
    // Signed out: the calculator counts against the anonymous allowance of
    // this address (FI_RATE_PUBLIC, 60 a minute); spend it from here.
    for (let i = 0; i < 70; i++) await fetch(base + '/api/v1/status');
    await page.goto(base + '/?currentAge=30&annualIncome=60000&annualExpenses=30000');
    await page.waitForSelector('#calc-status.error');
    assert.match(await page.textContent('#calc-status'), /Too many requests\. Retry in \d+ seconds?/);
    await shot('rate-limited');
  });

  // The goal for / is a first contentful paint under 300 ms. It is
  // measured here, last, when the server has long finished its start-up
  // work, and printed (a median of loads in fresh contexts, the
  // browser's start-up and its first load apart: fcp.mjs), not asserted:
  // on this shared two-core machine one load takes 100 to 600 ms with the
  // same code, and a timed test would fail on the machine's load rather
  // than on the page. The bound asserted, 1,500 ms for the median, only
  // catches a gross regression: the first view built by a script, or a
  // render-blocking request that waits on slow work.
  test('first contentful paint of /: measured and printed', async () => {
    const m = await measureFCP({ base, ready: serverWarm(join(work, 'fiplan.log')) });
    ctx.fcp = m;
    console.log(`    ${describeFCP(m)}`);
    assert.ok(m.median > 0 && m.median < 1500, `first contentful paint of /: median ${m.median} ms`);
  });

  // ONLY=text runs the tests whose name holds it (a|b: either), and the sign-in they need, while working on them.
  const only = process.env.ONLY?.split('|');
  for (const t of tests.filter((x) => !only || only.some((o) => x.name.includes(o)) || x.name === 'sign in locally')) {
    const t0 = Date.now();
    try {
      problems.length = 0;
      refused.length = 0;
      await t.fn();
      const csp = problems.filter((p) => /Content Security Policy|Refused to/.test(p));
      assert.deepEqual(csp, [], 'no CSP violations');
      console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}\n     ${String(e.stack || e).split('\n').slice(0, 6).join('\n     ')}`);
      if (refused.length) console.log(`     the API refused: ${refused.slice(-8).join('; ')}`);
      await page.screenshot({ path: join(shots, `FAILED-${tests.indexOf(t)}.png`), fullPage: true }).catch(() => {});
    }
  }
  if (ctx.fcp) console.log(describeFCP(ctx.fcp));
} finally {
  await browser?.close().catch(() => {});
  server.kill('SIGTERM');
  console.log(`screenshots: ${shots}, ${pageShots}`);
  console.log(`server log: ${join(work, 'fiplan.log')}`);
}
if (failed) {
  console.log(`${failed} browser test(s) failed`);
  process.exit(1);
}
console.log('all browser tests passed');
