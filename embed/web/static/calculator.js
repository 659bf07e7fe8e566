// The public FI calculator. The page's one state is the calculator's
// request body: the form renders from it (render) and writes into it
// (write); the URL's query string, a saved plan and the comparison are that
// body, so a plan can be shared and survives a reload as it was sent.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, pct, download, numberOf, loadFormat, loadSession, setFormat, t, tn, currency, currencyName } from './common.js';
import { lineChart } from './chart.js';
import { suggestCities, householdBody, householdKeys, rest, planCurrency, overLimit, fillHousehold, loadCountries, showHousehold, showNotes, householdCSV, yearTableKey, endAge, lastsText, rateText, yearsText, stat } from './household.js';
import { initPlans, compare, plan } from './plans.js';
import { showDecide, hideDecide } from './decide.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('calc'));
const st = document.getElementById('calc-status');
const list = document.getElementById('scenarios');
const fields = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[data-path]')].filter((i) => !i.closest('#scenarios, #household, #saved')));
let last = null; // the last response, for the CSV
let sent = {}; // the body last sent
/** The page's state: the request body, with the keys the form has no field for kept. */
let state = {};

/** The input of scenario row r whose id ends in -suffix. */
const inputOf = (r, suffix) => /** @type {HTMLInputElement} */ (r.querySelector(`[id$="-${suffix}"]`));

/** A scenario row's overrides beyond spending and income, kept as they are. */
const scExtra = new WeakMap();

/** Adds a scenario row, filled from a scenario of the request body. */
function addScenario(sc = {}) {
  const i = list.children.length;
  if (i >= 5) return;
  const id = (k) => `sc${i}-${k}`;
  const row = el('div', { class: 'scenario grid3' },
    el('div', { class: 'field' }, el('label', { for: id('name') }, t('calc.scName')),
      el('input', { id: id('name'), 'data-path': `scenarios[${i}].name`, value: sc.name || t('calc.scDefault', { i: i + 1 }), maxlength: 60 })),
    el('div', { class: 'field' }, el('label', { for: id('exp') }, t('field.spending')),
      el('input', { id: id('exp'), 'data-path': `scenarios[${i}].annualExpenses`, type: 'number', step: 'any', inputmode: 'decimal', value: sc.annualExpenses ?? '', placeholder: t('calc.unchanged') })),
    el('div', { class: 'field' }, el('label', { for: id('inc') }, t('calc.scIncome')),
      el('input', { id: id('inc'), 'data-path': `scenarios[${i}].annualIncome`, type: 'number', step: 'any', inputmode: 'decimal', value: sc.annualIncome ?? '', placeholder: t('calc.unchanged') })),
    el('button', { type: 'button', class: 'secondary small', 'aria-label': t('calc.removeN', { i: i + 1 }), onclick: () => { row.remove(); renumber(); } }, t('calc.remove')));
  scExtra.set(row, rest(sc, ['name', 'annualExpenses', 'annualIncome']));
  list.append(row);
}

/** The scenarios of the rows. */
const scenariosOf = () => [...list.children].map((r) => {
  const s = { ...scExtra.get(r), name: inputOf(r, 'name').value };
  const e = numberOf(inputOf(r, 'exp'));
  const i = numberOf(inputOf(r, 'inc'));
  if (e !== undefined) s.annualExpenses = e;
  if (i !== undefined) s.annualIncome = i;
  return s;
});

function renumber() {
  const rows = scenariosOf();
  list.replaceChildren();
  rows.forEach((r) => addScenario(r));
}

document.getElementById('add-scenario').addEventListener('click', () => {
  addScenario({ name: t('calc.spendLess'), annualExpenses: Math.round((numberOf(form.annualExpenses) || 40000) * 0.85) });
  list.lastElementChild?.querySelector('input')?.focus();
});

// Retiring in a city of Places: its budget for the household becomes the
// retirement spending, so that field is set aside while a city is chosen.
const cityInput = /** @type {HTMLInputElement} */ (form.cityId);
function cityChanged() {
  const on = cityInput.value.trim() !== '';
  /** @type {HTMLInputElement} */ (form.retirementExpenses).disabled = on;
  document.getElementById('city-spend-hint').hidden = !on;
}
cityInput.addEventListener('input', cityChanged);
suggestCities(cityInput);

/** The request body's keys the form writes; the others are the state's, kept. */
const owned = [...fields.map((f) => f.name), 'scenarios', 'monteCarlo', 'historical', 'householdSize', ...householdKeys];

/** Writes the form into the state and returns it: the request body. */
function write() {
  const body = rest(state, owned);
  for (const f of fields) {
    if (f.disabled) continue;
    let v = numberOf(f);
    if (v === undefined) continue;
    if (f.hasAttribute('data-pct') && typeof v === 'number') v = Math.round(v * 1e6) / 1e8;
    body[f.name] = v;
  }
  const sc = scenariosOf();
  if (sc.length) body.scenarios = sc;
  if (form.monteCarlo.checked) body.monteCarlo = state.monteCarlo || { simulations: 1000 };
  if (form.historical.checked) body.historical = { ...rest(state.historical, ['dataset']), ...(wantDataset ? { dataset: wantDataset } : {}) };
  Object.assign(body, householdBody(state));
  if (!body.currency && planCurrency()) body.currency = planCurrency();
  // A city's budget is for the household: two with a partner.
  if (body.cityId && body.partner) body.householdSize = 2;
  // Accounts replace the amount invested today (the API takes one or the other).
  if (body.accounts) delete body.currentSavings;
  state = body;
  return body;
}

/**
 * Renders the form from s, a request body (a link's, a saved plan's), and
 * makes it the state.
 */
function render(s) {
  state = s;
  for (const f of fields) {
    const v = s[f.name];
    f.value = v === undefined || v === null ? '' : String(f.hasAttribute('data-pct') && typeof v === 'number' ? Math.round(v * 1e8) / 1e6 : v);
  }
  form.monteCarlo.checked = !!s.monteCarlo;
  form.historical.checked = !!s.historical;
  pickDataset(s.historical?.dataset);
  list.replaceChildren();
  for (const sc of s.scenarios || []) addScenario(sc);
  if (s.currency) setFormat(undefined, s.currency);
  fillHousehold(s);
  cityChanged();
}

/**
 * The state in the query string: each key of the body with its value as
 * JSON (a string as it is), an empty value for a key of the page's defaults
 * the body leaves out; and the open saved plan's id.
 */
function toURL() {
  const q = new URLSearchParams();
  for (const k of Object.keys(defaults)) if (!(k in state)) q.set(k, '');
  for (const [k, v] of Object.entries(state)) q.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  if (plan) q.set('plan', plan.id);
  history.replaceState(null, '', '?' + q.toString());
}

/** The state of the query string: the page's defaults with the keys it holds set or (empty) removed. */
function fromURL() {
  const q = new URLSearchParams(location.search);
  if (isOldURL(q)) return fromOldURL(q);
  const s = { ...defaults };
  for (const [k, v] of q) {
    if (k === 'plan') continue;
    if (v === '') delete s[k];
    else try { s[k] = JSON.parse(v); } catch { s[k] = v; }
  }
  return s;
}

/**
 * Whether q is a link written before the page kept one state: every link
 * the page writes since holds monteCarlo (set or empty); an older one holds
 * a key of its own (mc, hist, hds, sc, hh) or a rate in percent, above the
 * 100% no rate of the body reaches.
 */
const isOldURL = (q) => !q.has('monteCarlo') &&
  (['mc', 'hist', 'hds', 'sc', 'hh'].some((k) => q.has(k)) || fields.some((f) => f.hasAttribute('data-pct') && Number(q.get(f.name)) > 1));

/**
 * The state of a link written before the page kept one state: the form's
 * values as shown (percentages in percent), mc=0 and hist=0 for the boxes
 * left empty, hds the dataset, sc name~spending~income for each scenario and
 * hh the household's keys as JSON; read once, so links people kept still open.
 */
function fromOldURL(q) {
  const s = { ...defaults };
  for (const f of fields) {
    const raw = (q.get(f.name) || '').trim();
    if (raw === '') continue;
    const n = Number(raw);
    s[f.name] = !Number.isFinite(n) ? raw : f.hasAttribute('data-pct') ? Math.round(n * 1e6) / 1e8 : n;
  }
  if (q.get('mc') === '0') delete s.monteCarlo;
  if (q.get('hist') === '0') delete s.historical;
  else if (q.get('hds')) s.historical = { ...s.historical, dataset: q.get('hds') };
  const sc = q.getAll('sc').map((x) => {
    const [name, e, i] = x.split('~');
    return { name, ...(e ? { annualExpenses: Number(e) } : {}), ...(i ? { annualIncome: Number(i) } : {}) };
  });
  if (sc.length) s.scenarios = sc;
  try { Object.assign(s, JSON.parse(q.get('hh') || '{}')); } catch { /* a damaged link: no household */ }
  return s;
}

async function calculate() {
  cityChanged();
  clearFieldErrors(form);
  status(st, 'loading', t('js.calculating'));
  /** @type {HTMLButtonElement} */ (form.querySelector('[type=submit]')).disabled = true;
  try {
    sent = write();
    toURL();
    const d = await api('POST', '/calculator', sent);
    last = d;
    status(st, '', '');
    if (d.currency) setFormat(undefined, d.currency);
    show(d);
  } catch (err) {
    last = null;
    document.getElementById('results').hidden = true;
    const details = (err.details || []).map((x) => (x.path === 'tax.filing' ? { ...x, message: t('hh.filingRefused') } : x));
    const rest = details.length ? fieldErrors(form, details) : [];
    let msg = describe(err);
    if (rest.length) msg += ': ' + rest.map((x) => `${x.path} ${x.message}`).join('; ');
    status(st, 'error', err.details?.length && !rest.length ? t('js.checkFields') : msg);
    if (err.details?.length && !rest.length) {
      // Open the assumptions when the error is inside them.
      const bad = /** @type {HTMLElement|null} */ (form.querySelector('[aria-invalid="true"]'));
      if (bad && bad.closest('details')) { bad.closest('details').open = true; bad.focus(); }
    }
  } finally {
    /** @type {HTMLButtonElement} */ (form.querySelector('[type=submit]')).disabled = false;
  }
}

/** Withdrawal rates above this have often run out within 30 years in history. */
const highWithdrawal = 0.05;

/**
 * The warnings of a plan: money that runs out before the plan ends, and a
 * withdrawal rate high enough to make that likely.
 */
function warnings(d, body) {
  const out = [];
  const end = body.lifeExpectancy ?? 95;
  const over = overLimit(d);
  if (over) out.push(t('hh.overLimitWarn', { amount: money(over.amount), year: over.year, age: over.age }));
  if (d.depletionAge !== null && d.depletionAge !== undefined) {
    const early = end - d.depletionAge;
    out.push(t('calc.runsOut', { age: d.depletionAge, early: early > 0 ? tn('calc.runsOutEarly', early, { end }) : '' }));
  } else if (d.runsOut) {
    out.push(t('calc.shortfall'));
  }
  const wr = typeof body.withdrawalRate === 'number' ? body.withdrawalRate : 0.04;
  if (wr > highWithdrawal) {
    out.push(t('calc.highWR', { rate: pct(wr), limit: pct(highWithdrawal, 0), low: pct(0.03, 0), high: pct(0.04, 0) }));
  }
  return out;
}

/**
 * The FI number the plan's FI age tests: with tax, the after-tax one (the
 * portfolio whose withdrawals pay the spending and their tax).
 */
const fiTarget = (d) => d.afterTaxFINumber || d.fiNumber;

/** How the chart shows amounts: "real" (today's money) or "nominal" (money of each year). */
function chartMoney() {
  const r = /** @type {HTMLInputElement|null} */ (document.querySelector('input[name=chart-money]:checked'));
  return r && r.value === 'nominal' ? 'nominal' : 'real';
}

function show(d) {
  const res = document.getElementById('results');
  res.hidden = false;
  shownWidth = document.getElementById('chart').clientWidth;
  const body = sent;
  document.getElementById('currency-note').textContent = t('calc.amountsIn', { cur: currencyName(d.currency || currency()) });
  const years = yearsText(d.yearsToFI);
  const lasts = lastsText(d.depletionAge, endAge(body));
  document.getElementById('stats').replaceChildren(
    stat(d.afterTaxFINumber ? t('calc.fiNumberTax') : t('calc.fiNumber'), money(fiTarget(d)), 'fi-number'),
    stat(t('calc.yearsToFI'), years, 'years-to-fi'),
    stat(t('calc.ageAtFI'), d.fiAge === null ? '—' : String(d.fiAge), 'fi-age'),
    stat(t('calc.lastsTo'), lasts, 'money-lasts'),
    ...(d.city ? [stat(t('calc.citySpending', { city: d.city.name }), money(d.city.retirementExpenses), 'city-spending')] : []),
    stat(t('calc.savingsRate'), pct(d.savingsRate), 'savings-rate'));
  if (d.depletionAge !== null && d.depletionAge !== undefined) document.getElementById('money-lasts').parentElement.classList.add('bad');
  const warn = warnings(d, body);
  const wbox = document.getElementById('warnings');
  wbox.hidden = !warn.length;
  wbox.replaceChildren(...warn.map((w) => el('p', {}, w)));

  drawChart(d);

  const risk = [];
  if (d.monteCarlo) {
    const m = d.monteCarlo;
    risk.push(stat(t('calc.mcSuccess'), rateText(m.successRate), 'mc-success'));
    if (m.fiAge) risk.push(stat(t('calc.mcAge'), `${m.fiAge.p10 ?? '—'} / ${m.fiAge.p50 ?? '—'} / ${m.fiAge.p90 ?? '—'}`, 'mc-fi-age'));
  }
  if (d.historical) {
    const h = d.historical;
    risk.push(stat(t('calc.histSuccess', { periods: h.periods, years: h.windowYears }), rateText(h.successRate), 'hist-success'));
    if (h.conversion?.to) risk.push(stat(t('calc.histFx', h), h.conversion.from + '-' + h.conversion.to, 'hist-fx'));
    if (h.dataset?.startsWith('user:')) risk.push(stat(t('calc.histData'), hds.selectedOptions[0]?.textContent || h.dataset, 'hist-data'));
  }
  document.getElementById('risk').replaceChildren(...risk);
  // How the US record was restated in the plan's money, and from which year:
  // the API's own note, in English.
  const hnote = document.getElementById('hist-note');
  hnote.textContent = d.historical?.conversion?.note || '';
  hnote.hidden = !hnote.textContent;

  showNotes(d);
  compare(d, body);
  const cols = showHousehold(d, body);
  if (cols) showDecide(d, body, applyDecisions);
  else hideDecide();
  const key = document.getElementById('table-key');
  key.hidden = !cols;
  if (cols) {
    key.textContent = yearTableKey(d, currencyName(d.currency || currency()));
    // A household plan: ages, residence, each account's end balance, withdrawals and tax.
    document.getElementById('table').replaceChildren(
      el('caption', { class: 'sr' }, t('hh.tableCaption')),
      el('thead', {}, el('tr', {}, cols.map(([h, , node, cls]) => el('th', { scope: 'col', class: cls }, node || h)))),
      el('tbody', {}, d.projections.map((r) => el('tr', { class: r.retired ? 'retired' : '' },
        ...cols.map(([h, f, , cls]) => el('td', { 'data-label': h, class: cls }, f(r)))))));
    return;
  }
  const head = ['year', 'age', 'start', 'contributions', 'growth', 'withdrawals', 'end', 'endReal', 'progress'].map((c) => t('calc.col.' + c));
  // On a narrow screen each row is a card of label and value pairs: shorter labels.
  const cardLabel = head.map((h, i) => (i === 7 ? t('calc.col.endRealShort') : h));
  const p = d.projections;
  document.getElementById('table').replaceChildren(
    el('caption', { class: 'sr' }, t('calc.tableCaption')),
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, p.map((r) => el('tr', { class: r.retired ? 'retired' : '' },
      ...[r.year, r.age, money(r.startBalance), money(r.contributions), money(r.growth), money(r.withdrawals),
        money(r.endBalance), money(r.realEndBalance), pct(r.fiProgress, 0)].map((v, i) => el('td', { 'data-label': cardLabel[i] }, v))))));
}

/**
 * Writes the optimiser's decisions into the form, those it holds (the
 * retirement age, each pension's claiming age, the drawing order from the
 * first age on), and calculates the plan with them.
 */
function applyDecisions(x) {
  const s = structuredClone(write());
  if (x.retirementAge !== undefined && x.retirementAge !== null) s.targetRetirementAge = x.retirementAge;
  for (const c of x.claiming || []) if (s.pensions?.[c.pension]) s.pensions[c.pension].fromAge = c.age;
  if (x.order?.length) s.withdrawalOrder = x.order[0].order;
  render(s);
  calculate();
}

/**
 * Draws the balance chart in today's money (the default: the Monte Carlo
 * band is in today's money too) or in money of each year, where the band
 * and the FI number are grown by the plan's inflation.
 */
function drawChart(d) {
  const p = d.projections;
  const xs = p.map((r) => r.age);
  const real = chartMoney() === 'real';
  // Each row's price level against today: endBalance / realEndBalance, or
  // the plan's inflation compounded where a balance is 0.
  const infl = typeof sent.inflationRate === 'number' ? sent.inflationRate : 0.03;
  const level = p.map((r, k) => (r.realEndBalance > 0 ? r.endBalance / r.realEndBalance : Math.pow(1 + infl, k + 1)));
  const levelAt = new Map(p.map((r, k) => [r.age, level[k]]));
  const unit = real ? t('calc.unitReal') : t('calc.unitNominal');
  const series = [
    real
      ? { name: 'real', label: t('calc.balance', { unit }), cls: 's1', xs, ys: p.map((r) => r.realEndBalance) }
      : { name: 'nominal', label: t('calc.balance', { unit }), cls: 's0', xs, ys: p.map((r) => r.endBalance) },
  ];
  (d.scenarios || []).forEach((s, i) => series.push({
    name: 'scenario-' + i, label: `${s.name} (${unit})`, cls: 's' + (2 + (i % 4)), dashed: true,
    xs: s.projections.map((r) => r.age), ys: s.projections.map((r) => (real ? r.realEndBalance : r.endBalance)),
  }));
  const bands = [];
  if (d.monteCarlo && d.monteCarlo.balances) {
    const b = d.monteCarlo.balances;
    const f = (r) => (real ? 1 : levelAt.get(r.age) ?? 1);
    bands.push({ name: 'mc', label: t('calc.mcBand', { unit }), cls: 'mc', xs: b.map((r) => r.age), lo: b.map((r) => r.p10 * f(r)), hi: b.map((r) => r.p90 * f(r)) });
    series.push({ name: 'mc-p50', label: t('calc.mcMedian', { unit }), cls: 'mc', dashed: true, xs: b.map((r) => r.age), ys: b.map((r) => r.p50 * f(r)) });
  }
  const hlines = [];
  const fi = fiTarget(d);
  if (real) hlines.push({ name: 'fi-number', label: t('calc.fiLine', { unit }), cls: 'fi', y: fi });
  else series.push({ name: 'fi-number', label: t('calc.fiLine', { unit }), cls: 'fi', dashed: true, xs, ys: level.map((l) => fi * l) });
  const box = document.getElementById('chart');
  box.replaceChildren(lineChart({
    title: t('calc.chartTitle', { unit }),
    desc: t('calc.chartDesc', { from: xs[0], to: xs[xs.length - 1], fi: money(fiTarget(d)) }),
    xLabel: t('calc.col.age'), series, bands, hlines, width: box.clientWidth - 18,
  }));
}

for (const r of document.querySelectorAll('input[name=chart-money]')) r.addEventListener('change', () => { if (last) drawChart(last); });

document.getElementById('csv').addEventListener('click', () => {
  if (!last) return;
  const hh = householdCSV(last);
  const cols = ['year', 'age', 'startBalance', 'contributions', 'growth', 'withdrawals', 'endBalance', 'realEndBalance', 'fiProgress'];
  const lines = hh || [cols.join(',')].concat(last.projections.map((r) => cols.map((c) => r[c]).join(',')));
  download('fiplan-projection.csv', 'text/csv', lines.join('\n') + '\n');
});

document.getElementById('share').addEventListener('click', async () => {
  write();
  toURL();
  try {
    await navigator.clipboard.writeText(location.href);
    status(st, '', t('calc.copied'));
  } catch {
    status(st, '', t('calc.copyBar'));
  }
});

form.addEventListener('submit', (e) => { e.preventDefault(); calculate(); });
let resizeTimer = 0;
let shownWidth = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    const w = document.getElementById('chart').clientWidth;
    if (last && Math.abs(w - shownWidth) > 40) show(last);
  }, 200);
});
for (const f of fields) f.addEventListener('input', () => { f.removeAttribute('aria-invalid'); document.getElementById(f.id + '-error')?.remove(); });

/** The backtest's data: the US record, or one of a signed-in user's stored series. */
const hds = /** @type {HTMLSelectElement} */ (document.getElementById('histDataset'));
/** The chosen series, kept while the list of series is not loaded (or lacks it). */
let wantDataset = '';
hds.addEventListener('change', () => { wantDataset = hds.value; });
function pickDataset(v) {
  wantDataset = v || '';
  hds.value = wantDataset;
  if (hds.value !== wantDataset) hds.value = '';
}
async function loadSeries() {
  const list = await api('GET', '/user/series').then((x) => x.series).catch(() => []);
  hds.append(...list.map((x) => el('option', { value: x.dataset }, `${x.name} (${x.currency}, ${x.first}–${x.last})`)));
  document.getElementById('hist-dataset-field').hidden = !list.length;
  pickDataset(wantDataset);
}

/** The page's defaults: the state of the form as the page came. */
const defaults = write();
const queryHeldPlan = [...new URLSearchParams(location.search).keys()].some((k) => k !== 'plan');
render(fromURL());
// A plan opened from Places shows the city it retires in.
if (cityInput.value.trim()) /** @type {HTMLDetailsElement} */ (cityInput.closest('details')).open = true;
loadFormat().then(async () => {
  const s = await loadSession();
  await loadCountries(!!s?.signedIn);
  // The household's rows again, with the tax countries' account types.
  render(write());
  if (!s?.signedIn) return;
  await loadSeries();
  await initPlans({ request: write, fill: render, calculate, toURL, form }, new URLSearchParams(location.search).get('plan'), !queryHeldPlan);
  await cityForLatestPlan();
}).finally(calculate);

/**
 * A link from Places holds only a city: a signed-in user's own plan (the
 * one saved last) retires there, not the form's example plan.
 */
async function cityForLatestPlan() {
  const q = new URLSearchParams(location.search);
  if (!q.get('cityId') || [...q.keys()].some((k) => k !== 'cityId')) return;
  const saved = await api('GET', '/plans?limit=100').catch(() => []);
  const p = saved.reduce((a, b) => (!a || b.updatedAt > a.updatedAt ? b : a), null);
  if (!p) return;
  const input = { ...p.input, cityId: q.get('cityId') };
  delete input.retirementExpenses; // the city's budget replaces it
  render(input);
  status(document.getElementById('plan-status'), '', t('calc.cityForPlan', { name: p.name }));
}
