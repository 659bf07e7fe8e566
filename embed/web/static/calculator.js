// The public FI calculator. The form's values live in the URL's query
// string, so a plan can be shared and survives a reload.
import { api, describe, status, fieldErrors, clearFieldErrors, el, money, pct, download, numberOf } from './common.js';
import { lineChart } from './chart.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('calc'));
const st = document.getElementById('calc-status');
const list = document.getElementById('scenarios');
const fields = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[data-path]')].filter((i) => !i.closest('#scenarios')));
let last = null; // the last response, for the CSV

/** The input of scenario row r whose id ends in -suffix. */
const inputOf = (r, suffix) => /** @type {HTMLInputElement} */ (r.querySelector(`[id$="-${suffix}"]`));

function addScenario(sc = {}) {
  const i = list.children.length;
  if (i >= 5) return;
  const id = (k) => `sc${i}-${k}`;
  const row = el('div', { class: 'scenario grid3' },
    el('div', { class: 'field' }, el('label', { for: id('name') }, 'Scenario name'),
      el('input', { id: id('name'), 'data-path': `scenarios[${i}].name`, value: sc.name || `Scenario ${i + 1}`, maxlength: 60 })),
    el('div', { class: 'field' }, el('label', { for: id('exp') }, 'Spending a year'),
      el('input', { id: id('exp'), 'data-path': `scenarios[${i}].annualExpenses`, type: 'number', step: 'any', inputmode: 'decimal', value: sc.e ?? '', placeholder: 'unchanged' })),
    el('div', { class: 'field' }, el('label', { for: id('inc') }, 'Income a year'),
      el('input', { id: id('inc'), 'data-path': `scenarios[${i}].annualIncome`, type: 'number', step: 'any', inputmode: 'decimal', value: sc.i ?? '', placeholder: 'unchanged' })),
    el('button', { type: 'button', class: 'secondary small', 'aria-label': `Remove scenario ${i + 1}`, onclick: () => { row.remove(); renumber(); } }, 'Remove'));
  list.append(row);
}

function renumber() {
  const rows = [...list.children].map((r) => ({ name: inputOf(r, 'name').value, e: inputOf(r, 'exp').value, i: inputOf(r, 'inc').value }));
  list.replaceChildren();
  rows.forEach((r) => addScenario(r));
}

document.getElementById('add-scenario').addEventListener('click', () => {
  addScenario({ name: 'Spend less', e: Math.round((numberOf(form.annualExpenses) || 40000) * 0.85) });
  list.lastElementChild?.querySelector('input')?.focus();
});

/** The request body from the form. */
function request() {
  const body = {};
  for (const f of fields) {
    let v = numberOf(f);
    if (v === undefined) continue;
    if (f.hasAttribute('data-pct') && typeof v === 'number') v = Math.round(v * 1e6) / 1e8;
    body[f.name] = v;
  }
  const sc = [...list.children].map((r) => {
    const s = { name: inputOf(r, 'name').value };
    const e = numberOf(inputOf(r, 'exp'));
    const i = numberOf(inputOf(r, 'inc'));
    if (e !== undefined) s.annualExpenses = e;
    if (i !== undefined) s.annualIncome = i;
    return s;
  });
  if (sc.length) body.scenarios = sc;
  if (form.monteCarlo.checked) body.monteCarlo = { simulations: 1000 };
  if (form.historical.checked) body.historical = {};
  return body;
}

/** Writes the form into the query string. */
function toURL() {
  const q = new URLSearchParams();
  for (const f of fields) if (f.value.trim() !== '') q.set(f.name, f.value.trim());
  if (!form.monteCarlo.checked) q.set('mc', '0');
  if (!form.historical.checked) q.set('hist', '0');
  for (const r of list.children) {
    q.append('sc', [inputOf(r, 'name').value, inputOf(r, 'exp').value, inputOf(r, 'inc').value].join('~'));
  }
  history.replaceState(null, '', '?' + q.toString());
}

/** Fills the form from the query string; true when it held a plan. */
function fromURL() {
  const q = new URLSearchParams(location.search);
  let any = false;
  for (const f of fields) if (q.has(f.name)) { f.value = q.get(f.name); any = true; }
  if (q.get('mc') === '0') form.monteCarlo.checked = false;
  if (q.get('hist') === '0') form.historical.checked = false;
  for (const s of q.getAll('sc')) {
    const [name, e, i] = s.split('~');
    addScenario({ name, e, i });
    any = true;
  }
  return any;
}

async function calculate() {
  clearFieldErrors(form);
  toURL();
  status(st, 'loading', 'Calculating…');
  /** @type {HTMLButtonElement} */ (form.querySelector('[type=submit]')).disabled = true;
  try {
    const d = await api('POST', '/calculator', request());
    last = d;
    status(st, '', '');
    show(d);
  } catch (err) {
    const rest = err.details?.length ? fieldErrors(form, err.details) : [];
    let msg = describe(err);
    if (rest.length) msg += ': ' + rest.map((x) => `${x.path} ${x.message}`).join('; ');
    status(st, 'error', err.details?.length && !rest.length ? 'Check the highlighted fields.' : msg);
    if (err.details?.length && !rest.length) {
      // Open the assumptions when the error is inside them.
      const bad = /** @type {HTMLElement|null} */ (form.querySelector('[aria-invalid="true"]'));
      if (bad && bad.closest('details')) { bad.closest('details').open = true; bad.focus(); }
    }
  } finally {
    /** @type {HTMLButtonElement} */ (form.querySelector('[type=submit]')).disabled = false;
  }
}

function stat(label, value, id) {
  return [el('div', {}, el('dt', {}, label), el('dd', { id }, value))];
}

function show(d) {
  const res = document.getElementById('results');
  res.hidden = false;
  shownWidth = document.getElementById('chart').clientWidth;
  const years = d.yearsToFI === null ? 'not reached' : `${d.yearsToFI} year${d.yearsToFI === 1 ? '' : 's'}`;
  document.getElementById('stats').replaceChildren(
    ...stat('FI number', money(d.fiNumber), 'fi-number'),
    ...stat('Years to FI', years, 'years-to-fi'),
    ...stat('Age at FI', d.fiAge === null ? '—' : String(d.fiAge), 'fi-age'),
    ...stat('Savings rate', pct(d.savingsRate), 'savings-rate'));

  const p = d.projections;
  const xs = p.map((r) => r.age);
  const series = [
    { name: 'nominal', label: 'Balance (money of each year)', cls: 's0', xs, ys: p.map((r) => r.endBalance) },
    { name: 'real', label: "Balance (today's money)", cls: 's1', xs, ys: p.map((r) => r.realEndBalance) },
  ];
  (d.scenarios || []).forEach((s, i) => series.push({
    name: 'scenario-' + i, label: `${s.name} (today's money)`, cls: 's' + (2 + (i % 4)), dashed: true,
    xs: s.projections.map((r) => r.age), ys: s.projections.map((r) => r.realEndBalance),
  }));
  const bands = [];
  if (d.monteCarlo && d.monteCarlo.balances) {
    const b = d.monteCarlo.balances;
    bands.push({ name: 'mc', label: 'Monte Carlo p10–p90 (money of each year)', cls: 'mc', xs: b.map((r) => r.age), lo: b.map((r) => r.p10), hi: b.map((r) => r.p90) });
    series.push({ name: 'mc-p50', label: 'Monte Carlo median', cls: 'mc', dashed: true, xs: b.map((r) => r.age), ys: b.map((r) => r.p50) });
  }
  document.getElementById('chart').replaceChildren(lineChart({
    title: 'Portfolio balance by age',
    desc: `From age ${xs[0]} to ${xs[xs.length - 1]}; FI number ${money(d.fiNumber)} in today's money.`,
    xLabel: 'Age', series, bands, width: document.getElementById('chart').clientWidth - 18,
    hlines: [{ name: 'fi-number', label: "FI number (today's money)", cls: 'fi', y: d.fiNumber }],
  }));

  const risk = [];
  if (d.monteCarlo) {
    const m = d.monteCarlo;
    risk.push(...stat('Monte Carlo success rate', pct(m.successRate), 'mc-success'));
    if (m.fiAge) risk.push(...stat('Age at FI, p10 / p50 / p90', `${m.fiAge.p10 ?? '—'} / ${m.fiAge.p50 ?? '—'} / ${m.fiAge.p90 ?? '—'}`, 'mc-fi-age'));
  }
  if (d.historical) {
    const h = d.historical;
    risk.push(...stat(`Historical success rate (${h.periods} windows of ${h.windowYears} years)`, pct(h.successRate), 'hist-success'));
  }
  document.getElementById('risk').replaceChildren(...risk);

  const head = ['Year', 'Age', 'Start', 'Contributions', 'Growth', 'Withdrawals', 'End', "End (today's money)", 'FI progress'];
  document.getElementById('table').replaceChildren(
    el('caption', { class: 'sr' }, 'Projection year by year'),
    el('thead', {}, el('tr', {}, head.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, p.map((r) => el('tr', { class: r.retired ? 'retired' : '' },
      el('td', {}, r.year), el('td', {}, r.age), el('td', {}, money(r.startBalance)), el('td', {}, money(r.contributions)),
      el('td', {}, money(r.growth)), el('td', {}, money(r.withdrawals)), el('td', {}, money(r.endBalance)),
      el('td', {}, money(r.realEndBalance)), el('td', {}, pct(r.fiProgress, 0))))));
}

document.getElementById('csv').addEventListener('click', () => {
  if (!last) return;
  const cols = ['year', 'age', 'startBalance', 'contributions', 'growth', 'withdrawals', 'endBalance', 'realEndBalance', 'fiProgress'];
  const lines = [cols.join(',')].concat(last.projections.map((r) => cols.map((c) => r[c]).join(',')));
  download('fiplan-projection.csv', 'text/csv', lines.join('\n') + '\n');
});

document.getElementById('share').addEventListener('click', async () => {
  toURL();
  try {
    await navigator.clipboard.writeText(location.href);
    status(st, '', 'Link copied: it opens this plan.');
  } catch {
    status(st, '', 'Copy the address bar: it holds this plan.');
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

fromURL();
calculate();
